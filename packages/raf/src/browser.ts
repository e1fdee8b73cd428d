/**
 * `@rafkit/raf` in a browser: the same classes over the Origin Private File System and over `Blob`s, with
 * Web Locks, and no `node:` module. `RandomAccessFile.open()` (async) returns the synchronous class, for
 * dedicated workers; `AsyncRandomAccessFile` works on any thread.
 *
 * @packageDocumentation
 */
export { type ByteOrder, UTFDataFormatError } from "@rafkit/bits";
export { AsyncOpenRequiredError, SystemCallError } from "@rafkit/syscall-state/browser";
export { AsyncRandomAccessFile } from "./browser/async-random-access-file";
export { BLOB_BUFFER_SIZE } from "./browser/open-browser-file";
export { RandomAccessFile } from "./browser/random-access-file";
export { WebFileLock, type WebLockOptions, webLockName } from "./browser/web-locks";
export {
  ClosedError,
  EOFError,
  LockModeError,
  LockUnsupportedError,
  OffsetRangeError,
  OverlappingFileLockError,
} from "./errors";
export type { LockOptions } from "./locks";
export { parseMode } from "./modes";
export { DEFAULT_BUFFER_SIZE, type RandomAccessFileOptions } from "./options";
