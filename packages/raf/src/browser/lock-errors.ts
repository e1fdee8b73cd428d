import { shareClassIdentity } from "@rafkit/bits";
import { LockUnsupportedError } from "../errors";

/**
 * Thrown by the browser `RandomAccessFile`'s synchronous `lock()`/`tryLock()`: a lock there is a Web Lock,
 * granted only on a later event-loop turn, so no synchronous call can wait for one. Its message names the
 * asynchronous twins, `await f.lockAsync(options)` and `await f.tryLockAsync(options)` (or
 * `AsyncRandomAccessFile`'s `lock`/`tryLock`). A `LockUnsupportedError`, with its code
 * `ERR_RAF_LOCK_UNSUPPORTED`, as on Node for a backend without locks.
 */
export class SyncLockUnsupportedError extends LockUnsupportedError {
  static {
    shareClassIdentity(this, "@rafkit/raf.SyncLockUnsupportedError");
  }
  /** The method that was called: `"lock"` or `"tryLock"`. */
  readonly method: "lock" | "tryLock";

  constructor(method: "lock" | "tryLock") {
    super("opfs");
    this.method = method;
    const twin = method === "lock" ? "lockAsync" : "tryLockAsync";
    this.message = `RandomAccessFile.${method}() cannot wait for a lock in a browser: locks are Web Locks there, which are granted asynchronously. Use \`await file.${twin}(options)\` (same options${method === "tryLock" ? ", null when another holder conflicts" : ""}), or AsyncRandomAccessFile's ${method}()`;
  }
}
