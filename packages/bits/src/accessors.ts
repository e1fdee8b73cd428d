import type { ByteOrder } from "./codec";

/**
 * The primitive accessors both codec families share, written once: {@link Codec} reads and writes a
 * `Uint8Array` (`Target` = `Uint8Array`), {@link ViewCodec} a `DataView` you hold. Names follow
 * `DataView` (`getInt32`/`setInt32`, …) plus Java's `boolean` and `char`; each takes the target and a
 * byte offset into it. Setters store values the way `DataView` does (modulo 2^width), except that
 * floats store Java's canonical NaN.
 */
export interface PrimitiveAccessors<Target> {
  /** The byte order of this codec. */
  readonly order: ByteOrder;
  /** Reads a signed byte. */
  getInt8(target: Target, off: number): number;
  /** Writes the low 8 bits of `v`. */
  setInt8(target: Target, off: number, v: number): void;
  /** Reads an unsigned byte. */
  getUint8(target: Target, off: number): number;
  /** Writes the low 8 bits of `v`. */
  setUint8(target: Target, off: number, v: number): void;
  /** Reads a signed 16-bit integer (Java `short`). */
  getInt16(target: Target, off: number): number;
  /** Writes the low 16 bits of `v`. */
  setInt16(target: Target, off: number, v: number): void;
  /** Reads an unsigned 16-bit integer. */
  getUint16(target: Target, off: number): number;
  /** Writes the low 16 bits of `v`. */
  setUint16(target: Target, off: number, v: number): void;
  /** Reads a signed 32-bit integer (Java `int`). */
  getInt32(target: Target, off: number): number;
  /** Writes the low 32 bits of `v`. */
  setInt32(target: Target, off: number, v: number): void;
  /** Reads an unsigned 32-bit integer. */
  getUint32(target: Target, off: number): number;
  /** Writes the low 32 bits of `v`. */
  setUint32(target: Target, off: number, v: number): void;
  /** Reads a signed 64-bit integer (Java `long`). */
  getBigInt64(target: Target, off: number): bigint;
  /** Writes `v` modulo 2^64. Throws `TypeError` when `v` is not a bigint. */
  setBigInt64(target: Target, off: number, v: bigint): void;
  /** Reads an unsigned 64-bit integer. */
  getBigUint64(target: Target, off: number): bigint;
  /** Writes `v` modulo 2^64. Throws `TypeError` when `v` is not a bigint. */
  setBigUint64(target: Target, off: number, v: bigint): void;
  /**
   * Reads an IEEE 754 single (Java `float`). NaN bits are not canonicalised, but unlike Java's
   * `readFloat` a **signalling NaN comes back quiet**: widening a float32 to a JavaScript number sets
   * the quiet bit, so after `setInt32(b, 0, 0x7fbfffff)`, `floatToRawIntBits(getFloat32(b, 0))` is
   * `0x7fffffff` (payload kept). Code V8 has optimised may skip the widening and keep the bits, so
   * rely on neither. Where the exact bits matter, read them with {@link PrimitiveAccessors.getInt32}
   * and convert them yourself, or decode in bulk into a `Float32Array` (`decodeArray`), which copies
   * the bits without widening them.
   */
  getFloat32(target: Target, off: number): number;
  /** Writes `v` rounded to single precision; any NaN is written as `0x7fc00000` like Java's `writeFloat`. */
  setFloat32(target: Target, off: number, v: number): void;
  /** Reads an IEEE 754 double (Java `double`). */
  getFloat64(target: Target, off: number): number;
  /** Writes `v`; any NaN is written as `0x7ff8000000000000` like Java's `writeDouble`. */
  setFloat64(target: Target, off: number, v: number): void;
  /** Java's `readBoolean`: true when the byte is not 0. */
  getBoolean(target: Target, off: number): boolean;
  /** Java's `writeBoolean`: writes 1 or 0. */
  setBoolean(target: Target, off: number, v: boolean): void;
  /** Java's `readChar`: one UTF-16 code unit, as a one-character string. */
  getChar(target: Target, off: number): string;
  /**
   * Java's `writeChar`: a string writes its first code unit (an empty string is a `TypeError`),
   * a number its low 16 bits.
   */
  setChar(target: Target, off: number, c: string | number): void;
  /**
   * Reads a signed 64-bit integer as a `number`. Throws `RangeError` (code `ERR_OUT_OF_RANGE`) when it
   * is not a safe integer (|v| > 2^53 - 1). Cheaper than {@link PrimitiveAccessors.getBigInt64} when
   * values are small.
   */
  getSafeInt64(target: Target, off: number): number;
  /**
   * Writes a safe integer as a signed 64-bit integer. Throws `RangeError` when `v` is not a safe integer,
   * `TypeError` when it is not a number (a bigint belongs in {@link PrimitiveAccessors.setBigInt64}).
   */
  setSafeInt64(target: Target, off: number, v: number): void;
}
