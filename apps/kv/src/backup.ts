import * as fs from "node:fs";
import * as path from "node:path";
import { type DamageNote, readDamaged, writeDamaged } from "./damage-file";
import { KvError } from "./errors";
import {
  DAMAGE_FILE,
  dataFileName,
  hintFileName,
  INCOMPLETE_BACKUP_FILE,
  MARKER_FILE,
} from "./file-names";
import { decodeHint } from "./hint-file";
import { readMarker, writeMarker } from "./marker";
import { StoreDir } from "./store-dir";
import type { StoreState } from "./store-state";

/** The outcome of `Store.backup`. */
export interface BackupResult {
  /** The backup's directory (an absolute path). */
  readonly dir: string;
  /** Data files copied. */
  readonly files: number;
  /** Bytes of data copied. */
  readonly bytes: number;
}

const CHUNK = 1 << 20;

/**
 * Copies the store into `dest` (missing, or an empty directory), as one synchronous step with no compaction
 * running: every data file up to its content end at this moment (so every write acknowledged before, and none
 * cut in half), the sealed files' hints, and the marker. Each file is written under a temp name, fsynced and
 * renamed, and the directory fsynced, so a crash during a backup leaves no file that looks complete but is not; and
 * the directory holds `BACKUP-INCOMPLETE` until the copy is whole, so a copy cut short does not open as a store with
 * keys missing. A backup that fails removes what it wrote (and the directory, if it made it).
 * `flushFailed` reports a failed flush of the active file's buffered appends (the store stops, as for any failed
 * write).
 *
 * The copy is of what `state` holds, which for a live reader (no OS lock keeps a writer out) may be older than the
 * directory: so the marker written is the state's own, not the directory's (a compaction committed since would make
 * the copied files obsolete inputs), and a hint that covers more than the bytes copied goes only where the store
 * found that file damaged (cut short under its hint); else it is one written since, for a file the writer sealed
 * after the load. The hints of data files found lost go too, and the damage notes are the state's own (what its open
 * and its reads found) with the directory's about the files copied: the copy must report damage as the store does,
 * not answer older values.
 */
export function backupStore(
  state: StoreState,
  dest: string,
  flushFailed: (error: unknown) => void,
): BackupResult {
  if (typeof dest !== "string" || dest === "")
    throw new KvError("ERR_KV_INVALID_ARG", "backup destination must be a non-empty path string");
  const ops = state.dir.ops;
  const abs = path.resolve(dest);
  if (within(state.dir.path, realPathOf(ops, abs)) || underByIdentity(state.dir.path, abs))
    throw new KvError("ERR_KV_INVALID_ARG", "a store cannot be backed up into itself", abs);
  const stat = ops.stat(abs);
  if (stat !== undefined && (!stat.isDirectory || ops.list(abs).length > 0)) {
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `backup destination ${abs} exists and is not an empty directory`,
      abs,
    );
  }
  try {
    state.active?.flush(); // under `never`, acknowledged writes may still be buffered
  } catch (error) {
    flushFailed(error);
    throw error;
  }
  const created = stat === undefined;
  if (created) {
    try {
      ops.makeDirectory(abs);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // A destination whose parent is missing or no directory is a bad argument, as a store's is for open.
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        `cannot create backup directory ${abs}: ${(error as Error).message}`,
        abs,
        { cause: error },
      );
    }
  }
  const to = new StoreDir(ops.realPath(abs), ops);
  let copied: BackupResult;
  try {
    if (created) ops.syncDirectory(path.dirname(abs));
    // Marked incomplete until whole: a copy cut short by a crash has data files that look like a store's.
    to.ops.writeFileSynced(to.file(INCOMPLETE_BACKUP_FILE), new Uint8Array(0));
    to.sync();
    copied = copyStore(state, to);
    to.remove(INCOMPLETE_BACKUP_FILE);
    to.sync();
  } catch (error) {
    undoBackup(to, backupNames(state), created);
    throw error;
  }
  return copied;
}

/** Every name a backup of `state` may write, temp names included: what its undo may remove, and nothing else. */
function backupNames(state: StoreState): Set<string> {
  const ids = [...state.files.keys(), ...state.lost];
  const names = [
    ...ids.flatMap((id) => [dataFileName(id), hintFileName(id)]),
    MARKER_FILE,
    DAMAGE_FILE,
  ];
  return new Set(names.flatMap((name) => [name, `${name}.tmp`]));
}

