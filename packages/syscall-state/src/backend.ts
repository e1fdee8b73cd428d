/**
 * The contract every syscall-state backend implements.
 *
 * Each method is one system call (or, for the `*Fully` helpers, a loop of them) and returns a number:
 * the result when the call succeeds, or `-errno` when it fails. Backends never throw for an OS error;
 * the caller turns a negative result into an error at the API boundary, where `path` and `syscall`
 * are known (see `systemCallError`). Programming errors (a bad argument type) may still throw.
 *
 * Offsets and lengths are `number`s and exact up to `Number.MAX_SAFE_INTEGER` (beyond 4 GiB).
 */

/** The access modes of `java.io.RandomAccessFile`. */
export type FileMode = "r" | "rw" | "rws" | "rwd";

/**
 * What a lock wait uses of an `AbortSignal`. Node's and the DOM's are such: this package's types need neither Node's
 * nor the DOM's.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** Options of {@link Backend.lock}. `length` 0 means "to the end of the file, however it grows". */
export interface LockRequest {
  /** A shared (read) lock when true, an exclusive (write) lock otherwise. */
  readonly shared: boolean;
  /** Wait for a conflicting lock to go away (true), or fail at once with `-EAGAIN` (false). */
  readonly wait: boolean;
  readonly position: number;
  readonly length: number;
  /**
   * Cancels a waiting {@link AsyncBackend.lockAsync}: once aborted, it stops polling and rejects with
   * `signal.reason` (no lock is taken). Ignored by the synchronous `lock`.
   */
  readonly signal?: AbortSignalLike | undefined;
}

/** `posix_fadvise` advice, by its POSIX name without the `POSIX_FADV_` prefix. */
export type Advice = "normal" | "sequential" | "random" | "willneed" | "dontneed" | "noreuse";

/** What a backend really does, for callers that want to say so rather than discover a `-ENOTSUP`. */
export interface BackendFeatures {
  /** `lock`/`unlock` take real advisory locks (false: they return `-ENOTSUP`). */
  readonly locks: boolean;
  /** `allocate` reserves blocks (false: it returns `-ENOTSUP`). */
  readonly allocate: boolean;
  /** `fadvise` reaches the kernel (false: it checks the fd, returns 0 and does nothing more). */
  readonly fadvise: boolean;
}

/** The synchronous half of the contract. */
export interface SyncBackend {
  /** `"native"` (koffi) or `"node"` (`node:fs`), or a wrapper's own name. */
  readonly name: string;
  /** What this backend supports; absent on third-party backends written before it existed. */
  readonly features?: BackendFeatures;
  /**
   * Opens `path` with the flags of `mode` (always close-on-exec; creating with 0666 & ~umask for rw modes).
   * Returns the fd. A path containing a NUL byte throws a `TypeError` (`ERR_INVALID_ARG_VALUE`), as
   * `node:fs` does, before any system call (C would silently cut it at the NUL).
   */
  open(path: string, mode: FileMode): number;
  /** Closes `fd`. Never retried on EINTR: on Linux the fd is already released then, and may be reused. */
  close(fd: number): number;
  /**
   * One `pread`, retried on EINTR. Returns the bytes read (0 at EOF). Throws a `RangeError`
   * (`ERR_OUT_OF_RANGE`) when `offset`/`length` do not fit `buffer` or `position` is negative.
   * A zero `length` is still a system call: the kernel's answer for the fd (`-EBADF` closed,
   * `-EISDIR` a directory, `-ESPIPE` a FIFO), or 0.
   */
  pread(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  /** One `pwrite`, retried on EINTR. Returns the bytes written; a zero `length` is a system call too. */
  pwrite(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  /**
   * `pread` in a loop until `length` bytes or EOF. Returns the bytes read (fewer only at EOF), or the
   * first `-errno` (the bytes before it are in `buffer`). A zero `length` is one zero-length `pread`,
   * so a bad fd still answers (`-EBADF`, `-EISDIR`, ...). `-EOVERFLOW` when the loop would go on past
   * position `Number.MAX_SAFE_INTEGER`, where positions stop being exact.
   */
  preadFully(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number;
  /**
   * `pwrite` in a loop until all `length` bytes are written. Returns `length`, or the first `-errno`
   * (`-EIO` if the OS accepts zero bytes, which would otherwise loop forever). A zero `length` is one
   * zero-length `pwrite`; `-EOVERFLOW` past `Number.MAX_SAFE_INTEGER`, as {@link preadFully}.
   */
  pwriteFully(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number;
  /**
   * The file's size in bytes, in one system call (two for a file `lseek` cannot size). `-EISDIR` for a
   * directory (it has no byte size); never a `bigint`: a size beyond `Number.MAX_SAFE_INTEGER` comes back
   * as `-EOVERFLOW`.
   */
  size(fd: number): number;
  truncate(fd: number, length: number): number;
  /** Flushes data and metadata to the device (`F_FULLFSYNC` on macOS). */
  sync(fd: number): number;
  /** Flushes data, and metadata only where needed to read it back. */
  datasync(fd: number): number;
  /**
   * Takes an advisory lock. Returns 0, or `-EAGAIN` when `wait` is false and another holder conflicts
   * (a platform's `EACCES` for the same case is normalised to `-EAGAIN`). With `wait` true the calling
   * thread blocks until the lock is granted; use {@link AsyncBackend.lockAsync} on the main thread.
   * `-ENOTSUP` where the backend has no locks (`node`), once the fd is known good (else `-EBADF`).
   */
  lock(fd: number, request: LockRequest): number;
  unlock(fd: number, position: number, length: number): number;
  /**
   * `posix_fadvise`; 0 where the platform lacks it (advice may be ignored). `-EINVAL` for an advice name
   * not in {@link Advice}. The node backend still checks the fd (`-EBADF`; `-ESPIPE` for a FIFO).
   */
  fadvise(fd: number, position: number, length: number, advice: Advice): number;
  /**
   * Reserves blocks (`fallocate`/`posix_fallocate`); `-ENOTSUP` where the platform lacks it (the node
   * backend, once the fd is known good: else `-EBADF`).
   */
  allocate(fd: number, position: number, length: number): number;
}

/** The asynchronous twins: the system call runs off the main thread; the promise resolves to the same result-or-`-errno`. */
export interface AsyncBackend {
  openAsync(path: string, mode: FileMode): Promise<number>;
  closeAsync(fd: number): Promise<number>;
  preadAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number>;
  pwriteAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number>;
  preadFullyAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number>;
  pwriteFullyAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number>;
  sizeAsync(fd: number): Promise<number>;
  truncateAsync(fd: number, length: number): Promise<number>;
  syncAsync(fd: number): Promise<number>;
  datasyncAsync(fd: number): Promise<number>;
  /**
   * {@link SyncBackend.lock} without blocking the event loop or any pool thread: a waiting lock polls
   * the non-blocking lock command on the main thread's timers, backing off from 1 ms to 50 ms, until it
   * is granted or `request.signal` aborts (then it rejects with the signal's reason). Polling queues
   * nowhere in the kernel, so it gives no fairness: a blocking waiter may be granted the lock first.
   */
  lockAsync(fd: number, request: LockRequest): Promise<number>;
}

/** A complete backend: every call, sync and async. */
export interface Backend extends SyncBackend, AsyncBackend {}
