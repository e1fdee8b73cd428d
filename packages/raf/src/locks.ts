import {
  errnoOf,
  type FileMode,
  type LockRequest,
  type SyncBackend,
  systemCallError,
} from "@rafkit/syscall-state";
import {
  checkOptions,
  invalidArgType,
  LockModeError,
  LockUnsupportedError,
  OverlappingFileLockError,
} from "./errors";
import { toPosition } from "./position";
import {
  forgetHolder,
  heldInThread,
  holdInThread,
  type LockHolder,
  releaseInThread,
} from "./thread-locks";

/** The system call a lock failure names, as Node would: `fcntl` on POSIX, `LockFileEx` on Windows. */
export const LOCK_SYSCALL = process.platform === "win32" ? "LockFileEx" : "fcntl";

const EAGAIN = errnoOf("EAGAIN");
const ENOTSUP = errnoOf("ENOTSUP");
const EOPNOTSUPP = errnoOf("EOPNOTSUPP");

/** Options of `lock`/`tryLock`: Java's `lock(position, size, shared)`. */
export interface LockOptions {
  /** A shared (read) lock when true; exclusive (write) by default. */
  shared?: boolean | undefined;
  /** First byte of the range. Default 0. */
  position?: number | bigint | undefined;
  /**
   * Bytes in the range. Default, or 0 (as in Java since JDK 22): from `position` to the end of the file, however
   * far it grows.
   */
  size?: number | bigint | undefined;
}

/** A validated lock range. `size` is `Infinity` for "to the end of the file, however it grows". */
export interface LockRange {
  readonly shared: boolean;
  readonly position: number;
  readonly size: number;
}

/**
 * Validates a lock request before any system call: the range must be non-negative safe integers (size 0: to the
 * end of the file), an exclusive lock needs a writable file, and the backend must have locks.
 */
export function planLock(options: LockOptions, mode: FileMode, backend: SyncBackend): LockRange {
  const range = lockRange(options, mode);
  if (backend.features?.locks === false) throw new LockUnsupportedError(backend.name);
  return range;
}

/**
 * Java's checks of a lock request, wherever its locks come from (the backend's, or the browser's Web Locks): an
 * exclusive lock needs a writable file; the range is non-negative safe integers (size 0: to the end of the file).
 */
export function lockRange(options: LockOptions, mode: FileMode): LockRange {
  checkOptions(options);
  // Not truthiness: `shared: "yes"` taking an exclusive lock would be a silent surprise.
  if (options.shared !== undefined && typeof options.shared !== "boolean")
    throw invalidArgType("shared", "a boolean", options.shared);
  const shared = options.shared === true;
  if (!shared && mode === "r") throw new LockModeError();
  const position =
    options.position === undefined ? 0 : toPosition(options.position, "lock position");
  // 0 is "to the end of the file, however it grows", as Java's lock(position, 0, shared) since JDK 22.
  const size = options.size === undefined ? 0 : toPosition(options.size, "lock size");
  return { shared, position, size: size === 0 ? Number.POSITIVE_INFINITY : size };
}

/** The backend's request for `range` (`length` 0: to the end of the file, however it grows). */
export function lockRequest(range: LockRange, wait: boolean): LockRequest {
  return {
    shared: range.shared,
    wait,
    position: range.position,
    length: range.size === Number.POSITIVE_INFINITY ? 0 : range.size,
  };
}

/**
 * The result of `backend.lock`: true when granted, false when a non-waiting request met a conflicting
 * holder (`-EAGAIN`); throws for every other failure.
 */
export function lockGranted(r: number, backend: SyncBackend, path: string): boolean {
  if (r >= 0) return true;
  if (r === -EAGAIN) return false;
  if (r === -ENOTSUP || r === -EOPNOTSUPP) throw new LockUnsupportedError(backend.name);
  throw systemCallError(r, LOCK_SYSCALL, path);
}

function overlaps(a: LockRange, b: LockRange): boolean {
  return a.position < b.position + b.size && b.position < a.position + a.size;
}

/** What a lock object shares between the sync and async classes. */
abstract class LockBase implements LockRange {
  /** Whether the lock is shared (true) or exclusive (false). */
  readonly shared: boolean;
  /** First byte of the locked range. */
  readonly position: number;
  /** Bytes in the range; `Infinity` when it runs to the end of the file, however far that grows. */
  readonly size: number;
  #valid = true;
  readonly #owner: HeldLocks;

  constructor(range: LockRange, owner: HeldLocks) {
    this.shared = range.shared;
    this.position = range.position;
    this.size = range.size;
    this.#owner = owner;
  }

  /** Whether the lock is still held: false after `release()` or after its file was closed. */
  isValid(): boolean {
    return this.#valid;
  }

  /** @internal Released: no longer valid, no longer counted against overlaps. */
  released(): void {
    this.#valid = false;
    this.#owner.forget(this);
  }

  /** @internal The file closed: the OS dropped the lock. */
  invalidate(): void {
    this.#valid = false;
  }
}

/** A lock held through a `RandomAccessFile` (Java's `FileLock`). `using` releases it at the end of the block. */
export class FileLock extends LockBase {
  readonly #unlock: (lock: FileLock) => void;

