import { checkCount, checkIndex, checkRange, notBytes } from "./bounds";
import { type ByteOrder, invalidOrder } from "./codec";
import { CANONICAL_DOUBLE_NAN_HI, CANONICAL_FLOAT_NAN_BITS } from "./float-bits";
import { PLATFORM_LITTLE_ENDIAN } from "./scratch";

/** The typed arrays the bulk codecs fill and drain: every element type wider than a byte. */
export type NumericArray =
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

/**
 * Element width in bytes of a {@link NumericArray}; a `TypeError` for anything else. A 2-byte array is told by its
 * tag too (another realm's arrays have the same tags): a `Float16Array` is not one of them.
 */
function widthOf(a: NumericArray): 2 | 4 | 8 {
  if (ArrayBuffer.isView(a) && !(a instanceof DataView)) {
    const w = (a as NumericArray).BYTES_PER_ELEMENT;
    if (w === 4 || w === 8) return w;
    if (w === 2 && Object.prototype.toString.call(a) !== "[object Float16Array]") return w;
  }
  throw Object.assign(
    new TypeError("Expected an Int16/Uint16/Int32/Uint32/BigInt64/BigUint64/Float32/Float64Array"),
    { code: "ERR_INVALID_ARG_TYPE" },
  );
}

/** Whether `order` differs from the platform's, so bytes must be swapped. */
function needsSwap(order: ByteOrder): boolean {
  if (order === "little") return !PLATFORM_LITTLE_ENDIAN;
  if (order === "big") return PLATFORM_LITTLE_ENDIAN;
  throw invalidOrder(order);
}

