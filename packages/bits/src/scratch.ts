// Shared scratch words: one 8-byte buffer seen as ints, floats and bigints, so float and 64-bit
// conversions cost a typed-array store and load instead of a DataView or an allocation per call.
// JavaScript is single-threaded per realm, and no function here re-enters, so sharing is safe.

const buffer = new ArrayBuffer(8);

/** Two 32-bit halves of the scratch word. @internal */
export const i32 = new Int32Array(buffer);
/** The scratch word as a float (first 4 bytes). @internal */
export const f32 = new Float32Array(buffer, 0, 1);
/** The scratch word as a double. @internal */
export const f64 = new Float64Array(buffer);
/** The scratch word as a signed 64-bit integer. @internal */
export const i64 = new BigInt64Array(buffer);
/** The scratch word as an unsigned 64-bit integer. @internal */
export const u64 = new BigUint64Array(buffer);

/** True when this platform stores numbers little-endian (x86, arm64 as Node runs them). @internal */
export const PLATFORM_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Index in `i32` of the high (sign and exponent) half of a 64-bit word. @internal */
export const HI = PLATFORM_LITTLE_ENDIAN ? 1 : 0;
/** Index in `i32` of the low half of a 64-bit word. @internal */
export const LO = PLATFORM_LITTLE_ENDIAN ? 0 : 1;
