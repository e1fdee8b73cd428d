import { keyIdOf } from "./bytes";
import type { DataFile } from "./data-file";
import type { HintEntry } from "./hint-file";
import { checkRecord, decodeHeader, HEADER_SIZE, recordSize } from "./record";

/**
 * Whether a hint describes this data file, checked cheaply at open: its first and last entries must be valid
 * records there, with the key, timestamp and value length the hint gives. A hint restored or copied from other
 * data fails this (timestamps are microseconds, so two stores' records differ); damage between those two records
 * is found when the records are read, by `verify`, or by a repair, which scans every data file.
 */
export function hintAgrees(file: DataFile, entries: readonly HintEntry[]): boolean {
  return (
    hintStartAgrees(file, entries) && (entries.length === 0 || recordAgrees(file, entries.at(-1)!))
  );
}

/** Whether a hint's first entry is a valid record of this data file: the hint was written for it. */
export function hintStartAgrees(file: DataFile, entries: readonly HintEntry[]): boolean {
  return entries.length === 0 || recordAgrees(file, entries[0]!);
}

function recordAgrees(file: DataFile, h: HintEntry): boolean {
  const size = recordSize(h.id.length, h.valueLength);
  if (h.offset < 0 || h.offset + size > file.size) return false;
  const bytes = new Uint8Array(size);
  file.readAt(h.offset, bytes, 0, size);
  const header = decodeHeader(bytes, 0);
  return (
    header !== null &&
    header.timestamp === h.timestamp &&
    header.keyLength === h.id.length &&
    header.valueLength === h.valueLength &&
    checkRecord(bytes, 0, size) &&
    keyIdOf(bytes, HEADER_SIZE, HEADER_SIZE + header.keyLength) === h.id
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
