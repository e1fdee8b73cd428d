/**
 * `@rafkit/raf`: `java.io.RandomAccessFile` for Node.js, byte-compatible with the JDK's
 * `DataInput`/`DataOutput`, with one coherent read/write buffer and bulk typed-array I/O.
 *
 * @packageDocumentation
 */
export { type ByteOrder, OutOfRangeError, UTFDataFormatError } from "@rafkit/bits";
export { SystemCallError } from "@rafkit/syscall-state";
export type {
  DataInputApi,
  DataOutputApi,
  FileApi,
  Flavor,
  LockOf,
  Position,
  PositionalApi,
  RandomAccessFileApi,
  Result,
} from "./api";
export { AsyncRandomAccessFile } from "./async-random-access-file";
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
export { RandomAccessFile } from "./random-access-file";
export type { ReadStreamOptions, WriteStreamOptions } from "./streams";
