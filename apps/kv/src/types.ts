import type { Bytes } from "./bytes";
import type { SyncMode } from "./options";
import type { Damage } from "./scan";

/** Damage found on open, and what was done about it. */
export interface RecoveryIssue {
  /** The data file's name. */
  readonly file: string;
  readonly offset: number;
  /**
   * `foreign`: a file the store did not write (no valid record, and not even a record's start; or an id no store
   * numbers). `torn-tail` at offset 0: a data file of the store's with no valid record (a torn first append, or its
   * only record damaged: they cannot be told apart).
   */
  readonly kind: Damage["kind"] | "foreign";
  /**
   * `truncated`: a torn tail cut off, its bytes kept in `lost+found/` first (see {@link RecoveryIssue.keptAs});
   * `ignored`: left in place (read-only); `skipped`: records dropped (repair); `moved`: a file moved into the
   * store's `lost+found/` folder whole, untouched.
   */
  readonly action: "truncated" | "ignored" | "skipped" | "moved";
  /** Bytes the damage spans. */
  readonly bytes: number;
  /**
   * Where a writable open kept the bytes it took out of the store, relative to the store directory: the file moved
   * (`lost+found/0000000007.data`), or the copy of a torn tail it cut off, named after its file and offset
   * (`lost+found/0000000007.data.cut-at-4096`). Not part of the store: inspect, then delete them.
   */
  readonly keptAs?: string;
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
  /**
   * Bytes of data files that are not live records: superseded records and tombstones, which a compaction reclaims,
   * and the sync points (28 bytes each) that attest how much of a file was synced, which every file keeps.
   */
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
  /**
   * Files in the store's `lost+found/` folder (`lost+found/NAME`): what earlier opens took out of the store and kept
   * (see {@link RecoveryIssue.keptAs}). Not part of the store, and not a failure.
   */
  readonly keptAside: readonly string[];
}

/** Options of {@link Store.keys} and {@link Store.entries}. */
export interface IterateOptions {
  /** Only keys starting with these bytes. */
  readonly prefix?: Bytes | undefined;
}
