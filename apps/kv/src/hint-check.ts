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
  const r = recordAt(file, h.offset);
  return (
    r !== null && r.timestamp === h.timestamp && r.valueLength === h.valueLength && r.id === h.id
  );
}

/**
 * The header and key of the record at `offset`, as a hint entry, when they are plausible (lengths in range, the key
 * inside the file); its value and CRC are not checked. For a damaged record, this is which key it was, if it shows.
 */
export function recordAt(file: DataFile, offset: number): HintEntry | null {
  if (offset < 0 || offset + HEADER_SIZE > file.size) return null;
  const head = new Uint8Array(HEADER_SIZE);
  file.readAt(offset, head, 0, HEADER_SIZE);
  const header = decodeHeader(head, 0);
  if (header === null || offset + HEADER_SIZE + header.keyLength > file.size) return null;
  const key = new Uint8Array(header.keyLength);
  file.readAt(offset + HEADER_SIZE, key, 0, header.keyLength);
  return {
    id: keyIdOf(key, 0, key.length),
    timestamp: header.timestamp,
    valueLength: header.valueLength,
    offset,
  };
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