  /** Made by `RandomAccessFile.lock`/`tryLock`, not by users. */
  constructor(range: LockRange, owner: HeldLocks, unlock: (lock: FileLock) => void) {
    super(range, owner);
    this.#unlock = unlock;
  }

  /**
   * Flushes the file's buffered writes (so the next holder sees them), then releases the lock.
   * Idempotent; does nothing once its file is closed (closing released it). If the flush fails, it
   * throws and the lock stays held.
   */
  release(): void {
    if (this.isValid()) this.#unlock(this);
  }

  /** `using lock = f.lock()` releases it at the end of the block. */
  [Symbol.dispose](): void {
    this.release();
  }
}

/** A lock held through an `AsyncRandomAccessFile`. `await using` releases it at the end of the block. */
export class AsyncFileLock extends LockBase {
  readonly #unlock: (lock: AsyncFileLock) => Promise<void>;

  /** Made by `AsyncRandomAccessFile.lock`/`tryLock`, not by users. */
  constructor(range: LockRange, owner: HeldLocks, unlock: (lock: AsyncFileLock) => Promise<void>) {
    super(range, owner);
    this.#unlock = unlock;
  }

  /**
   * Flushes the file's buffered writes (so the next holder sees them), then releases the lock; in call
   * order with the file's other operations. Idempotent; does nothing once its file is closed. If the
   * flush fails, it rejects and the lock stays held.
   */
  release(): Promise<void> {
    return this.isValid() ? this.#unlock(this) : Promise.resolve();
  }

  /** `await using lock = await f.lock()` releases it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }

  /**
   * `using lock = await f.lock()`: starts the release (queued in call order) without waiting for it.
   * Nobody can await its outcome, so a failure becomes a process warning (`RAFKIT_LOCK_RELEASE`).
   */
  [Symbol.dispose](): void {
    this.release().catch((error: unknown) =>
      process.emitWarning(`Releasing a file lock failed: ${(error as Error).message}`, {
        code: "RAFKIT_LOCK_RELEASE",
      }),
    );
  }
}

/**
 * The locks one instance holds, to refuse overlaps (as Java does) and to invalidate them all on close;
 * also recorded in this thread's registry (see {@link heldInThread}), which a sync `lock()` consults.
 */
export class HeldLocks {
  /** Each lock, with its record in the thread's registry. */
  readonly #held = new Map<LockBase, LockRange>();
  readonly #holder: LockHolder;
  /**
   * What keeps the file instance from being collected while it holds a lock (its leak guard): a collected
   * instance's descriptor is closed, which would release a lock the program still counts on (Bun collects a
   * module's variables once nothing reads them again).
   */
  anchor: object | undefined;

  constructor(holder: LockHolder) {
    this.#holder = holder;
  }

  /** Throws {@link OverlappingFileLockError} when `range` overlaps a held lock. */
  check(range: LockRange): void {
    for (const l of this.#held.keys()) {
      if (overlaps(l, range)) throw new OverlappingFileLockError(range.position, range.size);
    }
  }

  /**
   * For a sync `lock()` whose attempt without waiting met a conflict: throws
   * {@link OverlappingFileLockError} when the conflicting holder is another instance of the same file in
   * this thread, which could never run to release while this thread waits.
   */
  checkThread(range: LockRange): void {
    const other = heldInThread(this.#holder, range);
    if (other === undefined) return;
    throw new OverlappingFileLockError(range.position, range.size, {
      path: this.#holder.path,
      holderPath: other.path,
      ...other.range,
    });
  }

  /**
   * Records `range` in this thread's registry before the OS is asked for it: the OS grants an async
   * `lock` inside the backend's call, promise turns before it settles, and a sync `lock()` run
   * in between must already see it (Java likewise counts a lock still being waited for). Then
   * {@link add} the lock with the record, or {@link unreserve} it.
   */
  reserve(range: LockRange): LockRange {
    return holdInThread(this.#holder, range);
  }

  /** A {@link reserve}d range was not granted (or the attempt failed). */
  unreserve(record: LockRange): void {
    releaseInThread(this.#holder, record);
  }

  add<L extends LockBase>(lock: L, record: LockRange = holdInThread(this.#holder, lock)): L {
    this.#held.set(lock, record);
    if (this.anchor !== undefined) lockHolders.add(this.anchor);
    return lock;
  }

  forget(lock: LockBase): void {
    const record = this.#held.get(lock);
    if (record === undefined) return;
    this.#held.delete(lock);
    releaseInThread(this.#holder, record);
    if (this.#held.size === 0 && this.anchor !== undefined) lockHolders.delete(this.anchor);
  }

  /** Closing the descriptor released them all. */
  closed(): void {
    for (const l of this.#held.keys()) l.invalidate();
    this.#held.clear();
    forgetHolder(this.#holder);
    if (this.anchor !== undefined) lockHolders.delete(this.anchor);
    // The guard goes back to the pool at close: a closed instance still reachable must not keep it.
    this.anchor = undefined;
  }
}

/** The anchors of the files that hold a lock in this thread: reachable from here, they are never collected. */
const lockHolders = new Set<object>();
