import { DAMAGE_FILE } from "./file-names";
import type { StoreDir } from "./store-dir";

/** A damaged record a read found: where it is, in the terms of `RecoveryIssue`. */
export interface DamageNote {
  readonly file: string;
  readonly offset: number;
  readonly bytes: number;
}

/**
 * The `DAMAGED` file: one line `file offset bytes` per damaged record that a read found after open (damage a hint
 * file hid). Written by a writer when it finds one, so that the next open is read-only too until a repair, which
 * deletes it. A file that does not parse still marks the store damaged.
 */
export function readDamaged(dir: StoreDir): DamageNote[] {
  if (dir.lstat(DAMAGE_FILE) === undefined) return [];
  const notes: DamageNote[] = [];
  for (const line of Buffer.from(dir.read(DAMAGE_FILE)).toString("latin1").split("\n")) {
    const [file, offset, bytes] = line.split(" ");
    if (file && Number.isSafeInteger(Number(offset)) && Number.isSafeInteger(Number(bytes))) {
      notes.push({ file, offset: Number(offset), bytes: Number(bytes) });
    }
  }
  return notes.length > 0 ? notes : [{ file: DAMAGE_FILE, offset: 0, bytes: 0 }];
}

/** Records `notes` (all of them, replacing the file) atomically. */
export function writeDamaged(dir: StoreDir, notes: readonly DamageNote[]): void {
  const text = notes.map((n) => `${n.file} ${n.offset} ${n.bytes}\n`).join("");
  dir.writeAtomic(DAMAGE_FILE, Buffer.from(text, "latin1"));
}

/** Forgets the damage: a repair dealt with it. */
export function clearDamaged(dir: StoreDir): void {
  if (dir.lstat(DAMAGE_FILE) === undefined) return;
  dir.remove(DAMAGE_FILE);
  dir.sync();
}
