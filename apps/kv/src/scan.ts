import { keyIdOf } from "./bytes";
import { crc32Prefixes } from "./crc32";
import { crc32OfRange } from "./crc32-ranges";
import type { DataFile } from "./data-file";
import {
  checkRecord,
  decodeHeader,
  decodeSyncPoint,
  HEADER_SIZE,
  type RecordHeader,
  recordSize,
  SYNC_POINT_SIZE,
} from "./record";

/** Damage a scan found in a data file. */
export interface Damage {
  /** Where the first bad byte of the damaged region is. */
  readonly offset: number;
  /**
   * `torn-tail`: the tail of an interrupted write, safe to cut off: no valid record follows, or none of the sync
   * points after it attests that the damaged bytes had been fsynced (a power cut's reordered, torn unsynced writes).
   * `corrupt`: a sync point after it attests that the damaged bytes had been fsynced: damage to durable data.
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
  /**
   * Zero bytes at the end of the file: after the last valid record (a _zero tail_, the clean end of an active file
   * whose zeros were written ahead of its appends, not damage), or after the last non-zero byte of a torn tail.
   */
  readonly zeroTail: number;
  /** The largest `syncedEnd` of the sync points the scan passed (0 when none). */
  readonly attested: number;
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
/** How far past a chunk {@link findNextRecord} reads, so that the records its candidates claim are mostly in memory. */
const LOOKAHEAD = 1 << 20;

/**
 * Reads `file` from `from` to its end in large sequential chunks, calling `visit` for each record whose CRC
 * matches. Where no valid record starts, only zeros up to the end are the clean end (a zero tail, see
 * {@link ScanResult.zeroTail}); otherwise a search for the next valid record starts: none means a torn tail, one
 * means corruption in the middle (reported, and scanning goes on from there).
 *
 * Before damage is reported, the record where it starts is read again: a read-only scan of a file that its writer
 * is appending to may have raced an append (the zeros read before it landed, the bytes after it read later). The
 * writer writes in file order, so once the scan has seen bytes beyond the damage, the bytes of the damage itself
 * were written before them, and the second read sees them as they are.
 */
export function scanDataFile(
  file: DataFile,
  from: number,
  visit: RecordVisitor,
  onProgress?: (position: number) => void,
): ScanResult {
  const attestedFrom = new Map<number, number>();
  // Whether damage at `at` is attested: a sync point in a scan from `next` (the next valid record) passes it.
  const attestedDamage = (at: number, next: number) => {
    if (next < 0) return false;
    // Surveyed at the first region, for every region after it too (unless a writer's append moved them since).
    if (!attestedFrom.has(next)) survey(file, next, attestedFrom);
    return attestedFrom.get(next)! > at;
  };
  return scan(file, from, visit, onProgress, attestedDamage).result;
}

/** Decides whether damage at `at`, whose next valid record is at `next` (-1: none), is attested (so not a torn tail). */
type DamageDecision = (at: number, next: number, segmentAttested: number) => boolean;

/**
 * The `attested` of a scan from `start` and from the next record after each damaged region it meets, into
 * `attestedFrom`, in one pass and one backward sweep. A scan from a region's next record takes the largest
 * `syncedEnd` up to the next region, and beyond it only when that region is attested in turn (else it stops
 * there, a torn tail): so each value follows from the one after it. Recursing instead, a scan per region and per
 * region after it, took time doubling with each region.
 */
function survey(file: DataFile, start: number, attestedFrom: Map<number, number>): void {
  const regions: { at: number; next: number; before: number }[] = [];
  const { lastSegmentAttested } = scan(
    file,
    start,
    () => {},
    undefined,
    (at, next, before) => {
      regions.push({ at, next, before });
      return next >= 0; // go on past every region; which ones are attested is decided below
    },
  );
  // The segment from start to the first region (or the end), then one per region from its next record.
  const segmentFrom = (i: number) =>
    i + 1 < regions.length ? regions[i + 1]!.before : lastSegmentAttested;
  let after = -1; // attested of the scan from the next region's next record; -1 when that region is torn
  for (let i = regions.length - 1; i >= 0; i--) {
    const r = regions[i]!;
    if (r.next < 0) {
      after = -1;
      continue;
    }
    const attested = Math.max(segmentFrom(i), after);
    attestedFrom.set(r.next, attested);
    after = attested > r.at ? attested : -1;
  }
  const first = regions.length > 0 ? regions[0]!.before : lastSegmentAttested;
  attestedFrom.set(start, Math.max(first, after));
}

/**
 * The loop of {@link scanDataFile}; `decide` says whether each damaged region is attested. Also returns the largest
 * `syncedEnd` after the last region (or `from`), for {@link survey}.
 */
function scan(
  file: DataFile,
  from: number,
  visit: RecordVisitor,
  onProgress: ((position: number) => void) | undefined,
  decide: DamageDecision,
): { result: ScanResult; lastSegmentAttested: number } {
  const size = file.size;
  const damage: Damage[] = [];
  let buf = new Uint8Array(Math.max(Math.min(CHUNK, size - from), 0));
  let bufPos = from; // file position of buf[0]
  let bufLen = 0;
  let pos = from;
  let records = 0;
  let validEnd = from;
  let zeroTail = 0;
  let attested = 0;
  /** The largest `syncedEnd` since `from` or the last damaged region. */
  let segmentAttested = 0;
  /** The position of damage read a second time (see above), the end of its non-zero bytes, its next record. */
  let recheck = -1;
  let recheckEnd = 0;
  let recheckNext = -1;

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
    if (ensure(SYNC_POINT_SIZE)) {
      const synced = decodeSyncPoint(buf, pos - bufPos);
      if (synced >= 0) {
        attested = Math.max(attested, synced);
        segmentAttested = Math.max(segmentAttested, synced);
        pos += SYNC_POINT_SIZE;
        validEnd = pos;
        continue;
      }
    }
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
    if (recheck !== pos) {
      const nonZeroEnd = endOfNonZero(file, pos, size);
      if (nonZeroEnd === pos) {
        zeroTail = size - pos;
        break;
      }
      recheck = pos;
      recheckEnd = nonZeroEnd;
      recheckNext = findNextRecord(file, pos + 1, nonZeroEnd);
      bufLen = 0; // read the record at pos again, fresh, now that bytes beyond it have been read
      continue;
    }
    // Valid records after the damage prove nothing by themselves: a power cut may keep a later unsynced write and
    // lose an earlier one. Only a sync point after it, attesting that the damaged bytes were fsynced, does.
    if (!decide(pos, recheckNext, segmentAttested)) {
      damage.push({ offset: pos, kind: "torn-tail" });
      zeroTail = size - recheckEnd;
      break;
    }
    damage.push({ offset: pos, kind: "corrupt", resumeAt: recheckNext });
    pos = recheckNext;
    segmentAttested = 0;
    bufLen = 0;
  }
  onProgress?.(validEnd);
  return {
    result: { validEnd, records, damage, zeroTail, attested },
    lastSegmentAttested: segmentAttested,
  };
}

