import { BigEndian } from "@rafkit/bits";
import { keyIdOf, writeLatin1 } from "./bytes";
import { crc32 } from "./crc32";
import { HEADER_SIZE, MAX_KEY_LENGTH, MAX_VALUE_LENGTH } from "./record";

/**
 * A hint file lists the records of one data file, without values, so that opening needs no data scan:
 *
 * entries, each `timestamp(8) keyLength(4) valueLength(4, -1 = tombstone) offset(8) key`,
 * then a 24-byte footer `count(4) coveredLength(8) crc32(4) magic "RKVHINT2"(8)`, the CRC covering every byte
 * before it (the entries, the count and the covered length). A hint is derived data: one that fails any check (an
 * older format's too) is not used, and the data file is scanned instead.
 *
 * `coveredLength` is the data file length the hint describes; bytes of the data file beyond it are scanned.
 */
export interface HintEntry {
  /** The key as a key directory id (latin1, one char per byte). */
  readonly id: string;
  readonly timestamp: number;
  /** -1 for a tombstone. */
  readonly valueLength: number;
  readonly offset: number;
}

const MAGIC = [0x52, 0x4b, 0x56, 0x48, 0x49, 0x4e, 0x54, 0x32]; // "RKVHINT2"
const FOOTER = 24;
const ENTRY = 24;

/**
 * Builds a hint file as records are appended: each entry is encoded at once into a growing buffer, so that a write
 * leaves no object behind for the garbage collector to promote, and sealing a data file only adds the footer.
 */
export class HintWriter {
  #bytes = new Uint8Array(4096);
  #length = 0;
  #count = 0;

  /** Entries added. */
  get count(): number {
    return this.#count;
  }

  /** Adds the entry of a record (`valueLength` -1 for a tombstone) whose key directory id is `id`. */
  add(id: string, timestamp: number, valueLength: number, offset: number): void {
    const need = this.#length + ENTRY + id.length;
    if (need > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(need, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    const out = this.#bytes;
    const off = this.#length;
    BigEndian.setSafeInt64(out, off, timestamp);
    BigEndian.setInt32(out, off + 8, id.length);
    BigEndian.setInt32(out, off + 12, valueLength);
    BigEndian.setSafeInt64(out, off + 16, offset);
    writeLatin1(out, off + ENTRY, id);
    this.#length = need;
    this.#count++;
  }

  /** The hint file for a data file of `coveredLength` bytes: the entries so far, then the footer. */
  finish(coveredLength: number): Uint8Array {
    const off = this.#length;
    const out = new Uint8Array(off + FOOTER);
    out.set(this.#bytes.subarray(0, off));
    BigEndian.setInt32(out, off, this.#count);
    BigEndian.setSafeInt64(out, off + 4, coveredLength);
    BigEndian.setUint32(out, off + 12, crc32(out, 0, off + 12));
    out.set(MAGIC, off + 16);
    return out;
  }
}

/** Encodes hint entries for a data file of `coveredLength` bytes. */
export function encodeHint(entries: readonly HintEntry[], coveredLength: number): Uint8Array {
  const writer = new HintWriter();
  for (const e of entries) writer.add(e.id, e.timestamp, e.valueLength, e.offset);
  return writer.finish(coveredLength);
}

/** A decoded hint: its entries, and the data file length it describes. */
export interface Hint {
  readonly entries: HintEntry[];
  readonly coveredLength: number;
}

/** A decoded hint file, or null when it fails any check (then the data file is scanned instead); never throws. */
export function decodeHint(bytes: Uint8Array): Hint | null {
  try {
    return decode(bytes);
  } catch {
    return null; // an int64 beyond 2^53 that the CRC happened to cover: not a hint we wrote
  }
}

function decode(bytes: Uint8Array): Hint | null {
  if (bytes.length < FOOTER) return null;
  const f = bytes.length - FOOTER;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[f + 16 + i] !== MAGIC[i]) return null;
  if (BigEndian.getUint32(bytes, f + 12) !== crc32(bytes, 0, f + 12)) return null;
  const count = BigEndian.getInt32(bytes, f);
  const coveredLength = BigEndian.getSafeInt64(bytes, f + 4);
  if (count < 0 || coveredLength < 0) return null;
  const entries: HintEntry[] = [];
  let off = 0;
  for (let i = 0; i < count; i++) {
    if (off + ENTRY > f) return null;
    const keyLength = BigEndian.getInt32(bytes, off + 8);
    if (keyLength < 1 || keyLength > MAX_KEY_LENGTH || off + ENTRY + keyLength > f) return null;
    const offset = BigEndian.getSafeInt64(bytes, off + 16);
    const valueLength = BigEndian.getInt32(bytes, off + 12);
    if (offset < 0 || valueLength < -1 || valueLength > MAX_VALUE_LENGTH) return null;
    if (offset + HEADER_SIZE + keyLength + Math.max(valueLength, 0) > coveredLength) return null;
    // As a record's header: the checksum held, yet no writer makes such a timestamp.
    const timestamp = BigEndian.getSafeInt64(bytes, off);
    if (timestamp < 0) return null;
    entries.push({
      timestamp,
      valueLength,
      offset,
      id: keyIdOf(bytes, off + ENTRY, off + ENTRY + keyLength),
    });
    off += ENTRY + keyLength;
  }
  return off === f ? { entries, coveredLength } : null;
}
