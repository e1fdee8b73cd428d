import { OutOfRangeError } from "@rafkit/bits";
import { checkFromIndexSize, invalidArgType } from "./errors";

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A file offset or length from a `number` or `bigint`, as an exact `number`. Throws
 * {@link OutOfRangeError} for a negative value (Java's "Negative seek offset" for `seek`), a
 * fraction, or a value above `Number.MAX_SAFE_INTEGER` (8 PiB, beyond any file system).
 */
export function toPosition(value: number | bigint, what: string): number {
  if (typeof value === "bigint") {
    if (value < 0n) throw negative(what);
    if (value > MAX) throw new OutOfRangeError(`${what} ${value} exceeds Number.MAX_SAFE_INTEGER`);
    return Number(value);
  }
  if (typeof value !== "number") throw invalidArgType(what, "a number or bigint", value);
  if (value < 0) throw negative(what);
  if (!Number.isSafeInteger(value)) {
    throw new OutOfRangeError(`${what} must be a safe integer, got ${value}`);
  }
  return value + 0; // -0 is 0: a pointer of -0 would read as one (Object.is, 1 / pointer)
}

function negative(what: string): OutOfRangeError {
  return new OutOfRangeError(what === "seek offset" ? "Negative seek offset" : `Negative ${what}`);
}

/**
 * A count that feeds the file pointer (Java's `int` parameters, e.g. `skipBytes`): any safe integer,
 * negative included. One rule for every numeric argument: a `number` that is not an integer (NaN,
 * ±Infinity, a fraction) is a `RangeError` (`ERR_OUT_OF_RANGE`), a non-number a `TypeError`
 * (`ERR_INVALID_ARG_TYPE`), thrown before anything changes. (Java truncates a fraction to an `int`;
 * JavaScript has no such conversion at the call, and a silent `Math.trunc` would hide NaN.)
 */
export function toCount(value: number, what: string): number {
  if (typeof value !== "number") throw invalidArgType(what, "a number", value);
  if (!Number.isSafeInteger(value)) {
    throw new OutOfRangeError(`${what} must be a safe integer, got ${value}`);
  }
  return value + 0; // -0 is 0: a pointer of -0 would read as one (Object.is, 1 / pointer)
}

/**
 * The length of the range at `off` in an array of `length` elements: `len`, or the rest of the array when
 * `len` is `undefined`. Checked before anything is read or written: an `off` or `len` that is not a number
 * (`null` included) is a `TypeError` (`ERR_INVALID_ARG_TYPE`); a range outside the array, or not of integers,
 * Java's `IndexOutOfBoundsException` as an {@link OutOfRangeError}.
 */
export function rangeLength(off: number, len: number | undefined, length: number): number {
  if (typeof off !== "number") throw invalidArgType("offset", "a number", off);
  const n = len === undefined ? length - off : len;
  if (typeof n !== "number") throw invalidArgType("length", "a number", n);
  checkFromIndexSize(off, n, length);
  return n;
}
