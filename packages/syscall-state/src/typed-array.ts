import { nodeError } from "./node-error";

// A typed array's own properties can lie (an own `length`, a subclass's getter): the TypedArray
// prototype's getters read the internal slots, which is what native code must size its memory by.

const prototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const getter = <T>(name: string) =>
  Object.getOwnPropertyDescriptor(prototype, name)?.get as (this: Uint8Array) => T;

/** `TypedArray.prototype.buffer`'s getter: call it with the array as `this`. @internal */
export const bufferOf = getter<ArrayBufferLike>("buffer");
/** `TypedArray.prototype.byteOffset`'s getter. @internal */
export const byteOffsetOf = getter<number>("byteOffset");
/** `TypedArray.prototype.byteLength`'s getter. @internal */
export const byteLengthOf = getter<number>("byteLength");

/**
 * The smallest view native code needs of `buffer[offset, offset + length)`: the buffer itself when it already
 * starts at `offset`; an `ERR_OUT_OF_RANGE` `RangeError` when the range is not inside `buffer`. Made from the array's real buffer and offset (its own `length`, `subarray` or species may
 * lie: the count handed to the kernel must match the memory behind the pointer). @internal
 */
export function viewOf(buffer: Uint8Array, offset: number, length: number): Uint8Array {
  const size = byteLengthOf.call(buffer);
  if (offset === 0 && length === size) return buffer;
  // Within the view, not just its buffer: a subarray's neighbours are someone else's bytes (a pooled Buffer's).
  // Integers first: a string offset would pass the compare ("0" + 2 is "02") and join the address as text.
  if (
    !(Number.isSafeInteger(offset) && Number.isSafeInteger(length)) ||
    !(offset >= 0 && length >= 0 && offset + length <= size)
  ) {
    throw nodeError(
      RangeError,
      "ERR_OUT_OF_RANGE",
      `offset ${offset} and length ${length} must be within the buffer's ${size} bytes`,
    );
  }
  return new Uint8Array(bufferOf.call(buffer), byteOffsetOf.call(buffer) + offset, length);
}
