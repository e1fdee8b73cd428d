import {
  type Backend,
  type FileMode,
  systemCallError,
  withOpenDescriptor,
} from "@rafkit/syscall-state/browser";
import { FORGET_CACHED } from "../hooks";
import { FileLock, type LockOptions } from "../locks";
import { closeQuietly, planOpen } from "../open-file";
import type { RandomAccessFileOptions } from "../options";
import { RandomAccessFile as NodeRandomAccessFile } from "../random-access-file";
import { HeldWebLocks, type WebLockOptions } from "./held-web-locks";
import { SyncLockUnsupportedError } from "./lock-errors";
import { browserTarget } from "./open-browser-file";

/**
 * `RandomAccessFile` in a browser: the same class, opened by the async factory {@link open} (OPFS opens
 * asynchronously; the instance it returns is synchronous). Use it in a dedicated worker, where OPFS has
 * synchronous access handles. Locks are Web Locks on the path, taken asynchronously: {@link lockAsync} and
 * {@link tryLockAsync} (the synchronous `lock`/`tryLock` cannot wait for them, and throw).
 *
 * @example
 * ```ts
 * const f = await RandomAccessFile.open("data/x.bin", "rw"); // in a dedicated worker
 * f.writeInt(42);
 * f.close();
 * ```
 */
export class RandomAccessFile extends NodeRandomAccessFile {
  readonly #webLocks: HeldWebLocks<FileLock> = new HeldWebLocks(this);

  /**
   * Opens `path` in the origin's private file system (`rw` creates it and its directories; `r` does not,
   * `ENOENT`), or a `Blob`/`File` read-only, and returns the synchronous instance. Rejects with Java's
   * `TypeError` for a bad mode before any I/O, with the Node-shaped error of `open` when refused.
   */
  static async open(
    path: string | URL | Blob,
    mode: FileMode,
    options: RandomAccessFileOptions = {},
  ): Promise<RandomAccessFile> {
    const target = browserTarget(path, mode, options, true);
    const plan = planOpen(target.path, mode, target.options);
    const fd = await target.backend.openAsync(plan.path, mode);
    if (fd < 0) throw systemCallError(fd, "open", plan.path);
    // Once the constructor has taken `fd` (its `open`), it closes it itself if it fails; before, this does.
    let taken = false;
    const handing = withOpenDescriptor(target.backend, fd);
    const backend: Backend = {
      ...handing,
      open: (p: string, m: FileMode) => {
        taken = true;
        return handing.open(p, m);
      },
    };
    try {
      return new RandomAccessFile(plan.path, mode, { ...target.options, backend });
    } catch (error) {
      if (!taken) closeQuietly(target.backend, fd);
      throw error;
    }
  }

  /**
   * Not in a browser: a synchronous lock would have to block this thread until another context releases a
   * Web Lock, which only an event-loop turn can deliver. Throws {@link SyncLockUnsupportedError}, which
   * names {@link lockAsync}.
   */
  override lock(_options?: LockOptions): never {
    throw new SyncLockUnsupportedError("lock");
  }

  /** Not in a browser (see {@link lock}): throws {@link SyncLockUnsupportedError}, which names {@link tryLockAsync}. */
  override tryLock(_options?: LockOptions): never {
    throw new SyncLockUnsupportedError("tryLock");
  }

  /**
   * The browser's `lock()`: an exclusive (default) or shared Web Lock on this file's path, across the
   * origin's workers and pages; resolves once granted (or rejects when `options.signal` aborts, or with
   * `ClosedError` when the file is closed meanwhile). Java's checks first, as `lock()` on Node: `LockModeError`
   * for an exclusive lock on a file opened `"r"`, a `RangeError` for a bad range, and
   * `OverlappingFileLockError` for a range this instance holds or waits for. Web Locks are by name, so it
   * covers the **whole file** whatever `position`/`size` say: a second lock of this instance is refused too
   * unless both are shared. Flushes first and, once granted, forgets the window's cached bytes, as `lock()`
   * does (writes made while it waits are flushed then; a failure there gives the lock up). The lock is Node's
   * `FileLock`: `release()` (synchronous: flushes, then lets the Web Lock go) or {@link close} releases it; other contexts can take
   * it once this worker's current task yields, as `navigator.locks` releases on a later turn; a request in
   * this worker made after the release waits for it, so it is granted here as on Node.
   */
  lockAsync(options: WebLockOptions = {}): Promise<FileLock> {
    return this.#take(options, true) as Promise<FileLock>;
  }

  /** {@link lockAsync} with `ifAvailable`: `null` at once when another holder has a conflicting lock. */
  tryLockAsync(options: WebLockOptions = {}): Promise<FileLock | null> {
    return this.#take(options, false);
  }

  async #take(options: WebLockOptions, wait: boolean): Promise<FileLock | null> {
    const range = this.#webLocks.plan(options);
    this.flush();
    const taken = await this.#webLocks.take(range, wait, options.signal, (granted, owner) => {
      return new FileLock(granted, owner, (lock) => {
        // Flushed first, so the next holder sees what was written under the lock (a failure keeps it held).
        this.flush();
        void this.#webLocks.release(lock);
      });
    });
    if (taken !== null) this.#granted(taken);
    return taken;
  }

  /**
   * Forgets the window's bytes, which the last holder may have changed, as a lock on Node does. Writes made
   * while the lock was awaited are flushed first; if that fails, the lock goes and the error is thrown.
   */
  #granted(taken: FileLock): void {
    try {
      this.flush();
    } catch (error) {
      void this.#webLocks.release(taken);
      throw error;
    }
    this[FORGET_CACHED]();
  }

  /** Flushes and closes, as in Node, and releases the Web Locks this instance holds. */
  override close(): void {
    this.#webLocks.closing();
    try {
      super.close();
    } finally {
      // The Web Locks go once this task yields (navigator.locks releases on a later turn).
      void this.#webLocks.closed();
    }
  }
}
