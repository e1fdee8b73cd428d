import { shareClassIdentity } from "./class-identity";

/**
 * Thrown when bytes are not valid modified UTF-8, or a string is too long for `writeUTF`.
 * The twin of Java's `java.io.UTFDataFormatException`, with the JDK's messages.
 *
 * @example
 * ```ts
 * try { ModifiedUtf8.decode(new Uint8Array([0x80]), 0, 1); }
 * catch (e) { if (e instanceof UTFDataFormatError) console.log(e.message); } // "malformed input around byte 0"
 * ```
 */
export class UTFDataFormatError extends Error {
  static {
    shareClassIdentity(this, "@rafkit/bits.UTFDataFormatError");
  }
  /** Always `"UTFDataFormatError"`. */
  override readonly name = "UTFDataFormatError";
  /** Stable error code: `"ERR_UTF_DATA_FORMAT"`. */
  readonly code = "ERR_UTF_DATA_FORMAT";
}

/**
 * Thrown for an offset, index, count or position outside its range: Node's code for it,
 * `ERR_OUT_OF_RANGE`. bits and raf throw this one (syscall-state, which depends on no other rafkit
 * package, throws a `RangeError` with the same code, as Node's own are). For an
 * access, `offset`, `width` and `length` say what was asked for and what there was; for a value
 * that is not an access (a negative position, a bad option), the message alone says it and they are
 * `undefined`.
 *
 * @example
 * ```ts
 * try { BigEndian.getInt32(new Uint8Array(2), 0); }
 * catch (e) { if (e instanceof OutOfRangeError) console.log(e.code, e.width); } // ERR_OUT_OF_RANGE 4
 * new OutOfRangeError("Negative seek offset"); // no offset, width or length
 * ```
 */
export class OutOfRangeError extends RangeError {
  static {
    shareClassIdentity(this, "@rafkit/bits.OutOfRangeError");
  }
  /** Always `"RangeError"`, as Node names its `ERR_OUT_OF_RANGE` errors. */
  override readonly name = "RangeError";
  /** Stable error code: `"ERR_OUT_OF_RANGE"`. */
  readonly code = "ERR_OUT_OF_RANGE";
  /** The offending offset (or index), when the error is about an access. */
  readonly offset: number | undefined;
  /** How many bytes (or elements) the access needed from `offset`. */
  readonly width: number | undefined;
  /** The length of the array accessed. */
  readonly length: number | undefined;

  constructor(message: string, offset?: number, width?: number, length?: number) {
    super(message);
    this.offset = offset;
    this.width = width;
    this.length = length;
  }
}
