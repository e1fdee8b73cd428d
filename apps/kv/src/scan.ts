import { keyIdOf } from "./bytes";
import type { DataFile } from "./data-file";
import { checkRecord, decodeHeader, HEADER_SIZE, type RecordHeader, recordSize } from "./record";

/** Damage a scan found in a data file. */
export interface Damage {
  /** Where the first bad byte of the damaged region is. */
  readonly offset: number;
  /**
   * `torn-tail`: no valid record follows, so it is the tail of an interrupted write: safe to cut off.
   * `corrupt`: a valid record follows at `resumeAt`, so records in between were damaged after they were written.
   */
  readonly kind: "torn-tail" | "corrupt";
  /** Where scanning resumed (`corrupt` only). */
  readonly resumeAt?: number;
}

/** What a scan saw. */
export interface ScanResult {
  /** The end of the last valid record (the file's length when it is clean). */
  readonly validEnd: number;
  readonly records: number;
  readonly damage: Damage[];
}

/** Called for every valid record, with the key as a key directory id. */
export type RecordVisitor = (
  header: RecordHeader,
  id: string,
  offset: number,
  size: number,
  bytes: Uint8Array,
  at: number,
) => void;

const CHUNK = 1 << 20;

/**
 * Reads `file` from `from` to its end in large sequential chunks, calling `visit` for each record whose CRC
 * matches. A bad record starts a search for the next valid one: none means a torn tail, one means corruption
 * in the middle (reported, and scanning goes on from there).
 */
export function scanDataFile(
  file: DataFile,
  from: number,
  visit: RecordVisitor,
  onProgress?: (position: number) => void,
): ScanResult {
  const size = file.size;
  const damage: Damage[] = [];
  let buf = new Uint8Array(CHUNK);
  let bufPos = from; // file position of buf[0]
  let bufLen = 0;
  let pos = from;
  let records = 0;
  let validEnd = from;

  const ensure = (need: number): boolean => {
    if (pos + need > size) return false;
    if (pos >= bufPos && pos + need <= bufPos + bufLen) return true;
    if (need > buf.length) buf = new Uint8Array(need);
    bufPos = pos;
    bufLen = file.read(pos, buf, 0, Math.min(buf.length, size - pos));
    return bufLen >= need;
  };

  while (pos < size) {
    let ok = false;
    let header: RecordHeader | null = null;
    let total = 0;
    if (ensure(HEADER_SIZE)) {
      header = decodeHeader(buf, pos - bufPos);
      if (header) {
        total = recordSize(header.keyLength, header.valueLength);
        ok = ensure(total) && checkRecord(buf, pos - bufPos, total);
      }
    }
    if (ok && header) {
      const at = pos - bufPos;
      visit(
        header,
        keyIdOf(buf, at + HEADER_SIZE, at + HEADER_SIZE + header.keyLength),
        pos,
        total,
        buf,
        at,
      );
      records++;
      pos += total;
      validEnd = pos;
      if (onProgress && records % 4096 === 0) onProgress(pos);
      continue;
    }
    const next = findNextRecord(file, pos + 1, size);
    if (next < 0) {
      damage.push({ offset: pos, kind: "torn-tail" });
      break;
    }
    damage.push({ offset: pos, kind: "corrupt", resumeAt: next });
    pos = next;
    bufLen = 0;
  }
  onProgress?.(validEnd);
  return { validEnd, records, damage };
}

/** The first position in `[from, size)` holding a record that passes its CRC, or -1. */
export function findNextRecord(file: DataFile, from: number, size: number): number {
  const window = new Uint8Array(CHUNK + HEADER_SIZE);
  for (let base = from; base < size; base += CHUNK) {
    const n = file.read(base, window, 0, Math.min(window.length, size - base));
    const last = Math.min(CHUNK, n - HEADER_SIZE + 1);
    for (let i = 0; i < last; i++) {
      const header = decodeHeader(window, i);
      if (!header) continue;
      const total = recordSize(header.keyLength, header.valueLength);
      if (base + i + total > size) continue;
      const record = new Uint8Array(total);
      file.readAt(base + i, record, 0, total);
      if (checkRecord(record, 0, total)) return base + i;
    }
  }
  return -1;
}