/**
 * The end of the last non-zero byte in `[from, size)` (`from` when there is none): read backwards in chunks, each
 * checked at memory speed, so that megabytes of zeros cost a few reads.
 */
export function endOfNonZero(file: DataFile, from: number, size: number): number {
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size - from, 0)));
  let end = size;
  while (end > from) {
    const start = Math.max(from, end - buf.length);
    const n = file.read(start, buf, 0, end - start);
    const chunk = buf.subarray(0, n);
    // Bytes missing (a file cut shorter meanwhile) hold nothing: they count as zeros.
    if (!chunk.equals(zeroChunk(n))) {
      let i = n - 1;
      while (chunk[i] === 0) i--;
      return start + i + 1;
    }
    end = start;
  }
  return from;
}

let zeroBuf = Buffer.alloc(0);
function zeroChunk(n: number): Buffer {
  if (zeroBuf.length < n) zeroBuf = Buffer.alloc(Math.max(n, 64 * 1024));
  return zeroBuf.subarray(0, n);
}

/**
 * The first position in `[from, nonZeroEnd)` holding a record (or a sync point) that passes its CRC, or -1. `nonZeroEnd` is the end of
 * the file's last non-zero byte: a record may run into the zeros after it (a value can end in zero bytes), but none
 * starts in them, since its key length is at least 1.
 */
export function findNextRecord(file: DataFile, from: number, nonZeroEnd: number): number {
  const size = file.size;
  // Each chunk's candidates, with what follows them up to LOOKAHEAD bytes. A small candidate is summed where it lies;
  // a larger one that ends in the window is checked from prefix CRCs, made as far as the candidates need, in a few
  // hundred steps rather than by summing all it claims (quadratic on some data: BENCHMARKS.md, "Code constants").
  const { window, prefixes } = searchBuffers();
  for (let base = from; base < nonZeroEnd; base += CHUNK) {
    const n = file.read(base, window, 0, Math.min(window.length, size - base));
    prefixes[0] = 0;
    let summed = 0;
    const last = Math.min(CHUNK, n - HEADER_SIZE + 1, nonZeroEnd - base);
    for (let i = 0; i < last; i++) {
      if (i + SYNC_POINT_SIZE <= n && decodeSyncPoint(window, i) >= 0) return base + i;
      const header = decodeHeader(window, i);
      if (!header) continue;
      const total = recordSize(header.keyLength, header.valueLength);
      if (base + i + total > size) continue;
      const end = i + total;
      if (end > n) {
        const record = new Uint8Array(total);
        file.readAt(base + i, record, 0, total);
        if (checkRecord(record, 0, total)) return base + i;
      } else if (total <= SUMMED_IN_PLACE) {
        if (checkRecord(window, i, total)) return base + i;
      } else {
        if (summed < end) crc32Prefixes(window, summed, end, prefixes);
        summed = Math.max(summed, end);
        if (crc32OfRange(prefixes, i + 4, end) === header.crc) return base + i;
      }
    }
  }
  return -1;
}

/** A candidate record this small is summed where it lies: cheaper than making prefix CRCs up to its end. */
const SUMMED_IN_PLACE = 512;

let buffers: { window: Uint8Array; prefixes: Int32Array } | undefined;

/** The search's window and prefix CRCs, made once (10 MiB) and kept: a scan may search after many damaged regions. */
function searchBuffers(): { window: Uint8Array; prefixes: Int32Array } {
  if (buffers === undefined) {
    const window = new Uint8Array(CHUNK + LOOKAHEAD);
    buffers = { window, prefixes: new Int32Array(window.length + 1) };
  }
  return buffers;
}

/**
 * The timestamp of the first record at or after `offset` in `file` (sync points skipped), or undefined when none
 * follows. Records that one writer appended are in timestamp order, so every record before `offset` is older.
 */
export function timestampFrom(file: DataFile, offset: number): number | undefined {
  const buf = new Uint8Array(SYNC_POINT_SIZE);
  let at = offset;
  while (at + HEADER_SIZE <= file.size) {
    const n = Math.min(SYNC_POINT_SIZE, file.size - at);
    file.readAt(at, buf, 0, n);
    if (n === SYNC_POINT_SIZE && decodeSyncPoint(buf, 0) >= 0) {
      at += SYNC_POINT_SIZE;
      continue;
    }
    return decodeHeader(buf, 0)?.timestamp;
  }
  return undefined;
}
