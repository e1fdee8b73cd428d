import { KvError } from "./errors";

/** A key or value: raw bytes, or a string stored as UTF-8. */
export type Bytes = Uint8Array | string;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

/** UTF-8 bytes of a string, or the bytes themselves. */
export function toBytes(value: Bytes, what: string): Uint8Array {
  if (typeof value === "string") return encoder.encode(value);
  if (value instanceof Uint8Array) return value;
  throw new KvError("ERR_KV_INVALID_ARG", `${what} must be a Uint8Array or a string`);
}

/**
 * The key directory's map key for some key bytes: one latin1 char per byte, so the mapping is exact and
 * strings compare in byte order. ASCII string keys map to themselves without encoding.
 */
export function keyId(key: Bytes): string {
  if (typeof key === "string" && isAscii(key)) return key;
  const bytes = toBytes(key, "key");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** A loop rather than a regular expression: this is on every get's path, and a key is short. */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The key bytes behind a {@link keyId}. */
export function keyIdBytes(id: string): Uint8Array {
  return new Uint8Array(Buffer.from(id, "latin1"));
}

/** Same as {@link keyId} for bytes already in hand. */
export function keyIdOf(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1");
}

/**
 * A copy of `bytes[start, end)` in a Buffer from Node's pool: for small values far cheaper than a fresh typed array,
 * and a little cheaper than `Buffer.from` (no argument sniffing), which matters on a cache hit.
 */
export function copyOf(bytes: Uint8Array, start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  out.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
  return out;
}

/** Decodes UTF-8 (invalid sequences become U+FFFD). */
export function utf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
