import * as zlib from "node:zlib";

/** Eight 256-entry tables for slicing-by-8: table k advances the CRC over a byte followed by k zero bytes. */
let tables: Int32Array | undefined;

function buildTables(): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[(k - 1) * 256 + n]!;
      t[k * 256 + n] = (prev >>> 8) ^ t[prev & 0xff]!;
    }
  }
  return t;
}

/**
 * The table-driven CRC-32 (IEEE 802.3, as zlib's), slicing by 8 bytes: for a record of a few hundred bytes it beats
 * a call into zlib, which costs a typed-array view and a trip into C++ before it starts. Also the fallback for Node
 * versions without `zlib.crc32` (before 20.15).
 */
export function crc32Table(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const t = (tables ??= buildTables());
  let c = -1;
  let i = start;
  for (const last = end - 8; i <= last; i += 8) {
    const a =
      c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    c =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * Extends prefix CRCs: given `out[from]` = the CRC-32 of `bytes[0, from)` (0 for `from` 0), sets `out[k]` to the
 * CRC-32 of `bytes[0, k)` for k = from + 1…to, one byte at a time.
 */
export function crc32Prefixes(bytes: Uint8Array, from: number, to: number, out: Int32Array): void {
  const t = (tables ??= buildTables());
  let c = ~out[from]!;
  for (let i = from; i < to; i++) {
    c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
    out[i + 1] = ~c;
  }
}

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** Below this many bytes {@link crc32Table} is faster than zlib's (BENCHMARKS.md, "Code constants"). */
const NATIVE_FROM = 512;

/** CRC-32 of `bytes[start, end)`: {@link crc32Table} for short ranges, zlib's native one for long ones when Node has it. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  if (native === undefined || end - start < NATIVE_FROM) return crc32Table(bytes, start, end);
  const view = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  return native(view) >>> 0;
}
