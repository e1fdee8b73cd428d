import type { Bytes } from "./bytes";
import type { SyncMode } from "./options";
import type { Damage } from "./scan";

/** Damage found on open, and what was done about it. */
export interface RecoveryIssue {
  /** The data file's name. */
  readonly file: string;
  readonly offset: number;
  /** `foreign`: a file the store did not write (no valid record at all, or an id no store numbers). */
  readonly kind: Damage["kind"] | "foreign";
  /**
   * `truncated`: a torn tail cut off; `ignored`: left in place (read-only); `skipped`: records dropped (repair);
   * `moved`: a foreign file moved into the store's `lost+found/` folder, untouched.
   */
  readonly action: "truncated" | "ignored" | "skipped" | "moved";
  /** Bytes the damage spans. */
  readonly bytes: number;
}

/** A snapshot of the store's shape, from {@link Store.stats}. */
export interface StoreStats {
  readonly dir: string;
  readonly sync: SyncMode;
  readonly readOnly: boolean;
  /** Why the store is read-only, when it is. */
  readonly readOnlyReason?: string;
  /** Live keys. */
  readonly keys: number;
  /** Data files. */
  readonly files: number;
  /** Bytes of all data files. */
  readonly totalBytes: number;
  /** Bytes of live records. */
  readonly liveBytes: number;
  /** Bytes that a compaction would reclaim. */
  readonly deadBytes: number;
  /** Compactions finished since open. */
  readonly compactions: number;
  /** Damage found on open. */
  readonly recovery: readonly RecoveryIssue[];
  /**
   * `"os"`: the store holds an OS file lock (other processes are excluded). `"process"`: the backend has no file
   * locks (raf's `node` backend, e.g. `RAFKIT_BACKEND=node`), so only other opens in this process are excluded.
   */
  readonly lock: "os" | "process";
}

/** The outcome of {@link Store.compact}. */
export interface CompactionResult {
  /** Data files when the compaction started. */
  readonly filesBefore: number;
  /** Data files when it finished: the files it wrote, and the active file with any that writes meanwhile started. */
  readonly filesAfter: number;
  /** Data files the compaction wrote (the live records' copies); not the active files that writes fill meanwhile. */
  readonly filesWritten: number;
  /** Data files it deleted: its inputs, every file that was sealed when it started. */
  readonly filesRemoved: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  /** Live records copied into the new files. */
  readonly records: number;
}

/** The outcome of {@link Store.verify}. */
export interface VerifyReport {
  /** True when every file and every live key checked out. */
  readonly ok: boolean;
  /**
   * Data files that hold something to check: an empty one (the active file that a compaction, a rotation or an
   * open just started) holds no record, so it is read but not counted, as a user counts files of data.
   */
  readonly files: number;
  readonly records: number;
  readonly bytes: number;
  /** One readable line per problem: corruption, a damaged hint, a key pointing at a bad record. */
  readonly problems: readonly string[];
  /** Torn tails: interrupted appends that the next writable open cuts off. Not a failure. */
  readonly tornTails: readonly string[];
}

/** Options of {@link Store.keys} and {@link Store.entries}. */
export interface IterateOptions {
  /** Only keys starting with these bytes. */
  readonly prefix?: Bytes;
}
