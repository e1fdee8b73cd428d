import { isAscii } from "./ascii";
import { checkCount, checkRange, notAString } from "./bounds";
import { UTFDataFormatError } from "./errors";
import { shortAscii } from "./short-ascii";

/** The most bytes a `writeUTF` body may take: its length prefix is an unsigned 16-bit integer. */
const MAX_UTF_LENGTH = 65535;

// Decoded UTF-16 units of the non-ASCII path; grows up to a `readUTF` body's size, then is reused. A longer
// input gets an array of its own: kept, one 100 MB decode would hold 200 MB for the life of the process.
let chars = new Uint16Array(1024);
const KEPT_CHARS = MAX_UTF_LENGTH;
// Enough arguments per `String.fromCharCode.apply` to be fast, few enough for any engine's stack.
const CHUNK = 8192;
const ascii = new TextDecoder("utf-8");
// Up to this many bytes, ASCII is decoded in JavaScript: cheaper than any native decoder call.
const SMALL = 32;

/** Builds a string from UTF-16 units without the lone-surrogate replacement a decoder would do. */
function fromCharCodes(units: Uint16Array | Uint8Array, start: number, end: number): string {
  if (end - start <= CHUNK) {
    return String.fromCharCode.apply(null, units.subarray(start, end) as unknown as number[]);
  }
  let s = "";
  for (let i = start; i < end; i += CHUNK) {
    s += String.fromCharCode.apply(
      null,
      units.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[],
    );
  }
  return s;
}

/** Bytes `c` takes in modified UTF-8. */
function unitLength(c: number): number {
  return c >= 0x800 ? 3 : c >= 0x80 || c === 0 ? 2 : 1;
}

function encodedLength(s: string): number {
  if (typeof s !== "string") throw notAString(s);
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c === 0) n += unitLength(c) - 1;
  }
  return n;
}

function writeBody(s: string, dst: Uint8Array, offset: number): number {
  let o = offset;
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c === 0) break;
    dst[o++] = c;
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && c !== 0) {
      dst[o++] = c;
    } else if (c < 0x800) {
      dst[o++] = 0xc0 | (c >> 6);
      dst[o++] = 0x80 | (c & 0x3f);
    } else {
      dst[o++] = 0xe0 | (c >> 12);
      dst[o++] = 0x80 | ((c >> 6) & 0x3f);
      dst[o++] = 0x80 | (c & 0x3f);
    }
  }
  return o - offset;
}

function encode(s: string, dst: Uint8Array, offset: number): number {
  checkRange(offset, encodedLength(s), dst.length);
  return writeBody(s, dst, offset);
}

function writeUTF(s: string, dst: Uint8Array, offset: number): number {
  const len = encodedLength(s);
  if (len > MAX_UTF_LENGTH) {
    throw new UTFDataFormatError(
      `encoded string (${s.substring(0, 8)}...${s.substring(s.length - 8)}) too long: ${len} bytes`,
    );
  }
  checkRange(offset, len + 2, dst.length);
  dst[offset] = len >>> 8;
  dst[offset + 1] = len;
  return writeBody(s, dst, offset + 2) + 2;
}

