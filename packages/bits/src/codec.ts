import { BigEndian } from "./big-endian";
import { LittleEndian } from "./little-endian";

/** A byte order: `"big"` (Java's and the network's) or `"little"`. */
export type ByteOrder = "big" | "little";

/**
 * Reads and writes every primitive at any offset of any `Uint8Array` in one byte order.
 * {@link BigEndian} and {@link LittleEndian} implement the identical method set; names follow `DataView`
 * (`getInt32`/`setInt32`, …) plus Java's `boolean` and `char`.
 *
 * Every method throws an `OutOfRangeError` (a `RangeError` with code `ERR_OUT_OF_RANGE`) naming the
 * offset, the width and the array length when the access does not fit, or `off` is not a
 * non-negative integer (never truncated as `DataView` would), and a `TypeError` (code
 * `ERR_INVALID_ARG_TYPE`) when `off` is not a number at all (a bigint, a symbol, a string such as
 * `"4"`, `null`, an object); a failed call writes nothing. Setters store values the way `DataView` does
 * (modulo 2^width), except that floats store Java's canonical NaN.
 */
export interface Codec {
  /** The byte order of this codec. */
  readonly order: ByteOrder;
  /** Reads a signed byte. */
  getInt8(b: Uint8Array, off: number): number;
  /** Writes the low 8 bits of `v`. */
  setInt8(b: Uint8Array, off: number, v: number): void;
  /** Reads an unsigned byte. */
  getUint8(b: Uint8Array, off: number): number;
  /** Writes the low 8 bits of `v`. */
  setUint8(b: Uint8Array, off: number, v: number): void;
  /** Reads a signed 16-bit integer (Java `short`). */
  getInt16(b: Uint8Array, off: number): number;
  /** Writes the low 16 bits of `v`. */
  setInt16(b: Uint8Array, off: number, v: number): void;
  /** Reads an unsigned 16-bit integer. */
  getUint16(b: Uint8Array, off: number): number;
  /** Writes the low 16 bits of `v`. */
  setUint16(b: Uint8Array, off: number, v: number): void;
  /** Reads a signed 32-bit integer (Java `int`). */
  getInt32(b: Uint8Array, off: number): number;
  /** Writes the low 32 bits of `v`. */
  setInt32(b: Uint8Array, off: number, v: number): void;
  /** Reads an unsigned 32-bit integer. */
  getUint32(b: Uint8Array, off: number): number;
  /** Writes the low 32 bits of `v`. */
  setUint32(b: Uint8Array, off: number, v: number): void;
  /** Reads a signed 64-bit integer (Java `long`). */
  getBigInt64(b: Uint8Array, off: number): bigint;
  /** Writes `v` modulo 2^64. Throws `TypeError` when `v` is not a bigint. */
  setBigInt64(b: Uint8Array, off: number, v: bigint): void;
  /** Reads an unsigned 64-bit integer. */
  getBigUint64(b: Uint8Array, off: number): bigint;
  /** Writes `v` modulo 2^64. Throws `TypeError` when `v` is not a bigint. */
  setBigUint64(b: Uint8Array, off: number, v: bigint): void;
  /** Reads an IEEE 754 single (Java `float`); NaN bits are not canonicalised on read. */
  getFloat32(b: Uint8Array, off: number): number;
  /** Writes `v` rounded to single precision; any NaN is written as `0x7fc00000` like Java's `writeFloat`. */
  setFloat32(b: Uint8Array, off: number, v: number): void;
  /** Reads an IEEE 754 double (Java `double`). */
  getFloat64(b: Uint8Array, off: number): number;
  /** Writes `v`; any NaN is written as `0x7ff8000000000000` like Java's `writeDouble`. */
  setFloat64(b: Uint8Array, off: number, v: number): void;
  /** Java's `readBoolean`: true when the byte is not 0. */
  getBoolean(b: Uint8Array, off: number): boolean;
  /** Java's `writeBoolean`: writes 1 or 0. */
  setBoolean(b: Uint8Array, off: number, v: boolean): void;
  /** Java's `readChar`: one UTF-16 code unit, as a one-character string. */
  getChar(b: Uint8Array, off: number): string;
  /**
   * Java's `writeChar`: a string writes its first code unit (an empty string is a `TypeError`),
   * a number its low 16 bits.
   */
  setChar(b: Uint8Array, off: number, c: string | number): void;
  /**
   * Reads a signed 64-bit integer as a `number`. Throws `RangeError` (code `ERR_OUT_OF_RANGE`) when it
   * is not a safe integer (|v| > 2^53 - 1). Cheaper than {@link Codec.getBigInt64} when values are small.
   */
  getSafeInt64(b: Uint8Array, off: number): number;
  /**
   * Writes a safe integer as a signed 64-bit integer. Throws `RangeError` when `v` is not a safe integer,
   * `TypeError` when it is not a number (a bigint belongs in {@link Codec.setBigInt64}).
   */
  setSafeInt64(b: Uint8Array, off: number, v: number): void;
}

/**
 * The codec for a byte order.
 *
 * @example
 * ```ts
 * codecFor("little").getUint16(new Uint8Array([1, 2]), 0); // 0x0201
 * ```
 */
export function codecFor(order: ByteOrder): Codec {
  if (order === "big") return BigEndian;
  if (order === "little") return LittleEndian;
  throw invalidOrder(order);
}

/** @internal */
export function invalidOrder(order: unknown): TypeError {
  return Object.assign(
    new TypeError(`Byte order must be "big" or "little"; received ${String(order)}`),
    { code: "ERR_INVALID_ARG_VALUE" },
  );
}
