import { OutOfRangeError } from "@rafkit/bits";

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
  if (typeof value !== "number") {
    const error = new TypeError(`${what} must be a number or bigint, got ${typeof value}`);
    (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  if (value < 0) throw negative(what);
  if (!Number.isSafeInteger(value)) {
    throw new OutOfRangeError(`${what} must be a safe integer, got ${value}`);
  }
  return value;
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
  if (typeof value !== "number") {
    const error = new TypeError(`${what} must be a number, got ${typeof value}`);
    (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  if (!Number.isSafeInteger(value)) {
    throw new OutOfRangeError(`${what} must be a safe integer, got ${value}`);
  }
  return value;
}
