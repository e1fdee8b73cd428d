import { OutOfRangeError } from "./errors";

// Cold paths, kept out of line so the hot accessors stay small enough to inline.

/**
 * Throws the `RangeError` for a `width`-byte access at `offset` into a byte array of `length` bytes.
 * @internal
 */
export function throwOutOfRange(offset: number, width: number, length: number): never {
  throw new OutOfRangeError(
    `Offset ${String(offset)} is out of range for a ${width}-byte access to a Uint8Array of length ${length}`,
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
export function checkLargeOffset(offset: number, width: number, length: number): void {
  if (offset >>> 0 !== offset) throwOutOfRange(offset, width, length);
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
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new OutOfRangeError(`Count ${String(count)} is not a non-negative integer`, count, 0, 0);
  }
}
