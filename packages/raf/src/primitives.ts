import type { ViewCodec } from "@rafkit/bits";

/**
 * One `DataInput`/`DataOutput` primitive: its width, and how a `@rafkit/bits` view codec decodes it from
 * and encodes it into the window's `DataView`. Both drivers (sync and async) read and write every
 * primitive through this one table, so the codec mapping exists once.
 */
export interface Primitive<R, W = R> {
  /** Bytes on the wire. */
  readonly width: number;
  /** Decodes the value at byte `i` of the window. */
  get(c: ViewCodec, d: DataView, i: number): R;
  /** Encodes `v` at byte `i` of the window; throws (writing nothing) when `v` cannot be encoded. */
  set(c: ViewCodec, d: DataView, i: number, v: W): void;
  /**
   * `v` converted as `set` would convert it, so no user code (a `valueOf`) runs once a writer has
   * read the pointer. Identity where conversion calls none (`boolean`, `long`).
   */
  coerce(v: W): W;
}

const toNumber = (v: number): number => +v;
const same = <T>(v: T): T => v;

/** `boolean`: one byte, true when not 0. */
export const BOOLEAN: Primitive<boolean> = {
  width: 1,
  get: (c, d, i) => c.getBoolean(d, i),
  set: (c, d, i, v) => c.setBoolean(d, i, v),
  coerce: same,
};

/** `byte`: signed 8 bits (writes keep the low 8 bits). */
export const BYTE: Primitive<number> = {
  width: 1,
  get: (c, d, i) => c.getInt8(d, i),
  set: (c, d, i, v) => c.setInt8(d, i, v),
  coerce: toNumber,
};

/** Unsigned 8 bits (read only: `writeByte` writes it). */
export const UNSIGNED_BYTE: Primitive<number> = {
  width: 1,
  get: (c, d, i) => c.getUint8(d, i),
  set: BYTE.set,
  coerce: toNumber,
};

/** `short`: signed 16 bits. */
export const SHORT: Primitive<number> = {
  width: 2,
  get: (c, d, i) => c.getInt16(d, i),
  set: (c, d, i, v) => c.setInt16(d, i, v),
  coerce: toNumber,
};

/** Unsigned 16 bits. */
export const UNSIGNED_SHORT: Primitive<number> = {
  width: 2,
  get: (c, d, i) => c.getUint16(d, i),
  set: SHORT.set,
  coerce: toNumber,
};

/** `char`: one UTF-16 code unit, read as a one-character string. */
export const CHAR: Primitive<string, string | number> = {
  width: 2,
  get: (c, d, i) => c.getChar(d, i),
  set: (c, d, i, v) => c.setChar(d, i, v),
  coerce: (v) => (typeof v === "string" ? v : +v),
};

/** `int`: signed 32 bits. */
export const INT: Primitive<number> = {
  width: 4,
  get: (c, d, i) => c.getInt32(d, i),
  set: (c, d, i, v) => c.setInt32(d, i, v),
  coerce: toNumber,
};

/** `long` as a `bigint`; writes take a `bigint` (mod 2^64) or a safe-integer `number`. */
export const LONG: Primitive<bigint, bigint | number> = {
  width: 8,
  get: (c, d, i) => c.getBigInt64(d, i),
  set: (c, d, i, v) => {
    if (typeof v === "bigint") c.setBigInt64(d, i, v);
    else c.setSafeInt64(d, i, v);
  },
  coerce: same,
};

/** `long` as a `number`: a `RangeError` when it is not a safe integer. */
export const LONG_AS_NUMBER: Primitive<number, bigint | number> = {
  width: 8,
  get: (c, d, i) => c.getSafeInt64(d, i),
  set: LONG.set,
  coerce: same,
};

/** `float`: IEEE 754 single; NaN written as Java's canonical NaN. */
export const FLOAT: Primitive<number> = {
  width: 4,
  get: (c, d, i) => c.getFloat32(d, i),
  set: (c, d, i, v) => c.setFloat32(d, i, v),
  coerce: toNumber,
};

/** `double`: IEEE 754 double; NaN written as Java's canonical NaN. */
export const DOUBLE: Primitive<number> = {
  width: 8,
  get: (c, d, i) => c.getFloat64(d, i),
  set: (c, d, i, v) => c.setFloat64(d, i, v),
  coerce: toNumber,
};
