import type { Codec } from "@rafkit/bits";

/**
 * One `DataInput`/`DataOutput` primitive: its width, and how it is decoded from and encoded into the
 * window with a `@rafkit/bits` codec. Both drivers (sync and async) read and write every primitive
 * through this one table, so the codec mapping exists once.
 */
export interface Primitive<R, W = R> {
  /** Bytes on the wire. */
  readonly width: number;
  /** Decodes the value at `b[i]`. */
  get(c: Codec, b: Uint8Array, i: number): R;
  /** Encodes `v` at `b[i]`; throws (writing nothing) when `v` cannot be encoded. */
  set(c: Codec, b: Uint8Array, i: number, v: W): void;
}

/** `boolean`: one byte, true when not 0. */
export const BOOLEAN: Primitive<boolean> = {
  width: 1,
  get: (c, b, i) => c.getBoolean(b, i),
  set: (c, b, i, v) => c.setBoolean(b, i, v),
};

/** `byte`: signed 8 bits (writes keep the low 8 bits). */
export const BYTE: Primitive<number> = {
  width: 1,
  get: (c, b, i) => c.getInt8(b, i),
  set: (_c, b, i, v) => {
    b[i] = v;
  },
};

/** Unsigned 8 bits (read only: `writeByte` writes it). */
export const UNSIGNED_BYTE: Primitive<number> = {
  width: 1,
  get: (c, b, i) => c.getUint8(b, i),
  set: BYTE.set,
};

/** `short`: signed 16 bits. */
export const SHORT: Primitive<number> = {
  width: 2,
  get: (c, b, i) => c.getInt16(b, i),
  set: (c, b, i, v) => c.setInt16(b, i, v),
};

/** Unsigned 16 bits. */
export const UNSIGNED_SHORT: Primitive<number> = {
  width: 2,
  get: (c, b, i) => c.getUint16(b, i),
  set: SHORT.set,
};

/** `char`: one UTF-16 code unit, read as a one-character string. */
export const CHAR: Primitive<string, string | number> = {
  width: 2,
  get: (c, b, i) => c.getChar(b, i),
  set: (c, b, i, v) => c.setChar(b, i, v),
};

/** `int`: signed 32 bits. */
export const INT: Primitive<number> = {
  width: 4,
  get: (c, b, i) => c.getInt32(b, i),
  set: (c, b, i, v) => c.setInt32(b, i, v),
};

/** `long` as a `bigint`; writes take a `bigint` (mod 2^64) or a safe-integer `number`. */
export const LONG: Primitive<bigint, bigint | number> = {
  width: 8,
  get: (c, b, i) => c.getBigInt64(b, i),
  set: (c, b, i, v) => {
    if (typeof v === "bigint") c.setBigInt64(b, i, v);
    else c.setSafeInt64(b, i, v);
  },
};

/** `long` as a `number`: a `RangeError` when it is not a safe integer. */
export const LONG_AS_NUMBER: Primitive<number, bigint | number> = {
  width: 8,
  get: (c, b, i) => c.getSafeInt64(b, i),
  set: LONG.set,
};

/** `float`: IEEE 754 single; NaN written as Java's canonical NaN. */
export const FLOAT: Primitive<number> = {
  width: 4,
  get: (c, b, i) => c.getFloat32(b, i),
  set: (c, b, i, v) => c.setFloat32(b, i, v),
};

/** `double`: IEEE 754 double; NaN written as Java's canonical NaN. */
export const DOUBLE: Primitive<number> = {
  width: 8,
  get: (c, b, i) => c.getFloat64(b, i),
  set: (c, b, i, v) => c.setFloat64(b, i, v),
};
