import type { FileMode } from "@rafkit/syscall-state/browser";
import { AsyncRandomAccessFile as NodeAsyncRandomAccessFile } from "../async-random-access-file";
import type { RandomAccessFileOptions } from "../options";
import { HeldWebLocks } from "./held-web-locks";
import { browserTarget } from "./open-browser-file";
import type { WebFileLock, WebLockOptions } from "./web-locks";

/**
 * `AsyncRandomAccessFile` in a browser, on any thread: over OPFS (on a page's main thread a worker owns
 * the sync handles, one message per system call) or over a `Blob`/`File`, read-only. Locks are Web Locks
 * on the path: {@link webLock} and {@link tryWebLock}.
 *
 * @example
 * ```ts
 * const f = await AsyncRandomAccessFile.open(droppedFile, "r");
 * const magic = await f.readInt();
 * await f.close();
 * ```
 */
export class AsyncRandomAccessFile extends NodeAsyncRandomAccessFile {
  readonly #webLocks = new HeldWebLocks(this);

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
    // biome-ignore lint/complexity/noThisInStatic: super, so that the base factory builds this subclass.
    return (await super.open(target.path, mode, target.options)) as AsyncRandomAccessFile;
  }

  /** An exclusive (default) or shared Web Lock on the path, covering the whole file; waits until granted. */
  webLock(options: WebLockOptions = {}): Promise<WebFileLock> {
    return this.#webLocks.take(options, true) as Promise<WebFileLock>;
  }

  /** {@link webLock} with `ifAvailable`: `null` at once when another holder conflicts. */
  tryWebLock(options: WebLockOptions = {}): Promise<WebFileLock | null> {
    return this.#webLocks.take(options, false);
  }

  /** Flushes and closes, as in Node, and releases the Web Locks this instance holds. */
  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      this.#webLocks.closed();
    }
  }
}
