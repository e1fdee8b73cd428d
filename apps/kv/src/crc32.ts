import * as zlib from "node:zlib";

let table: Uint32Array | undefined;

function buildTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}

/** The table-driven CRC-32 (IEEE 802.3, as zlib's), for Node versions without `zlib.crc32` (before 20.15). */
export function crc32Table(bytes: Uint8Array, start = 0, end = bytes.length): number {
  table ??= buildTable();
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = table[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 of `bytes[start, end)`: zlib's native one when Node has it, else {@link crc32Table}. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  if (native === undefined) return crc32Table(bytes, start, end);
  const view = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  return native(view) >>> 0;
}
