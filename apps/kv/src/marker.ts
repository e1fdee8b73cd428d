import { BigEndian } from "@rafkit/bits";
import { crc32 } from "./crc32";
import { KvError } from "./errors";
import { dataFileName, listStore, MARKER_FILE, MAX_FILE_ID } from "./file-names";
import type { StoreDir } from "./store-dir";

/**
 * The compaction marker `MERGED`: `"RKVM"(4) firstLiveId(8) crc32(4)`. Writing it (atomically: temp file, fsync,
 * rename, directory fsync) is the commit point of a compaction: from then on every data file numbered below
 * `firstLiveId` is obsolete, whether or not it has been deleted yet.
 */
const MAGIC = 0x524b564d;

/** The first live data file id, 0 when there is no marker. Throws `ERR_KV_CORRUPT` for a damaged marker. */
export function readMarker(dir: StoreDir): number {
  const path = dir.file(MARKER_FILE);
  if (dir.lstat(MARKER_FILE) === undefined) return 0;
  const bytes = dir.read(MARKER_FILE);
  if (
    bytes.length !== 16 ||
    BigEndian.getInt32(bytes, 0) !== MAGIC ||
    BigEndian.getUint32(bytes, 12) !== crc32(bytes, 0, 12)
  ) {
    throw new KvError("ERR_KV_CORRUPT", `compaction marker ${path} is damaged`, path);
  }
  // Its checksum holds, yet a value no compaction writes (a file id, or 0 for none) is damage all the same.
  const firstLive = BigEndian.getBigInt64(bytes, 4);
  if (firstLive < 0n || firstLive > BigInt(MAX_FILE_ID)) {
    throw new KvError(
      "ERR_KV_CORRUPT",
      `compaction marker ${path} names data file ${firstLive}, which no store numbers`,
      path,
    );
  }
  return Number(firstLive);
}

/** Commits a compaction: data files numbered below `firstLiveId` become obsolete. */
export function writeMarker(dir: StoreDir, firstLiveId: number): void {
  const bytes = new Uint8Array(16);
  BigEndian.setInt32(bytes, 0, MAGIC);
  BigEndian.setSafeInt64(bytes, 4, firstLiveId);
  BigEndian.setUint32(bytes, 12, crc32(bytes, 0, 12));
  dir.writeAtomic(MARKER_FILE, bytes);
}

/**
 * For a repair, when the marker is damaged: the first live id to use, when the files present settle it, else
 * `ERR_KV_CORRUPT`. The marker says which data files are a committed compaction's obsolete inputs; a crash while
 * the compaction deleted them leaves some (until the next writable open deletes them), and counted as live they
 * could bring back keys it had deleted (their tombstones dropped, or in an input already deleted). Nothing in the
 * files tells an obsolete input from a live file, but the newest data file is always live (every marker is the id
 * of a file a compaction started, and only lower ids are ever obsolete), and a file without a record changes
 * nothing, live or not. So when every other data file holds no record, and no hint lacks its data file (a deleted
 * input's, or lost data: which one depends on the marker), every file counts as live: 0.
 */
export function markerFromFiles(dir: StoreDir, damaged: unknown): number {
  const { dataIds, hintIds } = listStore(dir);
  const others = dataIds.slice(0, -1);
  const orphanHint = [...hintIds].some((id) => !dataIds.includes(id));
  if (!orphanHint && others.every((id) => holdsNoRecord(dir, dataFileName(id)))) return 0;
  const path = dir.file(MARKER_FILE);
  const range =
    dataIds.length === 0
      ? "no data files"
      : `${dataIds.length} data files (${dataFileName(dataIds[0]!)} to ${dataFileName(dataIds.at(-1)!)})`;
  throw new KvError(
    "ERR_KV_CORRUPT",
    `compaction marker ${path} is damaged, and repair cannot rebuild it: it named the first live one of the ` +
      `${range}, and ` +
      "files below it, left by a crash during a compaction, would bring back deleted keys if counted as live. " +
      "Restore MERGED from a backup; or, if no compaction was interrupted since the store's last writable open " +
      "(which deletes such files), delete MERGED and repair again",
    path,
    { cause: damaged },
  );
}

/** Whether a data file is empty or all zeros (an active file's preallocated tail): no record starts in zeros. */
function holdsNoRecord(dir: StoreDir, name: string): boolean {
  const file = dir.open(name, "r");
  try {
    const chunk = new Uint8Array(Math.min(file.size, 1 << 20));
    for (let pos = 0; pos < file.size; pos += chunk.length) {
      const n = Math.min(chunk.length, file.size - pos);
      file.readAt(pos, chunk, 0, n);
      for (let i = 0; i < n; i++) if (chunk[i] !== 0) return false;
    }
    return true;
  } finally {
    file.close();
  }
}
