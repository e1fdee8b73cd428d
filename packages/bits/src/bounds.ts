import { OutOfRangeError } from "./errors";

// Cold paths, kept out of line so the hot accessors stay small enough to inline.

/**
 * The `TypeError` (`ERR_INVALID_ARG_TYPE`, as Node's `Buffer` methods throw) for an argument that is not a
 * number, which `DataView` would convert (`"4"` to 4, `null` to 0), or fail on with the engine's own
 * message (a bigint, a symbol). `what` names the argument.
 * @internal
 */
export function notANumber(what: string, value: unknown): TypeError {
  const shown =
    typeof value === "string"
      ? ` (${JSON.stringify(value)})`
      : typeof value === "bigint"
        ? ` (${value}n)`
        : typeof value === "symbol"
          ? ` (${String(value)})`
          : "";
  const error = new TypeError(
    `${what} must be a number, got ${value === null ? "null" : typeof value}${shown}`,
  );
  (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
  return error;
}

/**
 * The `TypeError` (`ERR_INVALID_ARG_TYPE`) for a string argument that is not a string.
 * @internal
 */
export function notAString(value: unknown): TypeError {
  const error = new TypeError(
    `The string to encode must be a string, got ${value === null ? "null" : typeof value}`,
  );
  (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
  return error;
}

/**
 * The `TypeError` (`ERR_INVALID_ARG_TYPE`) for bytes that are not a `Uint8Array`: an `ArrayBuffer` or a
 * `DataView` has no `length`, which would make every range check pass and every store a property set.
 * @internal
 */
export function notBytes(): TypeError {
  const error = new TypeError("The bytes must be a Uint8Array (or a Buffer)");
  (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
  return error;
}

/**
 * The `TypeError` (`ERR_INVALID_ARG_TYPE`) for a 64-bit bigint setter's value that is no bigint.
 * @internal
 */
export function notABigInt(v: unknown): TypeError {
  const shown = typeof v === "string" ? ` (${JSON.stringify(v)})` : "";
  return Object.assign(
    new TypeError(`Value must be a bigint, got ${v === null ? "null" : typeof v}${shown}`),
    { code: "ERR_INVALID_ARG_TYPE" },
  );
}

/** Whether `n` is a valid offset or count at all: a non-negative safe integer (-0 counts as 0). */
function isIndex(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/** "a" or "an" before the number `n` read out in English ("an 8-byte", "an 18-byte", "a 16-byte"). */
function article(n: number): string {
  let lead = n;
  while (lead >= 1000) lead = Math.floor(lead / 1000);
  return lead === 8 ||
    lead === 11 ||
    lead === 18 ||
    (lead >= 80 && lead < 90) ||
    (lead >= 800 && lead < 900)
    ? "an"
    : "a";
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
  if (typeof length !== "number") throw notBytes();
  throw new OutOfRangeError(
    `Offset ${String(offset)} is out of range for ${article(width)} ${width}-byte access to a ${target} of length ${length}`,
    offset,
    width,
    length,
  );
}

/**
 * The accessors' slow path for an offset that is not a small integer (`(off | 0) !== off`, or `off >>> 0 !== off`
 * for the 64-bit ones): returns when `offset` may still be a valid index (2^31 and up, for arrays and views over
 * 2 GiB and 4 GiB; the access's own bounds check decides), else throws the `RangeError`, or the `TypeError` for a
 * non-number. Testing `(off | 0) !== off` inline costs nothing once V8 has seen only small integers, where
 * `off >>> 0 !== off` costs a compare per access. A bigint or a symbol makes that test throw the engine's
 * `TypeError` before this runs: the accessors do it inside a `try` whose handler calls {@link throwOutOfRange}.
 * @internal
 */
export function checkLargeOffset(
  offset: number,
  width: number,
  length: number,
  target?: string,
): void {
  if (typeof offset !== "number" || !isIndex(offset))
    throwOutOfRange(offset, width, length, target);
}

/**
 * Throws the `RangeError` for `count` elements at `index` in a typed array of `length` elements (the
 * `TypeError` of {@link notANumber} when `index` is not a number). `what` names the index.
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
 * Checks that `index` is a number and `[index, index + count)` lies inside a typed array of `length`
 * elements; `count` has been checked. Not for the single-primitive accessors (the `typeof` is a compare).
 * @internal
 */
export function checkIndex(what: string, index: number, count: number, length: number): void {
  if (typeof index !== "number" || !isIndex(index) || index > length - count) {
    throwIndexOutOfRange(what, index, count, length);
  }
}

/**
 * Checks that `[offset, offset + width)` lies inside an array of `length` and that `offset` is a
 * non-negative integer: the `RangeError` of {@link throwOutOfRange} if not, its `TypeError` for a
 * non-number.
 * @internal
 */
export function checkRange(offset: number, width: number, length: number): void {
  // No `typeof` up front: the single-byte setters call this per access. A bigint or a symbol makes
  // `>>>` throw; the handler turns that into our TypeError. `!(<=)`, not `>`: a length that is not a
  // number (an ArrayBuffer's) must fail, not compare false.
  try {
    if (offset >>> 0 !== offset || !(offset <= length - width))
      checkRangeSlow(offset, width, length);
  } catch (error) {
    if (typeof offset !== "number") throw notANumber("Offset", offset);
    throw error;
  }
}

/** {@link checkRange} for offsets past 2^32 - 1 (arrays over 4 GiB) and for every failure. */
function checkRangeSlow(offset: number, width: number, length: number): void {
  if (typeof offset !== "number" || !isIndex(offset) || !(offset <= length - width)) {
    throwOutOfRange(offset, width, length);
  }
}

/**
 * Checks that `count` is a non-negative integer (an element or byte count); `what` names it in the error.
 * @internal
 */
export function checkCount(count: number, what = "Count"): void {
  if (typeof count !== "number") throw notANumber(what, count);
  if (!isIndex(count)) {
    // Not an access: no offset, width or length to report (the message names the count).
    throw new OutOfRangeError(`${what} ${String(count)} is not a non-negative integer`);
  }
}
