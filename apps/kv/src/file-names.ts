import type { StoreDir } from "./store-dir";

/**
 * The store directory's files:
 * - `0000000001.data`: data files, numbered by a counter that only grows;
 * - `0000000001.hint`: the hint file of a data file (its key directory entries, CRC-checked);
 * - `MERGED`: the compaction marker, naming the first data file id still in use (all lower ids are obsolete);
 * - `LOCK`: the lock file, holding the writer's pid;
 * - `DAMAGED`: damaged records a read found after open, until a repair (see `damage-file.ts`);
 * - `*.tmp`: files being written (a compaction output, a hint, a marker), removed on open;
 * - `BACKUP-INCOMPLETE`: in a backup's directory until the backup is whole: a copy cut short does not open.
 */
export const LOCK_FILE = "LOCK";
/** See {@link LOCK_FILE}. */
export const MARKER_FILE = "MERGED";
/** See {@link LOCK_FILE}. */
export const DAMAGE_FILE = "DAMAGED";
/** See {@link LOCK_FILE}. */
export const INCOMPLETE_BACKUP_FILE = "BACKUP-INCOMPLETE";

/** The largest data file id: it fits the key directory's 32-bit file field and the 10-digit names. */
export const MAX_FILE_ID = 0x7fffffff;

/** Whether `id` is one a store numbers its files with. */
export function validFileId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_FILE_ID;
}

/** `0000000042.data`. */
export function dataFileName(id: number): string {
  return `${String(id).padStart(10, "0")}.data`;
}

/** `0000000042.hint`. */
export function hintFileName(id: number): string {
  return `${String(id).padStart(10, "0")}.hint`;
}

/** What a store directory holds, by kind. */
export interface StoreListing {
  /** Data file ids, ascending. */
  readonly dataIds: number[];
  readonly hintIds: Set<number>;
  /** Names of leftover temp files. */
  readonly temps: string[];
  /** Data and hint files with an id no store numbers (0, or past {@link MAX_FILE_ID}): not this store's. */
  readonly foreign: string[];
}

const DATA = /^(\d{10})\.data$/;
const HINT = /^(\d{10})\.hint$/;

/** Whether `name` is a data file's name (`0000000001.data`) with an id a store uses. */
export function isDataFileName(name: string): boolean {
  const m = DATA.exec(name);
  return m !== null && validFileId(Number(m[1]));
}

/** Lists the store files of `dir`, ignoring files that are not the store's. */
export function listStore(dir: StoreDir): StoreListing {
  const dataIds: number[] = [];
  const hintIds = new Set<number>();
  const temps: string[] = [];
  const foreign: string[] = [];
  for (const name of dir.list()) {
    let m = DATA.exec(name);
    if (m) {
      if (validFileId(Number(m[1]))) dataIds.push(Number(m[1]));
      else foreign.push(name);
      continue;
    }
    m = HINT.exec(name);
    if (m) {
      if (validFileId(Number(m[1]))) hintIds.add(Number(m[1]));
      else foreign.push(name);
    } else if (name.endsWith(".tmp") && dir.ops.stat(dir.file(name), false)?.isDirectory === false)
      temps.push(name); // removed unfollowed; a directory of that name is not the store's, and is left alone
  }
  dataIds.sort((a, b) => a - b);
  return { dataIds, hintIds, temps, foreign };
}
