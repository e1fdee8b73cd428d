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
