/**
 * `@rafkit/bits`: endian codecs for every primitive, bulk typed-array codecs, Java's float bit
 * conversions and modified UTF-8. The equivalent of the JDK's `java.io.Bits` and `ByteArray`.
 *
 * @packageDocumentation
 */
export type { PrimitiveAccessors } from "./accessors";
export { BigEndian } from "./big-endian";
export { decodeArray, encodeArray, type NumericArray } from "./bulk";
export { shareClassIdentity } from "./class-identity";
export { type ByteOrder, type Codec, codecFor } from "./codec";
export { OutOfRangeError, UTFDataFormatError } from "./errors";
export {
  doubleToLongBits,
  doubleToRawLongBits,
  floatToIntBits,
  floatToRawIntBits,
  intBitsToFloat,
  longBitsToDouble,
} from "./float-bits";
export { LittleEndian } from "./little-endian";
export { ModifiedUtf8 } from "./modified-utf8";
export { BigEndianView, LittleEndianView, type ViewCodec, viewCodecFor } from "./view-codec";
