import { type FileMode, systemCallError, withOpenDescriptor } from "@rafkit/syscall-state/browser";
import { planOpen } from "../open-file";
import type { RandomAccessFileOptions } from "../options";
import { RandomAccessFile as NodeRandomAccessFile } from "../random-access-file";
import { HeldWebLocks } from "./held-web-locks";
import { browserTarget } from "./open-browser-file";
import type { WebFileLock, WebLockOptions } from "./web-locks";

/**
 * `RandomAccessFile` in a browser: the same class, opened by the async factory {@link open} (OPFS opens
 * asynchronously; the instance it returns is synchronous). Use it in a dedicated worker, where OPFS has
 * synchronous access handles. Locks are Web Locks on the path: {@link webLock} and {@link tryWebLock}.
 *
 * @example
 * ```ts
 * const f = await RandomAccessFile.open("data/x.bin", "rw"); // in a dedicated worker
 * f.writeInt(42);
 * f.close();
 * ```
 */
export class RandomAccessFile extends NodeRandomAccessFile {
  readonly #webLocks = new HeldWebLocks(this);

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
    const target = browserTarget(path, mode, options);
    const plan = planOpen(target.path, mode, target.options);
    const fd = await target.backend.openAsync(plan.path, mode);
    if (fd < 0) throw systemCallError(fd, "open", plan.path);
    try {
      return new RandomAccessFile(plan.path, mode, {
        ...target.options,
        backend: withOpenDescriptor(target.backend, fd),
      });
    } catch (error) {
      target.backend.close(fd);
      throw error;
    }
  }

  /**
   * An exclusive (default) or shared Web Lock on this file's path, across the origin's workers and pages;
   * waits until granted (or `options.signal` aborts). Web Locks are by name, so it covers the whole file
   * whatever `position`/`size` say. Released by `release()` or {@link close}.
   */
  webLock(options: WebLockOptions = {}): Promise<WebFileLock> {
    return this.#webLocks.take(options, true) as Promise<WebFileLock>;
  }

  /** {@link webLock} with `ifAvailable`: `null` at once when another holder conflicts. */
  tryWebLock(options: WebLockOptions = {}): Promise<WebFileLock | null> {
    return this.#webLocks.take(options, false);
  }

  /** Flushes and closes, as in Node, and releases the Web Locks this instance holds. */
  override close(): void {
    try {
      super.close();
    } finally {
      this.#webLocks.closed();
    }
  }
}
