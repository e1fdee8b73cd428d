import type { Readable, Writable } from "node:stream";
import type { ByteOrder } from "@rafkit/bits";
import type { FileMode } from "@rafkit/syscall-state";
import type { LockOptions } from "../locks";
import type { ReadStreamOptions, WriteStreamOptions } from "../streams";
import type { Position } from "./positional";
import type { Flavor, LockOf, Result } from "./result";

/** The file itself: what it is, its pointer and length, durability, locks, streams and closing. */
export interface FileApi<R extends Flavor> {
  /** The path this file was opened with. */
  readonly path: string;
  /** The mode this file was opened with. */
  readonly mode: FileMode;
  /**
   * The OS file descriptor (Java's `getFD()`), or -1 once closed. Its file offset is unspecified: these
   * classes only make positional calls, and the native backend's `length()` is `lseek(SEEK_END)`, which
   * moves it. Use positional calls (`pread`/`pwrite`) on it too. On Windows the native backend's is a Win32
   * `HANDLE`, which `node:fs` cannot use: call the backend with it.
   */
  readonly fd: number;
  /**
   * Whether the file is closed: sync, from the {@link close} call; async, once a `close()` has run (not
   * merely been called: the operations called before it still run).
   */
  readonly closed: boolean;
  /** The byte order of numeric primitives and bulk arrays. */
  readonly byteOrder: ByteOrder;
  /** The window size in bytes (0 = unbuffered). */
  readonly bufferSize: number;
  /** The name of the syscall-state backend doing the I/O (`"native"`, `"node"`, …). */
  readonly backendName: string;

  /** The file pointer: where the next read or write happens (async: once every operation called before it took effect). */
  getFilePointer(): Result<R, number>;
  /**
   * Moves the file pointer (a `number` or `bigint`). Past end of file is allowed and does not grow the
   * file until a write. Negative: fails with a `RangeError` (`ERR_OUT_OF_RANGE`, "Negative seek offset"),
   * and nothing changes.
   */
  seek(pos: Position): Result<R, void>;
  /** The file's length in bytes, counting this instance's unflushed writes. One system call. */
  length(): Result<R, number>;
  /**
   * Flushes, then truncates or extends the file; a pointer beyond `newLength` moves to it (Java's rule).
   * A negative length fails as in Java, with `EINVAL` from `ftruncate` (before any I/O).
   */
  setLength(newLength: Position): Result<R, void>;
  /** Writes this instance's unflushed data to the OS (no `fsync`; see {@link sync}). */
  flush(): Result<R, void>;
  /** Flushes, then `fsync`s: content and metadata reach the device (Java's `getFD().sync()`). */
  sync(): Result<R, void>;
  /** Flushes, then `fdatasync`s: content (and the metadata needed to read it) reach the device. */
  datasync(): Result<R, void>;

  /**
   * Takes an advisory lock on a range of the file (Java's `FileChannel.lock`), waiting while another
   * holder conflicts. Exclusive by default; `{ shared: true }` for a shared lock (the only kind a file
   * opened `"r"` may take: an exclusive one fails with `LockModeError`). A range overlapping one this
   * instance holds fails with `OverlappingFileLockError`. The `node` backend has no locks
   * (`LockUnsupportedError`). Flushes pending writes first; {@link close} releases every lock.
   *
   * How each class waits:
   * - sync: it **blocks this thread**. A range that would have to wait for a conflicting lock held in
   *   this same thread through another instance of the same file (same device and inode) fails with
   *   `OverlappingFileLockError`: that holder could never run to release it (Java throws
   *   `OverlappingFileLockException` for any overlap within the JVM). An async `lock()` in this thread
   *   counts as held from its call until it settles without a lock; an async `tryLock()` exactly while
   *   the OS holds that lock.
   * - async: the event loop stays free. The wait polls the non-blocking lock on timers (1 ms backing off
   *   to 50 ms), so it is not fair and may notice a release up to 50 ms late. It waits for a conflicting
   *   lock of another instance in this thread too (that holder can still run). Operations called after it
   *   run once it is granted; {@link close} cancels it while it waits for another holder (it then rejects
   *   with `ClosedError`). One whose turn comes after `close()` was called is granted if free (the close
   *   then releases it), else cancelled.
   */
  lock(options?: LockOptions): Result<R, LockOf<R>>;
  /**
   * {@link lock} without waiting: `null` when another holder has a conflicting lock (another instance of
   * the same file in this thread included: it never fails for those). An async `tryLock` counts for a
   * sync `lock()` in this thread exactly while the OS holds the lock: from the call itself when nothing
   * needs flushing, and never when refused.
   */
  tryLock(options?: LockOptions): Result<R, LockOf<R> | null>;

  /**
   * A `Readable` over the bytes `[start, end]` (`end` inclusive, as `fs.createReadStream`; default: to
   * end of file), read with positional reads (one per `_read`): the file pointer does not move, and the
   * file stays open when the stream ends. Respects backpressure. Bad options throw (in both classes: it
   * returns a stream, not a Promise).
   */
  createReadStream(options?: ReadStreamOptions): Readable;
  /**
   * A `Writable` writing at `start` onwards (default 0) with positional writes, flushed when the stream
   * finishes; the file pointer does not move, and the file stays open. Respects backpressure. Bad options throw.
   */
  createWriteStream(options?: WriteStreamOptions): Writable;
  /**
   * Flushes and closes; idempotent (async: after every operation called before it). The descriptor is
   * closed even when the flush fails; the close then fails with that error (the unflushed data is lost,
   * as with any failed close). Async: a {@link lock} still waiting for another holder (now, or when its
   * turn comes) is cancelled, rejecting with `ClosedError`, so the close behind it can run.
   */
  close(): Result<R, void>;
}
