import { OutOfRangeError, shareClassIdentity } from "@rafkit/bits";

/**
 * Thrown when a read needs more bytes than remain before end of file: Java's `EOFException`.
 * The bytes that did remain have been consumed, as in Java.
 */
export class EOFError extends Error {
  static {
    shareClassIdentity(this, "@rafkit/raf.EOFError");
  }
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
  static {
    shareClassIdentity(this, "@rafkit/raf.ClosedError");
  }
  /** Always `"ClosedError"`. */
  override readonly name = "ClosedError";
  /** Stable error code: `"ERR_RAF_CLOSED"`. */
  readonly code = "ERR_RAF_CLOSED";

  constructor() {
    super("Stream Closed");
  }
}

/**
 * @deprecated Use `OutOfRangeError` (re-exported here from `@rafkit/bits`): this is the same class under
 * its old name, so `instanceof` holds with either. Thrown for an offset, length or position outside its
 * range, before any I/O: Java's `IndexOutOfBoundsException` (and its `IOException("Negative seek offset")`).
 */
export const OffsetRangeError: typeof OutOfRangeError = OutOfRangeError;
/** @deprecated Use `OutOfRangeError`: the same class (see the value of this name). */
export type OffsetRangeError = OutOfRangeError;

/** Node's `TypeError` (`ERR_INVALID_ARG_TYPE`) for an argument of the wrong type. @internal */
export function invalidArgType(what: string, expected: string, value: unknown): TypeError {
  // A typed array by its kind ("got Uint16Array"), as that is the usual mistake with one.
  const got =
    value === null
      ? "null"
      : ArrayBuffer.isView(value)
        ? Object.prototype.toString.call(value).slice(8, -1)
        : typeof value;
  const error = new TypeError(`${what} must be ${expected}, got ${got}`);
  (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
  return error;
}

/** Throws {@link invalidArgType} for a writer's `value` of the wrong type (`expected`: "a number"). @internal */
export function invalidValue(expected: string, value: unknown): never {
  throw invalidArgType("value", expected, value);
}

/** Throws {@link invalidArgType} unless `options` is an object: `null` is not "no options". @internal */
export function checkOptions(options: unknown): void {
  if (typeof options !== "object" || options === null) {
    throw invalidArgType("options", "an object", options);
  }
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
    throw new OutOfRangeError(`Range [${off}, ${off} + ${len}) out of bounds for length ${length}`);
  }
}

/** Thrown by `lock`/`tryLock` when the backend has no file locks (the `node:fs` backend): use the native backend. */
export class LockUnsupportedError extends Error {
  static {
    shareClassIdentity(this, "@rafkit/raf.LockUnsupportedError");
  }
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
  static {
    shareClassIdentity(this, "@rafkit/raf.LockModeError");
  }
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
 * Java's `OverlappingFileLockException`. Thrown by `lock`/`tryLock` when the range overlaps a lock this
 * same instance holds (the OS would otherwise merge or split the two). Also thrown by the **sync**
 * `RandomAccessFile#lock()` instead of waiting, when the range conflicts with a lock held in the same
 * thread through another instance of the same file (with Linux OFD locks the two conflict; that holder
 * could never run to release it, so the wait would never end).
 */
export class OverlappingFileLockError extends Error {
  static {
    shareClassIdentity(this, "@rafkit/raf.OverlappingFileLockError");
  }
  /** Always `"OverlappingFileLockError"`. */
  override readonly name = "OverlappingFileLockError";
  /** Stable error code: `"ERR_RAF_OVERLAPPING_LOCK"`. */
  readonly code = "ERR_RAF_OVERLAPPING_LOCK";

  /** Made by raf. `heldBy`: the conflicting lock of another instance in this thread, and the file's path here. */
  constructor(
    position: number,
    size: number,
    heldBy?: {
      readonly path: string;
      readonly holderPath: string;
      readonly shared: boolean;
      readonly position: number;
      readonly size: number;
    },
  ) {
    super(
      heldBy === undefined
        ? `The range ${rangeText(position, size)} overlaps a lock this file already holds`
        : `lock() on '${heldBy.path}' would wait forever: the range ${rangeText(position, size)} conflicts with the ${heldBy.shared ? "shared" : "exclusive"} lock on ${rangeText(heldBy.position, heldBy.size)} held in this same thread through another instance of the same file ('${heldBy.holderPath}'), which cannot run to release it while this thread waits. Release it or close that instance first, or use tryLock(), or AsyncRandomAccessFile (its lock() waits without blocking the thread)`,
    );
  }
}

function rangeText(position: number, size: number): string {
  return `[${position}, ${size === Number.POSITIVE_INFINITY ? "end of file" : position + size})`;
}
