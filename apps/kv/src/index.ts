/**
 * rafkv: an embedded, crash-safe, Bitcask-style key-value store built on rafkit.
 *
 * @packageDocumentation
 */

export type { Bytes } from "./bytes";
export { crc32 } from "./crc32";
export { KvError, type KvErrorCode, KvLockedError } from "./errors";
export type { OpenOptions, ProgressCallback, SyncMode } from "./options";
export {
  type BackupResult,
  type CompactionResult,
  type IterateOptions,
  open,
  type RecoveryIssue,
  Store,
  type StoreStats,
  type VerifyReport,
} from "./store";
export { type DirectoryOps, type FileStat, realDirectory } from "./store-dir";
