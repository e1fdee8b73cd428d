import { BigEndian } from "@rafkit/bits";
import { writeLatin1 } from "./bytes";
import { crc32 } from "./crc32";

/**
 * One record of a data file (all integers big-endian):
 *
 * | offset | size | field                                                         |
 * | ------ | ---- | ------------------------------------------------------------- |
 * | 0      | 4    | CRC-32 of bytes 4 to the end of the record                    |
 * | 4      | 8    | timestamp: microseconds since the epoch, strictly increasing  |
 * | 12     | 4    | key length (1 to {@link MAX_KEY_LENGTH})                       |
 * | 16     | 4    | value length, or -1 for a tombstone                           |
 * | 20     | k    | key                                                           |
 * | 20+k   | v    | value                                                         |
 *
 * The timestamp doubles as the record's version: when two records of a key exist (a compaction copy next to
 * its original, or an old value next to a newer one), the larger timestamp wins.
 */
export const HEADER_SIZE = 20;
/** Largest key, in bytes. */
export const MAX_KEY_LENGTH = 0xffff;
/** Largest value, in bytes (1 GiB). */
export const MAX_VALUE_LENGTH = 0x4000_0000;
/** The value length that marks a tombstone. */
export const TOMBSTONE = -1;

/** A decoded record header. */
export interface RecordHeader {
  readonly crc: number;
  readonly timestamp: number;
  readonly keyLength: number;
  /** -1 for a tombstone. */
  readonly valueLength: number;
}

/** Total on-disk size of a record. */
export function recordSize(keyLength: number, valueLength: number): number {
  return HEADER_SIZE + keyLength + Math.max(valueLength, 0);
}

/**
 * Encodes a record (`value` null for a tombstone) into a new buffer. `key` is the key's bytes, or the key directory
 * id (one latin1 char per byte), which is written byte for byte without an encoder.
 */
export function encodeRecord(
  timestamp: number,
  key: Uint8Array | string,
  value: Uint8Array | null,
): Uint8Array {
  const out = Buffer.allocUnsafe(recordSize(key.length, value === null ? 0 : value.length));
  encodeRecordInto(out, 0, timestamp, key, value);
  return out;
}

/**
 * Encodes a record into `out` at `off` (a data file's append buffer: no allocation) and returns its size. Every
 * byte of the record is written, so `out` may be uninitialised memory.
 */
export function encodeRecordInto(
  out: Buffer,
  off: number,
  timestamp: number,
  key: Uint8Array | string,
  value: Uint8Array | null,
): number {
  const size = recordSize(key.length, value === null ? 0 : value.length);
  BigEndian.setSafeInt64(out, off + 4, timestamp);
  BigEndian.setInt32(out, off + 12, key.length);
  BigEndian.setInt32(out, off + 16, value === null ? TOMBSTONE : value.length);
  if (typeof key === "string") writeLatin1(out, off + HEADER_SIZE, key);
  else out.set(key, off + HEADER_SIZE);
  if (value !== null) out.set(value, off + HEADER_SIZE + key.length);
  BigEndian.setUint32(out, off, crc32(out, off + 4, off + size));
  return size;
}

/**
 * Decodes the header at `off`, or returns null when its lengths are impossible (which means corruption or
 * a torn write, never a valid record).
 */
export function decodeHeader(bytes: Uint8Array, off: number): RecordHeader | null {
  const keyLength = BigEndian.getInt32(bytes, off + 12);
  const valueLength = BigEndian.getInt32(bytes, off + 16);
  if (keyLength < 1 || keyLength > MAX_KEY_LENGTH) return null;
  if (valueLength < TOMBSTONE || valueLength > MAX_VALUE_LENGTH) return null;
  const hi = BigEndian.getInt32(bytes, off + 4);
  // A timestamp beyond 2^53 is not one we wrote.
  if (hi < 0 || hi > 0x1fffff) return null;
  return {
    crc: BigEndian.getUint32(bytes, off),
    timestamp: BigEndian.getSafeInt64(bytes, off + 4),
    keyLength,
    valueLength,
  };
}

/**
 * A sync point: `crc32(4) syncedEnd(8) keyLength(4) = 0 valueLength(4) = 8 "RKVSYNC1"`, appended before the first
 * record after an fsync and when a file is sealed: it attests that the file's first `syncedEnd` bytes were on disk
 * before it was written. Recovery uses it to tell a power cut's torn unsynced tail (a clean end) from damage to
 * fsynced bytes (docs/RECOVERY.md). It is no record: no key, never in a hint or the key directory.
 */
export const SYNC_POINT_SIZE = HEADER_SIZE + 8;
const SYNC_MAGIC = Buffer.from("RKVSYNC1", "latin1");

/** Encodes a sync point attesting `syncedEnd` into `out` at `off`; returns its size. */
export function encodeSyncPointInto(out: Buffer, off: number, syncedEnd: number): number {
  BigEndian.setSafeInt64(out, off + 4, syncedEnd);
  BigEndian.setInt32(out, off + 12, 0);
  BigEndian.setInt32(out, off + 16, 8);
  out.set(SYNC_MAGIC, off + HEADER_SIZE);
  BigEndian.setUint32(out, off, crc32(out, off + 4, off + SYNC_POINT_SIZE));
  return SYNC_POINT_SIZE;
}

/**
 * The `syncedEnd` of the sync point at `off` (where {@link SYNC_POINT_SIZE} bytes must be readable), or -1 when
 * there is none there (a record, or damage).
 */
export function decodeSyncPoint(bytes: Uint8Array, off: number): number {
  if (BigEndian.getInt32(bytes, off + 12) !== 0 || BigEndian.getInt32(bytes, off + 16) !== 8)
    return -1;
  for (let i = 0; i < 8; i++) if (bytes[off + HEADER_SIZE + i] !== SYNC_MAGIC[i]) return -1;
  const hi = BigEndian.getInt32(bytes, off + 4);
  if (hi < 0 || hi > 0x1fffff || !checkRecord(bytes, off, SYNC_POINT_SIZE)) return -1;
  return BigEndian.getSafeInt64(bytes, off + 4);
}

/** True when the record of `size` bytes at `off` matches its CRC. */
export function checkRecord(bytes: Uint8Array, off: number, size: number): boolean {
  return BigEndian.getUint32(bytes, off) === crc32(bytes, off + 4, off + size);
}

/**
 * True when the `size` bytes at `off` are the live record the key directory (or a hint) says they are: key `id`
 * (one latin1 char per byte), written at `timestamp`, a value filling the rest, and a matching CRC. A CRC alone
 * does not say it: a record rewritten with its CRC made anew would give another key's bytes, or a length past the
 * record, as the value.
 */
export function isRecordOf(
  bytes: Uint8Array,
  off: number,
  size: number,
  id: string,
  timestamp: number,
): boolean {
  const header = decodeHeader(bytes, off);
  if (
    header === null ||
    header.timestamp !== timestamp ||
    header.keyLength !== id.length ||
    header.valueLength < 0 ||
    HEADER_SIZE + header.keyLength + header.valueLength !== size
  )
    return false;
  for (let i = 0; i < id.length; i++) {
    if (bytes[off + HEADER_SIZE + i] !== id.charCodeAt(i)) return false;
  }
  return checkRecord(bytes, off, size);
}
