import { invalidArgType } from "./errors";

// The typed arrays' own getters, not a subclass's: a kind and a length no override can fake, from any realm.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const intrinsic = (key: PropertyKey) =>
  Object.getOwnPropertyDescriptor(TypedArrayPrototype, key)?.get as (this: unknown) => unknown;
const kindOf = intrinsic(Symbol.toStringTag) as (this: unknown) => string | undefined;
const lengthOf = intrinsic("length") as (this: unknown) => number;

/** What a bulk method (`readInts`, …) takes: its element width and the typed arrays of that kind. @internal */
export interface ArrayKind {
  readonly width: 2 | 4 | 8;
  /** The typed arrays' names (`Symbol.toStringTag`). */
  readonly names: readonly string[];
  /** For the error: "an Int32Array or a Uint32Array". */
  readonly expected: string;
}

const kind = (width: 2 | 4 | 8, ...names: string[]): ArrayKind => ({
  width,
  names,
  expected: names.map((n) => `a${/^[AEIOU]/.test(n) ? "n" : ""} ${n}`).join(" or "),
});

/** `readShorts`/`writeShorts`. @internal */
export const SHORTS = kind(2, "Int16Array", "Uint16Array");
/** `readInts`/`writeInts`. @internal */
export const INTS = kind(4, "Int32Array", "Uint32Array");
/** `readLongs`/`writeLongs`. @internal */
export const LONGS = kind(8, "BigInt64Array", "BigUint64Array");
/** `readFloats`/`writeFloats`. @internal */
export const FLOATS = kind(4, "Float32Array");
/** `readDoubles`/`writeDoubles`. @internal */
export const DOUBLES = kind(8, "Float64Array");

/**
 * The length of `bytes`, a `Uint8Array` (a `Buffer` too, of any realm), else `ERR_INVALID_ARG_TYPE`: checked
 * before any I/O, so every `bufferSize` refuses the same arguments.
 */
export function byteCount(bytes: unknown, what: string): number {
  if (kindOf.call(bytes) !== "Uint8Array") throw invalidArgType(what, "a Uint8Array", bytes);
  return lengthOf.call(bytes);
}

/** The length of `array`, a typed array of `kind`, else `ERR_INVALID_ARG_TYPE` (before any I/O). */
export function elementCount(array: unknown, kind: ArrayKind, what: string): number {
  const name = kindOf.call(array);
  if (name === undefined || !kind.names.includes(name))
    throw invalidArgType(what, kind.expected, array);
  return lengthOf.call(array);
}
