import { type NumericArray, OutOfRangeError } from "@rafkit/bits";
import { invalidArgType } from "./errors";

// The typed arrays' own getters, not a subclass's: a kind, a length and memory no override can fake, from any realm.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const intrinsic = (key: PropertyKey) =>
  Object.getOwnPropertyDescriptor(TypedArrayPrototype, key)?.get as (this: unknown) => unknown;
const kindOf = intrinsic(Symbol.toStringTag) as (this: unknown) => string | undefined;
const lengthOf = intrinsic("length") as (this: unknown) => number;
const bufferOf = intrinsic("buffer") as (this: unknown) => ArrayBufferLike;
const byteOffsetOf = intrinsic("byteOffset") as (this: unknown) => number;

type ArrayConstructor = new (
  buffer: ArrayBufferLike,
  byteOffset: number,
  length: number,
) => NumericArray;
const CONSTRUCTORS: Readonly<Record<string, ArrayConstructor>> = {
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  BigInt64Array,
  BigUint64Array,
  Float32Array,
  Float64Array,
};

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
 * `bytes`, a `Uint8Array` (a `Buffer` too), else `ERR_INVALID_ARG_TYPE`: checked before any I/O, so every
 * `bufferSize` refuses the same arguments. A subclass's (other than `Buffer`), or another realm's, comes back as a
 * plain view of its memory: no overridden `length` or `subarray` decides what is copied.
 */
export function checkedBytes(bytes: unknown, what: string): Uint8Array {
  if (kindOf.call(bytes) !== "Uint8Array") throw invalidArgType(what, "a Uint8Array", bytes);
  const own = Object.getPrototypeOf(bytes);
  if ((own === Uint8Array.prototype || own === BUFFER_PROTOTYPE) && tellsTruth(bytes as Uint8Array))
    return bytes as Uint8Array;
  return new Uint8Array(bufferOf.call(bytes), byteOffsetOf.call(bytes), lengthOf.call(bytes));
}

/** No own `length`, `byteOffset` or `buffer` property hides the array's real ones (what the codecs and checks read). */
function tellsTruth(a: NumericArray | Uint8Array): boolean {
  return (
    a.length === lengthOf.call(a) &&
    a.byteOffset === byteOffsetOf.call(a) &&
    a.buffer === bufferOf.call(a)
  );
}

/**
 * Throws unless `a` still holds `to` bytes (a range ending there): an async call copies its caller's bytes at its
 * turn, and a resizable buffer may have shrunk (or been detached) meanwhile. Copying what is left would write or
 * read short while counting the whole range. @internal
 */
export function checkStillInside(a: Uint8Array, to: number): void {
  const length = lengthOf.call(a);
  if (to > length) {
    throw new OutOfRangeError(
      `the buffer shrank to ${length} bytes before the call's turn, short of ${to}`,
    );
  }
}

/** `Buffer.prototype` where there is one (not in a browser): a `Buffer` is used as it is. */
const BUFFER_PROTOTYPE = (globalThis as { Buffer?: { prototype: object } }).Buffer?.prototype;

/**
 * `array`, a typed array of `kind`, else `ERR_INVALID_ARG_TYPE` (before any I/O). A subclass's, or another realm's,
 * comes back as a plain view of the same memory: the bulk codecs then read no overridden `buffer`, `byteOffset` or
 * `length` that could point them outside it.
 */
export function checkedArray(array: unknown, kind: ArrayKind, what: string): NumericArray {
  const name = kindOf.call(array);
  if (name === undefined || !kind.names.includes(name))
    throw invalidArgType(what, kind.expected, array);
  const Plain = CONSTRUCTORS[name]!;
  if (Object.getPrototypeOf(array) === Plain.prototype && tellsTruth(array as NumericArray))
    return array as NumericArray;
  return new Plain(bufferOf.call(array), byteOffsetOf.call(array), lengthOf.call(array));
}
