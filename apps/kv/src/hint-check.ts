import { keyIdOf } from "./bytes";
import type { DataFile } from "./data-file";
import type { HintEntry } from "./hint-file";
import { decodeHeader, HEADER_SIZE, recordSize, SYNC_POINT_SIZE } from "./record";

/**
 * Where a hint and its data file disagree, checked cheaply at open: the offset of its first or last entry when that
 * is not a record there with the key, timestamp and lengths the hint gives (its header and key are read, not its
 * value), else -1. Timestamps are microseconds, so a hint of other data (restored or copied from elsewhere) fails
 * too. Damage to values, or between those two records, is found when the records are read, by `verify`, or by a
 * repair, which scans every data file.
 */
export function hintMismatch(
  file: DataFile,
  entries: readonly HintEntry[],
  coveredLength: number,
): number {
  const gap = untiled(entries, coveredLength);
  if (gap >= 0) return gap;
  if (entries.length === 0) return -1;
  const first = entries[0]!;
  if (!recordAgrees(file, first)) return first.offset;
  const last = entries.at(-1)!;
  return recordAgrees(file, last) ? -1 : last.offset;
}

/**
 * Where a hint's entries fail to tile the bytes it covers, else -1: a data file is records appended one after
 * another, with only sync points (of one fixed size) between them, so between consecutive entries, before the
 * first and after the last, the bytes must be a whole number of sync points. A hint that leaves a record out (its
 * key would be hidden, and a compaction would drop it) almost always leaves a gap of another size. No I/O.
 */
function untiled(entries: readonly HintEntry[], coveredLength: number): number {
  let end = 0;
  for (const h of entries) {
    const gap = h.offset - end;
    if (gap < 0 || gap % SYNC_POINT_SIZE !== 0) return end;
    end = h.offset + recordSize(h.id.length, h.valueLength);
  }
  const tail = coveredLength - end;
  return tail < 0 || tail % SYNC_POINT_SIZE !== 0 ? end : -1;
}

function recordAgrees(file: DataFile, h: HintEntry): boolean {
  if (h.offset < 0 || h.offset + recordSize(h.id.length, h.valueLength) > file.size) return false;
  const size = HEADER_SIZE + h.id.length;
  const bytes = new Uint8Array(size);
  file.readAt(h.offset, bytes, 0, size);
  const header = decodeHeader(bytes, 0);
  return (
    header !== null &&
    header.timestamp === h.timestamp &&
    header.keyLength === h.id.length &&
    header.valueLength === h.valueLength &&
    keyIdOf(bytes, HEADER_SIZE, size) === h.id
  );
}

/**
 * Whether a hint lists exactly the records a scan of its data file `seen` within the `coveredLength` bytes it
 * covers (for `verify` and repair): each entry one of them, and none of them left out.
 */
export function hintMatches(
  hint: readonly HintEntry[],
  seen: readonly HintEntry[],
  coveredLength: number,
): boolean {
  const byOffset = new Map(seen.map((s) => [s.offset, s]));
  const listed = new Set(hint.map((h) => h.offset));
  const covered = seen.filter(
    (s) => s.offset + recordSize(s.id.length, s.valueLength) <= coveredLength,
  );
  if (listed.size !== hint.length || !covered.every((s) => listed.has(s.offset))) return false;
  return hint.every((h) => {
    const s = byOffset.get(h.offset);
    return (
      s !== undefined &&
      s.id === h.id &&
      s.timestamp === h.timestamp &&
      s.valueLength === h.valueLength
    );
  });
}
