import { checkRange, notANumber, throwOutOfRange } from "./bounds";
import { OutOfRangeError } from "./errors";

// Accessors of one byte are the same in both byte orders; both codecs share these.

/** @internal */
export function getInt8(b: Uint8Array, off: number): number {
  // An out-of-range or non-integer index reads undefined: the load is the range check. The type first
  // (free when the offset is a number): a numeric string would be a valid index, an object a property key.
  if (typeof off !== "number") throwOutOfRange(off, 1, b.length);
  const x = b[off];
  if (x === undefined) throwOutOfRange(off, 1, b.length);
  return (x << 24) >> 24;
}

/** @internal */
export function setInt8(b: Uint8Array, off: number, v: number): void {
  checkRange(off, 1, b.length);
  b[off] = v;
}

/** @internal */
export function getUint8(b: Uint8Array, off: number): number {
  if (typeof off !== "number") throwOutOfRange(off, 1, b.length);
  const x = b[off];
  if (x === undefined) throwOutOfRange(off, 1, b.length);
  return x;
}

/** @internal */
export function getBoolean(b: Uint8Array, off: number): boolean {
  if (typeof off !== "number") throwOutOfRange(off, 1, b.length);
  const x = b[off];
  if (x === undefined) throwOutOfRange(off, 1, b.length);
  return x !== 0;
}

/** @internal */
export function setBoolean(b: Uint8Array, off: number, v: boolean): void {
  checkRange(off, 1, b.length);
  b[off] = v ? 1 : 0;
}

/** The code unit `setChar` writes for `c`. @internal */
export function charCode(c: string | number): number {
  if (typeof c === "number") return c;
  if (typeof c !== "string") {
    throw Object.assign(
      new TypeError(`setChar needs a number or a string, got ${c === null ? "null" : typeof c}`),
      { code: "ERR_INVALID_ARG_TYPE" },
    );
  }
  if (c.length === 0) {
    throw Object.assign(new TypeError("setChar needs a number or a non-empty string"), {
      code: "ERR_INVALID_ARG_VALUE",
    });
  }
  return c.charCodeAt(0);
}

/** @internal */
export function safeInt64Error(hi: number, lo: number, off: number): OutOfRangeError {
  const value = (BigInt(hi) << 32n) | BigInt(lo >>> 0);
  return new OutOfRangeError(`64-bit value ${value} at offset ${off} is not a safe integer`);
}

/** Checks `v` for `setSafeInt64`. @internal */
export function checkSafeInt64(v: number): void {
  if (!Number.isSafeInteger(v)) {
    // A bigint would read "Value 1 is not a safe integer": name its type instead.
    if (typeof v !== "number") throw notANumber("Value", v);
    throw new OutOfRangeError(`Value ${String(v)} is not a safe integer`);
  }
}
