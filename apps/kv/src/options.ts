import type { DirectoryOps } from "./store-dir";

/** When a write reaches the disk. */
export type SyncMode = "always" | "batch" | "never";

/** Options of {@link open}. */
export interface OpenOptions {
  /**
   * - `always`: every put and delete is fsynced before its promise resolves (the default);
   * - `batch`: concurrent writes share one fsync, and each resolves once that fsync is done;
   * - `never`: writes are handed to the OS at the end of each event-loop turn and never fsynced (until close).
   */
  readonly sync?: SyncMode | undefined;
  /**
   * Open without writing to the data: a shared lock, no writes. The one file it may write is `DAMAGED`, noting a
   * damaged record a read found, so that the next writable open is read-only too. Default false.
   */
  readonly readOnly?: boolean | undefined;
  /** Create the directory when it is missing (its parent must exist). Default true unless `readOnly`. */
  readonly create?: boolean | undefined;
  /**
   * Open a store that has a corrupt record in the middle of a file for writing anyway: records in damaged regions
   * are dropped and a compaction rewrites the rest into clean files. Default false (such a store opens read-only).
   */
  readonly repair?: boolean | undefined;
  /** A data file is closed and a new one started past this size: a positive integer of bytes. Default 64 MiB. */
  readonly maxFileSize?: number | undefined;
  /**
   * Bytes of recently read or written values kept in memory (one ring buffer, first in first out), so that hot keys
   * cost no system call. Values are cached only after their CRC checked out (or as they are written); a value larger
   * than an eighth of this is not cached. 0 turns the cache off; larger sizes count as 1 GiB; NaN, a negative or an
   * infinite size is refused. Default 16 MiB.
   */
  readonly cacheSize?: number | undefined;
  /**
   * The file operations the store does in its directory (listing, stat, rename, unlink, directory fsync, whole-file
   * reads and writes, opening data files). Default: the real filesystem. For fault injection and crash simulation.
   */
  readonly directory?: DirectoryOps | undefined;
}

/** Progress of a long operation: `done` of `total` units (records or bytes). */
export type ProgressCallback = (done: number, total: number) => void;
