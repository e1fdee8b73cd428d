/**
 * Thrown when a read needs more bytes than remain before end of file: Java's `EOFException`.
 * The bytes that did remain have been consumed, as in Java.
 */
export class EOFError extends Error {
  /** Always `"EOFError"`. */
  override readonly name = "EOFError";
  /** Stable error code: `"ERR_RAF_EOF"`. */
  readonly code = "ERR_RAF_EOF";

  constructor(message = "End of file reached") {
    super(message);
  }
}

/** Thrown by every operation but `close()` once the file is closed: Java's `IOException("Stream Closed")`. */
export class ClosedError extends Error {
  /** Always `"ClosedError"`. */
  override readonly name = "ClosedError";
  /** Stable error code: `"ERR_RAF_CLOSED"`. */
  readonly code = "ERR_RAF_CLOSED";

  constructor() {
    super("Stream Closed");
  }
}

/**
 * Thrown for an offset, length or position outside its range, before any I/O: Java's
 * `IndexOutOfBoundsException` (and its `IOException("Negative seek offset")`). Node's code for it.
 */
export class OffsetRangeError extends RangeError {
  /** Always `"RangeError"`, as Node names its `ERR_OUT_OF_RANGE` errors. */
  override readonly name = "RangeError";
  /** Stable error code: `"ERR_OUT_OF_RANGE"`. */
  readonly code = "ERR_OUT_OF_RANGE";
}

/** Java's `Objects.checkFromIndexSize(off, len, length)`, with its message. */
export function checkFromIndexSize(off: number, len: number, length: number): void {
  if (
    !Number.isInteger(off) ||
    !Number.isInteger(len) ||
    off < 0 ||
    len < 0 ||
    off > length - len
  ) {
    throw new OffsetRangeError(
      `Range [${off}, ${off} + ${len}) out of bounds for length ${length}`,
    );
  }
}
