import { notABigInt } from "./bounds";
import { f32, f64, i32, i64 } from "./scratch";

/** Java's canonical float NaN bits, `Float.floatToIntBits(Float.NaN)`. */
export const CANONICAL_FLOAT_NAN_BITS = 0x7fc00000;
/** Java's canonical double NaN bits (high half), `Double.doubleToLongBits(Double.NaN) >>> 32`. */
export const CANONICAL_DOUBLE_NAN_HI = 0x7ff80000;

/**
 * Java's `Float.floatToIntBits`: the IEEE 754 single-precision bits of `x` (rounded to float) as a
 * signed 32-bit integer, with every NaN collapsed to `0x7fc00000`.
 *
 * @example
 * ```ts
 * floatToIntBits(1); // 0x3f800000
 * floatToIntBits(-2); // -1073741824 (0xc0000000 as a Java int)
 * ```
 */
export function floatToIntBits(x: number): number {
  x = +x; // converted once, so a non-number's NaN is canonical too
  if (Number.isNaN(x)) return CANONICAL_FLOAT_NAN_BITS;
  f32[0] = x;
  return i32[0]!;
}

/**
 * Java's `Float.floatToRawIntBits`: like {@link floatToIntBits} but NaN keeps whatever bits the
 * platform gives it. JavaScript has one observable NaN, so this is nearly always `0x7fc00000` too.
 */
export function floatToRawIntBits(x: number): number {
  f32[0] = x;
  return i32[0]!;
}

/**
 * Java's `Float.intBitsToFloat`: the float whose bits are the low 32 bits of `bits`
 * (signed or unsigned input both work). A signalling NaN comes back quiet (`0x7fbfffff` reads back through
 * {@link floatToRawIntBits} as `0x7fffffff`): a float widens to a JavaScript double, which sets the quiet bit,
 * where HotSpot keeps the bits.
 *
 * @example
 * ```ts
 * intBitsToFloat(0x3f800000); // 1
 * ```
 */
export function intBitsToFloat(bits: number): number {
  i32[0] = bits;
  return f32[0]!;
}

/**
 * Java's `Double.doubleToLongBits`: the IEEE 754 double bits of `x` as a signed 64-bit bigint,
 * with every NaN collapsed to `0x7ff8000000000000n`.
 */
export function doubleToLongBits(x: number): bigint {
  x = +x;
  if (Number.isNaN(x)) return 0x7ff8000000000000n;
  f64[0] = x;
  return i64[0]!;
}

/** Java's `Double.doubleToRawLongBits`: like {@link doubleToLongBits} but NaN keeps its bits. */
export function doubleToRawLongBits(x: number): bigint {
  f64[0] = x;
  return i64[0]!;
}

/**
 * Java's `Double.longBitsToDouble`: the double whose bits are `bits` taken modulo 2^64
 * (signed or unsigned input both work).
 */
export function longBitsToDouble(bits: bigint): number {
  // A typed array's store would convert a string or a boolean (`"5"` to 5n).
  if (typeof bits !== "bigint") throw notABigInt(bits);
  i64[0] = bits;
  return f64[0]!;
}
