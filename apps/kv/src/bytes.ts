import { KvError } from "./errors";

/** A key or value: raw bytes, or a string stored as UTF-8. */
export type Bytes = Uint8Array | string;

const encoder = new TextEncoder();
/** A surrogate not part of a pair (with the `u` flag a pair is one code point, outside this class). */
const LONE_SURROGATE = /\p{Surrogate}/u;
const decoder = new TextDecoder("utf-8", { fatal: false });

/** UTF-8 bytes of a string, or the bytes themselves. */
export function toBytes(value: Bytes, what: string): Uint8Array {
  if (typeof value === "string") {
    // As for keys: the encoder would write U+FFFD for a lone surrogate, and the value would not read back as written.
    if (!isWellFormed(value)) {
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        `${what} is not well-formed UTF-16 (it has a lone surrogate); pass its bytes as a Uint8Array`,
      );
    }
    return encoder.encode(value);
  }
  if (value instanceof Uint8Array) {
    // A view of a transferred buffer, or one a resizable buffer shrank under, reads as empty: storing "" for it
    // would be a silent wrong value, and copying it throws an engine TypeError.
    if (value.length === 0 && !usable(value))
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        `${what}'s ArrayBuffer is detached (transferred) or shrank under it`,
      );
    return value;
  }
  throw new KvError("ERR_KV_INVALID_ARG", `${what} must be a Uint8Array or a string`);
}

const NOTHING: readonly number[] = [];

/** Whether an empty view can be copied: `set` throws for a detached or out-of-bounds one. */
function usable(view: Uint8Array): boolean {
  try {
    view.set(NOTHING);
    return true;
  } catch {
    return false;
  }
}

/**
 * The key directory's map key for some key bytes: one latin1 char per byte, so the mapping is exact and
 * strings compare in byte order. ASCII string keys map to themselves without encoding.
 */
export function keyId(key: Bytes): string {
  if (typeof key === "string") {
    if (isAscii(key)) return key;
    // UTF-8 has no bytes for a lone surrogate: the encoder writes U+FFFD, which would make "\ud800" and "\ufffd"
    // one key (and neither read back as written).
    if (hasLoneSurrogate(key)) {
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        "key is not well-formed UTF-16 (it has a lone surrogate); pass its bytes as a Uint8Array",
      );
    }
  }
  const bytes = toBytes(key, "key");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** `String#isWellFormed` (native, fast), or the pattern where a runtime lacks it. */
function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return native === undefined ? !LONE_SURROGATE.test(s) : native.call(s);
}

/**
 * Whether `s` is not well-formed UTF-16: it has a surrogate outside a pair, which UTF-8 cannot encode. No stored key
 * is such a string, so reads answer "not found" and writes refuse it.
 */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/** Whether every char is below 0x80. A loop rather than a regular expression: keys are short. */
export function isAscii(s: string): boolean {
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
 * Writes a key directory id (one latin1 char per byte) into `out` at `off`. Short ids are copied char by char: for
 * a key of a few dozen bytes that is several times cheaper than `Buffer#write`'s trip into C++.
 */
export function writeLatin1(out: Uint8Array, off: number, id: string): void {
  const n = id.length;
  if (n > 64) {
    Buffer.from(out.buffer, out.byteOffset, out.byteLength).write(id, off, n, "latin1");
    return;
  }
  for (let i = 0; i < n; i++) out[off + i] = id.charCodeAt(i);
}

/** Decodes UTF-8 (invalid sequences become U+FFFD). */
export function utf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
