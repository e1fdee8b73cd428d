import * as path from "node:path";
import type { DataFile } from "./data-file";
import { LOST_FOUND, type StoreDir } from "./store-dir";

// What recovery keeps aside before it cuts: a torn tail's bytes, copied into `lost+found/`.

const CHUNK = 1 << 20;

/**
 * Copies the bytes of data file `name` from `from` to its content end into {@link LOST_FOUND} as
 * `NAME.cut-at-FROM`, durably (a temp name, fsync, rename, fsync of the folder), before recovery cuts them off: the
 * store cannot tell every torn tail from damage to fsynced records (docs/RECOVERY.md, "What cannot be told apart"),
 * so none is cut without a trace. A copy holding the same bytes under that name already (an open that a crash
 * stopped between its copy and its cut) is kept as it is, so a crash there adds no copy. Returns the copy's path
 * relative to the store directory.
 */
export function keepTail(dir: StoreDir, file: DataFile, name: string, from: number): string {
  const folder = dir.lostFound();
  const base = `${name}.cut-at-${from}`;
  let kept = base;
  for (let n = 1; ; n++) {
    const target = path.join(folder, kept);
    const there = dir.ops.stat(target, false);
    if (there === undefined) {
      copyTail(dir, file, from, target);
      break;
    }
    if (there.isFile && there.size === file.size - from && sameTail(dir, file, from, target)) break;
    kept = `${base}.${n}`;
  }
  return `${LOST_FOUND}/${kept}`;
}

function copyTail(dir: StoreDir, file: DataFile, from: number, target: string): void {
  const tmp = `${target}.tmp`;
  const copy = dir.ops.openData(tmp, "rw");
  try {
    copy.truncate(0); // a copy a crash interrupted
    const buffer = new Uint8Array(CHUNK);
    for (let at = from; at < file.size; at += CHUNK) {
      const n = Math.min(CHUNK, file.size - at);
      file.readAt(at, buffer, 0, n);
      copy.append(buffer.subarray(0, n));
    }
    copy.sync();
  } finally {
    copy.close();
  }
  dir.ops.rename(tmp, target);
  dir.ops.syncDirectory(path.dirname(target));
}

function sameTail(dir: StoreDir, file: DataFile, from: number, target: string): boolean {
  const copy = dir.ops.openData(target, "r");
  try {
    const mine = new Uint8Array(CHUNK);
    const theirs = new Uint8Array(CHUNK);
    for (let at = from; at < file.size; at += CHUNK) {
      const n = Math.min(CHUNK, file.size - at);
      file.readAt(at, mine, 0, n);
      if (copy.read(at - from, theirs, 0, n) !== n) return false;
      if (!Buffer.from(mine.buffer, 0, n).equals(Buffer.from(theirs.buffer, 0, n))) return false;
    }
    return true;
  } finally {
    copy.close();
  }
}
