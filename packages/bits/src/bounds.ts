import { OutOfRangeError } from "./errors";

// Cold paths, kept out of line so the hot accessors stay small enough to inline.

/**
 * The `TypeError` (`ERR_INVALID_ARG_TYPE`, as Node's `Buffer` methods throw) for an argument that is not a
 * number, which `DataView` would convert (`"4"` to 4, `null` to 0) and a typo would slip through.
 * @internal
 */
export function notANumber(what: string, value: unknown): TypeError {
  const shown = typeof value === "string" ? ` (${JSON.stringify(value)})` : "";
  const error = new TypeError(
    `${what} must be a number, got ${value === null ? "null" : typeof value}${shown}`,
  );
  (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
  return error;
}

/**
 * Throws the `RangeError` for a `width`-byte access at `offset` into a byte array (or, as `target` says, a
 * `DataView`) of `length` bytes; the `TypeError` of {@link notANumber} when `offset` is not a number.
 * @internal
 */
export function throwOutOfRange(
  offset: number,
  width: number,
  length: number,
  target = "Uint8Array",
): never {
  if (typeof offset !== "number") throw notANumber("Offset", offset);
  throw new OutOfRangeError(
    `Offset ${String(offset)} is out of range for ${width === 8 ? "an" : "a"} ${width}-byte access to a ${target} of length ${length}`,
    offset,
    width,
    length,
  );
}

/**
 * The accessors' slow path for an offset that is not a small integer (`(off | 0) !== off`): returns
 * when `offset` is still a valid index (2^31 to 2^32 - 1, for arrays over 2 GiB), else throws the
 * `RangeError`. Testing `(off | 0) !== off` inline costs nothing once V8 has seen only small
 * integers, where `off >>> 0 !== off` costs a compare per access.
 * @internal
 */
export function checkLargeOffset(
  offset: number,
  width: number,
  length: number,
  target?: string,
): void {
  if (offset >>> 0 !== offset) throwOutOfRange(offset, width, length, target);
}

/**
 * Throws the `RangeError` for `count` elements at `index` in a typed array of `length` elements.
 * @internal
 */
export function throwIndexOutOfRange(
  what: string,
  index: number,
  count: number,
  length: number,
): never {
  if (typeof index !== "number") throw notANumber(what, index);
  throw new OutOfRangeError(
    `${what} ${String(index)} is out of range for ${count} element(s) of an array of length ${length}`,
    index,
    count,
    length,
  );
}

/**
 * Checks that `[offset, offset + width)` lies inside an array of `length` and that `offset` is an integer.
 * @internal
 */
export function checkRange(offset: number, width: number, length: number): void {
  if (offset >>> 0 !== offset || offset > length - width) throwOutOfRange(offset, width, length);
}

/**
 * Checks that `count` is a non-negative integer (an element or byte count).
 * @internal
 */
export function checkCount(count: number): void {
  if (typeof count !== "number") throw notANumber("Count", count);
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new OutOfRangeError(`Count ${String(count)} is not a non-negative integer`, count, 0, 0);
  }
}