/** Copies the files of `state` into `to` (see {@link backupStore}). */
function copyStore(state: StoreState, to: StoreDir): BackupResult {
  const active = state.active;
  let bytes = 0;
  const ids = [...state.files.keys()].sort((a, b) => a - b);
  const buffer = new Uint8Array(CHUNK);
  for (const id of ids) {
    const source = state.files.get(id)!;
    const name = dataFileName(id);
    const size = source.size;
    const copy = to.open(`${name}.tmp`, "rw");
    try {
      copy.truncate(0);
      for (let at = 0; at < size; at += CHUNK) {
        const n = Math.min(CHUNK, size - at);
        source.readAt(at, buffer, 0, n);
        copy.append(buffer.subarray(0, n));
      }
      copy.sync();
    } finally {
      copy.close();
    }
    to.rename(`${name}.tmp`, name);
    bytes += size;
    // After its data file: a hint without one would be taken for lost data. Not the active file's (it has none).
    const hint = source === active ? null : state.dir.readIfAny(hintFileName(id));
    if (hint !== null && (coversAtMost(hint, size) || damageIn(state, name))) {
      copyFile(to, hintFileName(id), hint);
    }
  }
  for (const id of state.lost) {
    const hint = state.dir.readIfAny(hintFileName(id));
    if (hint !== null) copyFile(to, hintFileName(id), hint);
  }
  if (state.firstLive > 0) writeMarker(to, state.firstLive);
  const damage = damageNotes(state, ids);
  if (damage.length > 0) writeDamaged(to, damage);
  to.sync();
  return { dir: to.path, files: ids.length, bytes };
}

/**
 * A failed backup changes nothing: the files it wrote into `to` (missing or empty before) go, only those (another
 * program's are not its to remove), then the marker of an incomplete backup, but only once none of them is left:
 * else it stays, and the copy does not open. Then the directory, if the backup made it. Best effort: the backup's
 * error is the one thrown.
 */
function undoBackup(to: StoreDir, ours: ReadonlySet<string>, created: boolean): void {
  const left = (): string[] | undefined => {
    try {
      return to.list().filter((name) => ours.has(name));
    } catch {
      return undefined; // unknown: as if some were left
    }
  };
  const attempt = (step: () => void) => {
    try {
      step();
    } catch {}
  };
  for (const name of left() ?? []) attempt(() => to.remove(name));
  attempt(() => to.sync());
  if (left()?.length !== 0) return;
  attempt(() => to.remove(INCOMPLETE_BACKUP_FILE));
  if (!created) return;
  attempt(() => to.ops.removeDirectory?.(to.path));
  attempt(() => to.ops.syncDirectory(path.dirname(to.path)));
}

/**
 * The copy's damage notes: the store's own (what its open loaded and its reads found), and the directory's notes
 * about files the copy holds, which another process may have found since, as long as no compaction has committed
 * since the load (the marker is the one loaded: the files are the same ones). Not the directory's notes about files
 * the copy does not hold.
 */
function damageNotes(state: StoreState, ids: readonly number[]): DamageNote[] {
  const notes: DamageNote[] = state
    .damageNotes()
    .map(({ file, offset, bytes }) => ({ file, offset, bytes }));
  let sameFiles: boolean;
  try {
    sameFiles = readMarker(state.dir) === state.firstLive;
  } catch {
    sameFiles = false; // a damaged marker: the store's own notes only
  }
  if (!sameFiles) return notes;
  const copied = new Set(ids.flatMap((id) => [dataFileName(id), hintFileName(id)]));
  for (const d of readDamaged(state.dir)) {
    if (copied.has(d.file) && !notes.some((n) => n.file === d.file && n.offset === d.offset))
      notes.push(d);
  }
  return notes;
}

/** Whether `hint` covers at most `size` bytes of its data file (a damaged hint counts: it goes along as it is). */
function coversAtMost(hint: Uint8Array, size: number): boolean {
  return (decodeHint(hint)?.coveredLength ?? 0) <= size;
}

/**
 * Whether the store found damage in data file `name`: a hint that covers more than the file holds is then the
 * evidence of bytes lost (a file cut short), which the copy must report too, not a hint written since the load.
 */
function damageIn(state: StoreState, name: string): boolean {
  // Not a torn tail: a live reader sees one where a writer's append was half done, which the writer's hint covers.
  return state.recovery.some((issue) => issue.file === name && issue.kind === "corrupt");
}

function copyFile(to: StoreDir, name: string, bytes: Uint8Array): void {
  to.ops.writeFileSynced(to.file(`${name}.tmp`), bytes);
  to.rename(`${name}.tmp`, name);
}

/** `abs` with its deepest existing directory's symlinks resolved (the rest does not exist yet). */
function realPathOf(ops: StoreDir["ops"], abs: string): string {
  let existing = abs;
  while (ops.stat(existing) === undefined && path.dirname(existing) !== existing)
    existing = path.dirname(existing);
  return path.join(ops.realPath(existing), path.relative(existing, abs));
}

/** Whether `p` is `dir` or inside it: a backup there would add files (a directory, data files) to the store. */
function within(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Whether an existing ancestor of `abs` (or `abs`) is the directory `dir` itself, by device and inode: spellings
 * differ where a file system ignores case (macOS, by default), which {@link within} compares exactly. Kept beside
 * `within`, not instead of it: where a file system reports no inode (0), only the spelling can tell.
 */
function underByIdentity(dir: string, abs: string): boolean {
  const store = fs.statSync(dir, { bigint: true, throwIfNoEntry: false });
  if (store === undefined || store.ino === 0n) return false;
  for (let p = abs; ; p = path.dirname(p)) {
    const s = fs.statSync(p, { bigint: true, throwIfNoEntry: false });
    if (s !== undefined && s.dev === store.dev && s.ino === store.ino) return true;
    if (path.dirname(p) === p) return false;
  }
}