function checkArgs(
  bytes: Uint8Array,
  byteOffset: number,
  arr: NumericArray,
  index: number,
  count: number,
  what: string,
): 2 | 4 | 8 {
  const w = widthOf(arr);
  if (
    !ArrayBuffer.isView(bytes) ||
    (bytes as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT !== 1
  ) {
    throw notBytes();
  }
  checkCount(count);
  checkRange(byteOffset, count * w, lengthOf(bytes));
  checkIndex(what, index, count, lengthOf(arr));
  return w;
}

/**
 * A typed array's length, 0 over a detached buffer. Not `a.length` alone: V8 11's optimised code (Node 20)
 * can return the length from before the detach, while a detached buffer's `byteLength` is always 0.
 */
function lengthOf(a: Uint8Array | NumericArray): number {
  return a.buffer.byteLength === 0 ? 0 : a.length;
}

function bswap32(x: number): number {
  return (x << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
}

/** Node's, Bun's and Deno's `Buffer`, found without importing `node:buffer` (browsers have none). */
type Swapper = { swap16(): unknown; swap32(): unknown; swap64(): unknown };
const NativeBuffer = (
  globalThis as {
    Buffer?: { from(b: ArrayBufferLike, off: number, len: number): Swapper; prototype?: unknown };
  }
).Buffer;
const nativeSwap =
  typeof (NativeBuffer?.prototype as Partial<Swapper> | undefined)?.swap32 === "function";
/** From this many elements, `Buffer#swapN` (native, vectorised) beats the JavaScript loop despite its call. */
const NATIVE_SWAP_FROM = 64;

/** Reverses the bytes of each `w`-byte element of an aligned region, in place. */
function swapInPlace(buffer: ArrayBufferLike, byteOffset: number, count: number, w: number): void {
  if (nativeSwap && count >= NATIVE_SWAP_FROM) {
    const b = NativeBuffer!.from(buffer, byteOffset, count * w);
    if (w === 2) b.swap16();
    else if (w === 4) b.swap32();
    else b.swap64();
    return;
  }
  if (w === 2) {
    const a = new Uint16Array(buffer, byteOffset, count);
    for (let i = 0; i < count; i++) {
      const x = a[i]!;
      a[i] = (x >>> 8) | (x << 8);
    }
  } else if (w === 4) {
    const a = new Int32Array(buffer, byteOffset, count);
    for (let i = 0; i < count; i++) a[i] = bswap32(a[i]!);
  } else {
    const a = new Int32Array(buffer, byteOffset, count * 2);
    for (let i = 0; i < a.length; i += 2) {
      const x = a[i]!;
      a[i] = bswap32(a[i + 1]!);
      a[i + 1] = bswap32(x);
    }
  }
}

/**
 * Decodes `count` elements of `dst`'s type from `src` starting at byte `srcOffset`, in byte order
 * `order`, into `dst[dstIndex …]`. Like Java's `readFully` of a `short[]`/`int[]`/`long[]`/….
 * `src` may start at any offset; NaN bits of floats are kept as they are.
 *
 * Throws `OutOfRangeError` (a `RangeError`) before writing anything when either range does not fit
 * or an offset, index or count is not a non-negative integer, and `TypeError` when one is not a number,
 * or for another array type or byte order.
 *
 * @example
 * ```ts
 * const ints = new Int32Array(2);
 * decodeArray(new Uint8Array([0, 0, 0, 1, 0, 0, 0, 2]), 0, ints, 0, 2, "big"); // ints = [1, 2]
 * ```
 */
export function decodeArray(
  src: Uint8Array,
  srcOffset: number,
  dst: NumericArray,
  dstIndex: number,
  count: number,
  order: ByteOrder,
): void {
  const w = checkArgs(src, srcOffset, dst, dstIndex, count, "Destination index");
  const swap = needsSwap(order);
  if (count === 0) return;
  const byteLength = count * w;
  const at = dst.byteOffset + dstIndex * w;
  // A byte copy into the (always aligned) destination is a memmove, and handles overlap;
  // the opposite byte order then swaps in place.
  new Uint8Array(dst.buffer, at, byteLength).set(src.subarray(srcOffset, srcOffset + byteLength));
  if (swap) swapInPlace(dst.buffer, at, count, w);
}

/**
 * Encodes `count` elements of `src` from `src[srcIndex]` into `dst` at byte `dstOffset`, in byte order
 * `order`. Like Java's `write` of a `short[]`/`int[]`/`long[]`/…; every float or double NaN is written
 * as Java's canonical NaN, as `writeFloat`/`writeDouble` do.
 *
 * Throws `OutOfRangeError` (a `RangeError`) before writing anything when either range does not fit
 * or an offset, index or count is not a non-negative integer, and `TypeError` when one is not a number,
 * or for another array type or byte order.
 *
 * @example
 * ```ts
 * const bytes = new Uint8Array(4);
 * encodeArray(new Uint16Array([0x0102, 0x0304]), 0, 2, bytes, 0, "little"); // bytes = [2, 1, 4, 3]
 * ```
 */
export function encodeArray(
  src: NumericArray,
  srcIndex: number,
  count: number,
  dst: Uint8Array,
  dstOffset: number,
  order: ByteOrder,
): void {
  const w = checkArgs(dst, dstOffset, src, srcIndex, count, "Source index");
  const swap = needsSwap(order);
  if (count === 0) return;
  let from = src;
  let fromIndex = srcIndex;
  if (mayOverlap(src.buffer, dst.buffer)) {
    // Work from a copy so every element is read before it can be overwritten.
    from = src.slice(srcIndex, srcIndex + count) as NumericArray;
    fromIndex = 0;
  }
  const byteLength = count * w;
  const srcAt = from.byteOffset + fromIndex * w;
  const dstAt = dst.byteOffset + dstOffset;
  if (!swap || dstAt % w === 0) {
    dst.set(new Uint8Array(from.buffer, srcAt, byteLength), dstOffset);
    if (swap) swapInPlace(dst.buffer, dstAt, count, w);
  } else {
    swapUnaligned(from, srcAt, count, w, dst, dstOffset);
  }
  // By tag, not instanceof: a Float32Array of another realm (vm, an iframe) is one too.
  const tag = (from as { [Symbol.toStringTag]: string })[Symbol.toStringTag];
  if (tag === "Float32Array" || tag === "Float64Array") {
    canonicalizeNaN(from as Float32Array | Float64Array, fromIndex, count, dst, dstOffset, order);
  }
}

/**
 * Whether two buffers may share memory. The same buffer may; so may two distinct `SharedArrayBuffer`
 * objects, since each `postMessage` or `structuredClone` of one gives a new object over the same
 * memory, which nothing in JavaScript can tell apart from other memory.
 */
function mayOverlap(a: ArrayBufferLike, b: ArrayBufferLike): boolean {
  return a === b || (isShared(a) && isShared(b));
}

function isShared(buffer: ArrayBufferLike): boolean {
  return (buffer as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === "SharedArrayBuffer";
}

/** From this many words (or 2-byte elements) a misaligned swap writes through a DataView, not byte by byte. */
const VIEW_FROM = 48;

/**
 * Writes elements in the non-native order to a destination too misaligned for an in-place swap:
 * each native word goes out with its bytes reversed, and the two words of an 8-byte element trade places.
 */
function swapUnaligned(
  from: NumericArray,
  srcAt: number,
  count: number,
  w: number,
  dst: Uint8Array,
  dstOffset: number,
): void {
  // Not the byte codecs: they would pull both whole codecs into a browser bundle. Byte stores for a few words,
  // where a DataView per call cost a small encode half as much again; a DataView past that, twice as fast a word.
  // The non-native order is big-endian on little-endian platforms, and little-endian otherwise.
  const big = PLATFORM_LITTLE_ENDIAN;
  const words = w === 2 ? undefined : new Int32Array(from.buffer, srcAt, count * (w >> 2));
  if ((words?.length ?? count) >= VIEW_FROM) {
    const view = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
    if (words === undefined) {
      const a = new Uint16Array(from.buffer, srcAt, count);
      for (let i = 0; i < count; i++) view.setUint16(dstOffset + i * 2, a[i]!, !big);
      return;
    }
    const pair = w === 8 ? 1 : 0;
    for (let i = 0; i < words.length; i++) view.setInt32(dstOffset + i * 4, words[i ^ pair]!, !big);
    return;
  }
  // Each byte shifted down from where the order puts it, masked (a Uint8ClampedArray would clamp, not wrap).
  const [s0, s1, s2, s3] = big ? [24, 16, 8, 0] : [0, 8, 16, 24];
  if (words === undefined) {
    const a = new Uint16Array(from.buffer, srcAt, count);
    for (let i = 0, o = dstOffset; i < count; i++, o += 2) {
      const x = a[i]!;
      dst[o] = (x >>> (s1 - 8)) & 0xff;
      dst[o + 1] = (x >>> (s2 - 8)) & 0xff;
    }
    return;
  }
  const pair = w === 8 ? 1 : 0;
  for (let i = 0, o = dstOffset; i < words.length; i++, o += 4) {
    const x = words[i ^ pair]!;
    dst[o] = (x >>> s0) & 0xff;
    dst[o + 1] = (x >>> s1) & 0xff;
    dst[o + 2] = (x >>> s2) & 0xff;
    dst[o + 3] = (x >>> s3) & 0xff;
  }
}

/** Rewrites the NaN elements of a float source as Java's canonical NaN in `dst`. */
function canonicalizeNaN(
  src: Float32Array | Float64Array,
  srcIndex: number,
  count: number,
  dst: Uint8Array,
  dstOffset: number,
  order: ByteOrder,
): void {
  // Made at the first NaN: most arrays have none, and a view per call cost small encodes a third more.
  let view: DataView | undefined;
  const little = order === "little";
  if (src.BYTES_PER_ELEMENT === 4) {
    for (let i = 0; i < count; i++) {
      const v = src[srcIndex + i]!;
      if (Number.isNaN(v)) {
        view ??= new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
        view.setInt32(dstOffset + i * 4, CANONICAL_FLOAT_NAN_BITS, little);
      }
    }
  } else {
    for (let i = 0; i < count; i++) {
      const v = src[srcIndex + i]!;
      if (Number.isNaN(v)) {
        view ??= new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
        const o = dstOffset + i * 8;
        view.setInt32(little ? o + 4 : o, CANONICAL_DOUBLE_NAN_HI, little);
        view.setInt32(little ? o : o + 4, 0, little);
      }
    }
  }
}
