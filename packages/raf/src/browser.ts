/**
 * `@rafkit/raf` in a browser: the same classes over the Origin Private File System and over `Blob`s, with
 * Web Locks, and no `node:` module. `RandomAccessFile.open()` (async) returns the synchronous class, for
 * dedicated workers; `AsyncRandomAccessFile` works on any thread. Locks are Web Locks, by path: the async
 * class's `lock`/`tryLock`, the sync class's `lockAsync`/`tryLockAsync`.
 *
 * @packageDocumentation
 */
import "./browser/disposable";

export { type ByteOrder, OutOfRangeError, UTFDataFormatError } from "@rafkit/bits";
export { AsyncOpenRequiredError, SystemCallError } from "@rafkit/syscall-state/browser";
export { AsyncRandomAccessFile } from "./browser/async-random-access-file";
export type { WebLockOptions } from "./browser/held-web-locks";
export { SyncLockUnsupportedError } from "./browser/lock-errors";
export { BLOB_BUFFER_SIZE } from "./browser/open-browser-file";
export { RandomAccessFile } from "./browser/random-access-file";
export { webLockName } from "./browser/web-locks";
export {
  ClosedError,
  EOFError,
  LockModeError,
  LockUnsupportedError,
  OffsetRangeError,
  OverlappingFileLockError,
} from "./errors";
export { AsyncFileLock, FileLock, type LockOptions } from "./locks";
export { parseMode } from "./modes";
export { DEFAULT_BUFFER_SIZE, type RandomAccessFileOptions } from "./options";
