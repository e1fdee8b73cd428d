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

/** Thrown by `lock`/`tryLock` when the backend has no file locks (the `node:fs` backend): use the native backend. */
export class LockUnsupportedError extends Error {
  /** Always `"LockUnsupportedError"`. */
  override readonly name = "LockUnsupportedError";
  /** Stable error code: `"ERR_RAF_LOCK_UNSUPPORTED"`. */
  readonly code = "ERR_RAF_LOCK_UNSUPPORTED";

  constructor(backend: string) {
    super(
      `File locks need the native backend: the "${backend}" backend has none (node:fs cannot lock files). Open with { backend: "native" } where koffi loads.`,
    );
  }
}

/** Thrown by `lock`/`tryLock` for an exclusive lock on a file opened `"r"`: Java's `NonWritableChannelException`. */
export class LockModeError extends Error {
  /** Always `"LockModeError"`. */
  override readonly name = "LockModeError";
  /** Stable error code: `"ERR_RAF_LOCK_MODE"`. */
  readonly code = "ERR_RAF_LOCK_MODE";

  constructor() {
    super(
      'An exclusive lock needs a file opened for writing; this one is open "r". Take a shared lock ({ shared: true }), or open it "rw".',
    );
  }
}

/**
 * Thrown by `lock`/`tryLock` when the range overlaps a lock this same instance holds: Java's
 * `OverlappingFileLockException`. (The OS would otherwise merge or split the two, or, with Linux OFD
 * locks taken through two instances, make the second wait on the first forever.)
 */
export class OverlappingFileLockError extends Error {
  /** Always `"OverlappingFileLockError"`. */
  override readonly name = "OverlappingFileLockError";
  /** Stable error code: `"ERR_RAF_OVERLAPPING_LOCK"`. */
  readonly code = "ERR_RAF_OVERLAPPING_LOCK";

  constructor(position: number, size: number) {
    super(
      `The range [${position}, ${size === Number.POSITIVE_INFINITY ? "end of file" : position + size}) overlaps a lock this file already holds`,
    );
  }
}
