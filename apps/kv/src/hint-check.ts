import { keyIdOf } from "./bytes";
import type { DataFile } from "./data-file";
import type { HintEntry } from "./hint-file";
import { decodeHeader, HEADER_SIZE, recordSize } from "./record";

/**
 * Where a hint and its data file disagree, checked cheaply at open: the offset of its first or last entry when that
 * is not a record there with the key, timestamp and lengths the hint gives (its header and key are read, not its
 * value), else -1. Timestamps are microseconds, so a hint of other data (restored or copied from elsewhere) fails
 * too. Damage to values, or between those two records, is found when the records are read, by `verify`, or by a
 * repair, which scans every data file.
 */
export function hintMismatch(file: DataFile, entries: readonly HintEntry[]): number {
  if (entries.length === 0) return -1;
  const first = entries[0]!;
  if (!recordAgrees(file, first)) return first.offset;
  const last = entries.at(-1)!;
  return recordAgrees(file, last) ? -1 : last.offset;
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

/** Whether every entry of a hint is one of the records a scan of its data file `seen` (for `verify`). */
export function hintMatches(hint: readonly HintEntry[], seen: readonly HintEntry[]): boolean {
  const byOffset = new Map(seen.map((s) => [s.offset, s]));
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
