import type { FileMode } from "@rafkit/syscall-state/browser";
import { AsyncRandomAccessFile as NodeAsyncRandomAccessFile } from "../async-random-access-file";
import { FORGET_CACHED, IN_TURN } from "../hooks";
import { AsyncFileLock, type LockRange } from "../locks";
import type { RandomAccessFileOptions } from "../options";
import { HeldWebLocks, type WebLockOptions } from "./held-web-locks";
import { browserTarget } from "./open-browser-file";

/**
 * `AsyncRandomAccessFile` in a browser, on any thread: over OPFS (on a page's main thread a worker owns
 * the sync handles, one message per system call) or over a `Blob`/`File`, read-only. Its {@link lock} and
 * {@link tryLock} are Web Locks on the path, across every worker and page of the origin.
 *
 * @example
 * ```ts
 * const f = await AsyncRandomAccessFile.open(droppedFile, "r");
 * const magic = await f.readInt();
 * await f.close();
 * ```
 */
export class AsyncRandomAccessFile extends NodeAsyncRandomAccessFile {
  readonly #webLocks: HeldWebLocks<AsyncFileLock> = new HeldWebLocks(this);

  /**
   * Opens `path` in the origin's private file system, or a `Blob`/`File` (mode `r` only: a writing mode is
   * `EACCES`, and a write to it fails with `EBADF`, as on a file opened `r`). Same options as in Node.
   */
  static override async open(
    path: string | URL | Blob,
    mode: FileMode,
    options: RandomAccessFileOptions = {},
  ): Promise<AsyncRandomAccessFile> {
    const target = browserTarget(path, mode, options);
    // super, so that the base factory builds this subclass.
    return (await super.open(target.path, mode, target.options)) as AsyncRandomAccessFile;
  }

  /**
   * An exclusive (default) or shared lock on this file: a Web Lock on its path, across the origin's workers
   * and pages; resolves once granted. As on Node: Java's checks first (`LockModeError` for an exclusive lock
   * on a file opened `"r"`, a `RangeError` for a bad range, `OverlappingFileLockError` for a range this
   * instance holds or waits for), it flushes first, forgets the window's cached bytes once granted, takes its
   * turn among the file's operations (those called after it run once it is granted), and {@link close} cancels
   * it while it waits (`ClosedError`);
   * `options.signal` can too. Web Locks are by name, so it covers the **whole file** whatever
   * `position`/`size` say: a second lock of this instance is refused too unless both are shared. The lock
   * is Node's `AsyncFileLock`: `release()` (flushes, then lets the Web Lock go) or {@link close} releases it.
   */
  override lock(options: WebLockOptions = {}): Promise<AsyncFileLock> {
    return this.#take(options, true) as Promise<AsyncFileLock>;
  }

  /** {@link lock} with `ifAvailable`: `null` at once when another holder has a conflicting lock. */
  override tryLock(options: WebLockOptions = {}): Promise<AsyncFileLock | null> {
    return this.#take(options, false);
  }

  #take(options: WebLockOptions, wait: boolean): Promise<AsyncFileLock | null> {
    let range: LockRange;
    try {
      range = this.#webLocks.plan(options);
    } catch (error) {
      return Promise.reject(error);
    }
    // Queued first, so the lock's turn comes right after it (a failure: no request).
    const flushed = this.#flushed();
    return this[IN_TURN](async () => {
      await flushed();
      const taken = await this.#webLocks.take(range, wait, options.signal, (granted, owner) => {
        return new AsyncFileLock(granted, owner, (lock) => this.#release(lock));
      });
      // The last holder may have changed the window's bytes, as on Node (nothing was written meanwhile: in turn).
      if (taken !== null) this[FORGET_CACHED]();
      return taken;
    });
  }

  /** Flushes, then lets the Web Lock go, in its turn; a failed flush keeps it held. */
  #release(lock: AsyncFileLock): Promise<void> {
    const flushed = this.#flushed();
    return this[IN_TURN](async () => {
      // Closed since (or closing before this turn): the close released it, as on Node.
      if (this.closed || !lock.isValid()) return;
      await flushed();
      await this.#webLocks.release(lock);
    });
  }

  /** Queues a flush now; the function returned awaits its outcome (no unhandled rejection meanwhile). */
  #flushed(): () => Promise<void> {
    let failure: { error: unknown } | undefined;
    const flushing = this.flush().catch((error: unknown) => {
      failure = { error };
    });
    return async () => {
      await flushing;
      if (failure !== undefined) throw failure.error;
    };
  }

  /** Flushes and closes, as in Node, and releases the Web Locks this instance holds. */
  override async close(): Promise<void> {
    // A lock() still waiting would hold up the close queued behind it.
    this.#webLocks.closing();
    try {
      await super.close();
    } finally {
      // Settled once the Web Locks are gone, so a context told after this close can take them.
      await this.#webLocks.closed();
    }
  }
}