function decode(bytes: Uint8Array, offset: number, length: number): string {
  checkCount(length, "Length");
  checkRange(offset, length, bytes.length);
  const end = offset + length;
  let i = offset;
  if (length <= SMALL) {
    let bits = 0;
    for (let k = offset; k < end; k++) bits |= bytes[k]!;
    if (bits < 0x80) {
      return length <= 16
        ? shortAscii(bytes, offset, length)
        : shortAscii(bytes, offset, 16) + shortAscii(bytes, offset + 16, length - 16);
    }
    // Not all ASCII: the loop below copies the ASCII run itself.
  } else {
    // Long ASCII (as most strings are) decodes natively after a native check.
    const body = bytes.subarray(offset, end);
    if (isAscii(body)) return ascii.decode(body);
    while (bytes[i]! < 0x80) i++;
  }
  if (chars.length < length && length <= KEPT_CHARS)
    chars = new Uint16Array(Math.min(Math.max(length, chars.length * 2), KEPT_CHARS));
  const out = length <= chars.length ? chars : new Uint16Array(length);
  let n = 0;
  for (let k = offset; k < i; k++) out[n++] = bytes[k]!;
  // The JDK's DataInputStream.readUTF loop; positions in messages count from the body's first byte.
  while (i < end) {
    const c = bytes[i]!;
    switch (c >> 4) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
      case 5:
      case 6:
      case 7:
        out[n++] = c;
        i++;
        break;
      case 12:
      case 13: {
        i += 2;
        if (i > end) throw new UTFDataFormatError("malformed input: partial character at end");
        const c2 = bytes[i - 1]!;
        if ((c2 & 0xc0) !== 0x80) {
          throw new UTFDataFormatError(`malformed input around byte ${i - offset}`);
        }
        out[n++] = ((c & 0x1f) << 6) | (c2 & 0x3f);
        break;
      }
      case 14: {
        i += 3;
        if (i > end) throw new UTFDataFormatError("malformed input: partial character at end");
        const c2 = bytes[i - 2]!;
        const c3 = bytes[i - 1]!;
        if ((c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) {
          throw new UTFDataFormatError(`malformed input around byte ${i - 1 - offset}`);
        }
        out[n++] = ((c & 0x0f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
        break;
      }
      default:
        // 10xx xxxx (a stray continuation byte) and 1111 xxxx (no such lead byte).
        throw new UTFDataFormatError(`malformed input around byte ${i - offset}`);
    }
  }
  return fromCharCodes(out, 0, n);
}

/**
 * Java's modified UTF-8, exactly as `DataOutputStream.writeUTF` writes it and
 * `DataInputStream.readUTF` reads it: U+0000 as `C0 80`, U+0001–U+007F in 1 byte, U+0080–U+07FF in 2,
 * U+0800–U+FFFF in 3, and a supplementary character as its two surrogates (3 bytes each).
 * Decoding accepts lone surrogates and overlong forms, as the JDK does.
 *
 * @example
 * ```ts
 * const s = "a\u0000é😀";
 * const bytes = new Uint8Array(ModifiedUtf8.encodedLength(s)); // 1 + 2 + 2 + 6 = 11
 * ModifiedUtf8.encode(s, bytes, 0); // 11
 * ModifiedUtf8.decode(bytes, 0, bytes.length) === s; // true
 * ```
 */
export const ModifiedUtf8 = Object.freeze({
  /**
   * Bytes `s` takes in modified UTF-8 (without a length prefix); exact for any string length. A `TypeError`
   * (`ERR_INVALID_ARG_TYPE`) when `s` is not a string, here and in `encode` and `writeUTF`.
   */
  encodedLength,
  /**
   * Writes `s` at `dst[offset]` and returns the number of bytes written. Throws `OutOfRangeError`
   * (a `RangeError`), writing nothing, when they do not fit.
   */
  encode,
  /**
   * Decodes `length` bytes at `bytes[offset]`. Throws {@link UTFDataFormatError} with the JDK's message
   * for malformed input ("around byte N" counts from `offset`) and `OutOfRangeError` when the range
   * does not fit `bytes` (a `TypeError` naming `Offset` or `Length` when one is not a number).
   */
  decode,
  /**
   * `DataOutputStream.writeUTF`'s whole record: a big-endian unsigned 16-bit byte length, then the
   * body. Returns the bytes written (length + 2). Throws {@link UTFDataFormatError}
   * ("encoded string (…) too long: N bytes") when the body exceeds 65535 bytes, and `OutOfRangeError`
   * when it does not fit `dst`; nothing is written on failure.
   */
  writeUTF,
  /** The longest body `writeUTF` accepts: 65535 bytes. */
  MAX_UTF_LENGTH,
});
