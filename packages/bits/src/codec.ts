import type { PrimitiveAccessors } from "./accessors";
import { BigEndian } from "./big-endian";
import { LittleEndian } from "./little-endian";

/** A byte order: `"big"` (Java's and the network's) or `"little"`. */
export type ByteOrder = "big" | "little";

/**
 * Reads and writes every primitive at any offset of any `Uint8Array` in one byte order.
 * {@link BigEndian} and {@link LittleEndian} implement the identical method set, the
 * {@link PrimitiveAccessors} that {@link ViewCodec} shares; names follow `DataView`
 * (`getInt32`/`setInt32`, …) plus Java's `boolean` and `char`.
 *
 * Every method throws an `OutOfRangeError` (a `RangeError` with code `ERR_OUT_OF_RANGE`) naming the
 * offset, the width and the array length when the access does not fit, or `off` is not a
 * non-negative integer (never truncated as `DataView` would), and a `TypeError` (code
 * `ERR_INVALID_ARG_TYPE`) when `off` is not a number at all (a bigint, a symbol, a string such as
 * `"4"`, `null`, an object); a failed call writes nothing. Setters store values the way `DataView` does
 * (modulo 2^width), except that floats store Java's canonical NaN.
 */
export interface Codec extends PrimitiveAccessors<Uint8Array> {}

/**
 * The codec for a byte order.
 *
 * @example
 * ```ts
 * codecFor("little").getUint16(new Uint8Array([1, 2]), 0); // 0x0201
 * ```
 */
export function codecFor(order: ByteOrder): Codec {
  if (order === "big") return BigEndian;
  if (order === "little") return LittleEndian;
  throw invalidOrder(order);
}

/** @internal */
export function invalidOrder(order: unknown): TypeError {
  return Object.assign(
    new TypeError(`Byte order must be "big" or "little"; received ${describe(order)}`),
    { code: "ERR_INVALID_ARG_VALUE" },
  );
}

/** `order` in an error message; never throws (an object without `toString` would). */
function describe(order: unknown): string {
  if (typeof order === "string") return JSON.stringify(order);
  if (typeof order === "object" && order !== null) return "an object";
  return typeof order === "bigint" ? `${order}n` : String(order);
}
