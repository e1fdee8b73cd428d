import { type BackupResult, backupStore } from "./backup";
import { type Bytes, hasLoneSurrogate, isAscii, keyId, keyIdBytes, toBytes, utf8 } from "./bytes";
import { compactNow } from "./compaction";
import { clearDamaged } from "./damage-file";
import type { DataFile } from "./data-file";
import { KvError } from "./errors";
import { GroupCommit } from "./group-commit";
import { removeLostHints } from "./leftovers";
import { checkOptionsObject, checkProgressOptions } from "./open-checks";
import { openState } from "./open-store";
import type { OpenOptions, ProgressCallback, SyncMode } from "./options";
import { matchingIds, ValueReader } from "./reads";
import { MAX_VALUE_LENGTH } from "./record";
import type { CutFailed } from "./recovery";
import { reload } from "./reload";
import type { StoreLock } from "./store-lock";
import type { StoreState } from "./store-state";
import type {
  CompactionResult,
  IterateOptions,
  RecoveryIssue,
  StoreStats,
  VerifyReport,
} from "./types";
import type { ValueCache } from "./value-cache";
import { verifyStore } from "./verify";
import { appendRecord, checkKeyLength, sealActive } from "./writes";

export type { BackupResult } from "./backup";
export type {
  CompactionResult,
  IterateOptions,
  RecoveryIssue,
  StoreStats,
  VerifyReport,
} from "./types";

/**
 * An open rafkv store: a Bitcask-style log-structured key-value store in one directory. Create one with {@link open}.
 *
 * Writes append records to the active data file; an in-memory key directory maps each key to its newest record;
 * reads are one positional read each. The work is done by `open-store.ts` and `recovery.ts` (open),
 * `group-commit.ts` (when writes are acknowledged), `compaction.ts`, `verify.ts` and `store-dir.ts` (every file
 * operation); docs/MODULES.md lists every module. See the package README for the API and docs/RECOVERY.md for the
 * file format and the durability argument.
 */
export class Store {
  /** The store directory (a real path). */
  readonly dir: string;
  /** When writes reach the disk. */
  readonly sync: SyncMode;
  readonly #lock: StoreLock;
  readonly #cache: ValueCache;
  readonly #values: ValueReader;
  /** Opened read-only: another process may be writing (a backend without OS locks). */
  readonly #reader: boolean;
  readonly #commit: GroupCommit;
  #state: StoreState;
  #closed = false;
  #closing = false;
  /** The running (or finished) close, which every call of {@link close} answers with. */
  #closeCall: Promise<void> | undefined;
  #compaction: Promise<CompactionResult> | null = null;
  #compactions = 0;
  /** A data file whose cut back after a failed write failed: the reloads read it only up to `end`. */
  #cutFailed: CutFailed | null = null;

  private constructor(state: StoreState, lock: StoreLock, options: OpenOptions, cache: ValueCache) {
    this.dir = state.dir.path;
    this.#state = state;
    this.#lock = lock;
    this.sync = options.sync ?? "always";
    this.#cache = cache;
    this.#values = new ValueReader(cache);
    this.#reader = options.readOnly ?? false;
    const store = this;
    this.#commit = new GroupCommit({
      sync: this.sync,
      get state() {
        return store.#state;
      },
      get closed() {
        return store.#closed;
      },
      get compacting() {
        return store.#compaction !== null;
      },
      cutFailed: (cut) => {
        this.#cutFailed = cut;
      },
      reload: (failed) => this.#reload(failed),
    });
  }

  /** @internal use {@link open}. */
  static async open(dir: string, options: OpenOptions = {}): Promise<Store> {
    const { state, lock, cache } = await openState(dir, options);
    const db = new Store(state, lock, options, cache);
    if (options.repair && state.recovery.some((r) => r.kind === "corrupt")) {
      try {
        await db.compact();
        clearDamaged(state.dir);
        removeLostHints(db.#state);
      } catch (error) {
        await db.close();
        throw error;
      }
    }
    return db;
  }

  /** True when writes are refused (see {@link StoreStats.readOnlyReason}). */
  get readOnly(): boolean {
    return this.#state.readOnlyReason !== undefined;
  }

  /** Damage found on open, and what was done about it. */
  get recovery(): readonly RecoveryIssue[] {
    return this.#state.recovery;
  }

  // ---------------------------------------------------------------- reads

  /** The value of `key`, or undefined. Throws `ERR_KV_CORRUPT` rather than return a damaged value. */
  get(key: Bytes): Promise<Uint8Array | undefined> {
    try {
      return Promise.resolve(this.getSync(key));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** {@link Store.get} without the promise: reads are synchronous positional reads underneath. */
  getSync(key: Bytes): Uint8Array | undefined {
    this.#checkOpen();
    const keydir = this.#state.keydir;
    if (typeof key === "string") {
      // The common case in one lookup: an ASCII string key is its own id.
      const slot = keydir.findAscii(key);
      if (slot >= 0) return this.#readValue(slot, key);
      // Not a key any put could store (see keyId): not one to look up as its U+FFFD spelling either.
      if (hasLoneSurrogate(key)) return undefined;
      if (!keydir.hasOther) return this.#absent(key);
    }
    const id = keyId(key);
    const slot = keydir.find(id);
    return slot < 0 ? this.#absent(id) : this.#readValue(slot, id);
  }

  /** No value for `id`, unless damage whose keys are unknown may hold one (see `StoreState.unvouchedBefore`). */
  #absent(id: string): undefined {
    if (!this.#state.vouchesFor(-1)) throw this.#state.unvouched(id);
    return undefined;
  }

  /** The value of `key` decoded as UTF-8, or undefined. */
  async getString(key: Bytes): Promise<string | undefined> {
    const value = this.getSync(key);
    return value === undefined ? undefined : utf8(value);
  }

  /** Whether `key` has a value (answered from memory). */
  has(key: Bytes): Promise<boolean> {
    try {
      return Promise.resolve(this.hasSync(key));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** {@link Store.has} without the promise. */
  hasSync(key: Bytes): boolean {
    this.#checkOpen();
    const keydir = this.#state.keydir;
    if (typeof key === "string") {
      const slot = keydir.findAscii(key);
      if (slot >= 0) return this.#vouched(slot, key);
      if (hasLoneSurrogate(key)) return false;
      if (!keydir.hasOther) return this.#absent(key) ?? false;
    }
    const id = keyId(key);
    const slot = keydir.find(id);
    return slot < 0 ? (this.#absent(id) ?? false) : this.#vouched(slot, id);
  }

  /** True, unless damage whose keys are unknown may hold a newer record of `id` (see `StoreState.unvouchedBefore`). */
  #vouched(slot: number, id: string): true {
    const state = this.#state;
    if (state.unvouchedBefore !== 0 && !state.vouchesFor(state.keydir.timestamp(slot)))
      throw state.unvouched(id);
    return true;
  }

  /** Live keys, in byte order, optionally only those with a prefix. Keys written during iteration may be missed. */
  async *keys(options: IterateOptions = {}): AsyncGenerator<Uint8Array> {
    for (const id of this.#matching(options, "keys")) {
      this.#checkOpen(); // closed meanwhile: an error, as entries() gives, not a listing cut short
      const slot = this.#state.keydir.find(id);
      if (slot >= 0 && this.#vouched(slot, id)) yield keyIdBytes(id);
    }
  }

  /** `[key, value]` pairs in key byte order, optionally only keys with a prefix. */
  async *entries(options: IterateOptions = {}): AsyncGenerator<[Uint8Array, Uint8Array]> {
    for (const id of this.#matching(options, "entries")) {
      this.#checkOpen();
      const slot = this.#state.keydir.find(id);
      if (slot >= 0) yield [keyIdBytes(id), this.#readValue(slot, id)];
    }
  }

  #matching(options: IterateOptions, what: string): string[] {
    checkOptionsObject(options, what);
    this.#checkOpen();
    return matchingIds(this.#state.keydir, options.prefix);
  }

  #readValue(slot: number, id: string): Uint8Array {
    this.#vouched(slot, id);
    return this.#values.read(this.#state, slot, id);
  }

  // ---------------------------------------------------------------- writes

  /** Stores `value` under `key`; resolves when it is as durable as the sync mode promises. */
  put(key: Bytes, value: Bytes): Promise<void> {
    try {
      // The ASCII check done once: it also tells the key directory which of its maps the key belongs in.
      const ascii = typeof key === "string" && isAscii(key);
      const id = ascii ? key : keyId(key);
      const v = toBytes(value, "value");
      if (v.length > MAX_VALUE_LENGTH) {
        throw new KvError(
          "ERR_KV_INVALID_ARG",
          `value is ${v.length} bytes; at most ${MAX_VALUE_LENGTH}`,
        );
      }
      this.#checkWritable();
      const isAsciiId = ascii || (typeof key !== "string" && isAscii(id));
      appendRecord(this.#state, this.#commit, this.#cache, id, v, isAsciiId);
      return this.#commit.durable(undefined);
    } catch (error) {
      return this.#commit.refused(error);
    }
  }

  /** Deletes `key` (appending a tombstone); resolves to whether it had a value, once durable. */
  delete(key: Bytes): Promise<boolean> {
    try {
      this.#checkWritable();
      const id = keyId(key);
      checkKeyLength(id);
      if (this.#state.keydir.find(id) < 0) return this.#commit.deleteOfMissing(id);
      appendRecord(this.#state, this.#commit, this.#cache, id, null, isAscii(id));
      const done = this.#commit.durable(true);
      this.#commit.deleted(id);
      return done;
    } catch (error) {
      return this.#commit.refused(error);
    }
  }

  /**
   * Rewrites every live record into new files and drops the old ones, while reads and writes go on.
   * Concurrent calls share one run. A crash at any point leaves a store that opens with all its data.
   */
  compact(options: { onProgress?: ProgressCallback } = {}): Promise<CompactionResult> {
    try {
      checkProgressOptions(options, "compact");
      this.#checkWritable();
    } catch (error) {
      return Promise.reject(error);
    }
    this.#compaction ??= this.#compactNow(options.onProgress).finally(() => {
      this.#compaction = null;
    });
    return this.#compaction;
  }

  async #compactNow(onProgress?: ProgressCallback): Promise<CompactionResult> {
    const result = await compactNow(this.#state, this.#commit, () => this.#closing, onProgress);
    this.#compactions++;
    return result;
  }

  // ---------------------------------------------------------------- inspection

  /** Counts of keys, files and bytes, and what open found. */
  stats(): StoreStats {
    this.#checkOpen();
    const state = this.#state;
    let liveBytes = 0;
    for (const [, slot] of state.keydir.entries()) liveBytes += state.keydir.recordSize(slot);
    const totalBytes = state.totalBytes();
    return {
      dir: this.dir,
      sync: this.sync,
      readOnly: this.readOnly,
      ...(state.readOnlyReason === undefined ? {} : { readOnlyReason: state.readOnlyReason }),
      keys: state.keydir.count,
      files: state.files.size,
      totalBytes,
      liveBytes,
      deadBytes: totalBytes - liveBytes,
      compactions: this.#compactions,
      recovery: [...state.recovery],
      lock: this.#lock.osLocked ? "os" : "process",
    };
  }

  /**
   * Reads every data file from start to end, checking each record's CRC, that every live key points at a valid
   * record, and that every hint file agrees with its data file. Reports progress in bytes.
   */
  verify(options: { onProgress?: ProgressCallback } = {}): Promise<VerifyReport> {
    try {
      checkProgressOptions(options, "verify");
      this.#checkOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    return verifyStore(this.#state, this.#reader, () => this.#checkOpen(), options.onProgress);
  }

  /**
   * Copies the store into `dest` (missing, or an empty directory) while it stays open: a consistent copy that opens
   * with every write acknowledged before the backup began. Waits for a running compaction first. A backup that
   * fails removes what it wrote; one cut short by a crash leaves a directory that refuses to open
   * (`ERR_KV_NO_STORE`, "is an incomplete backup").
   */
  async backup(dest: string): Promise<BackupResult> {
    this.#checkOpen();
    while (this.#compaction !== null) await this.#compaction.catch(() => undefined);
    this.#checkOpen();
    return backupStore(this.#state, dest, (error) => this.#commit.activeSyncFailed(error));
  }

  // ---------------------------------------------------------------- close

  /** Waits for pending writes, stops a running compaction, writes the active file's hint, and releases the lock. */
  close(): Promise<void> {
    // A second call while the first runs settles with it (once it has, the lock is free for a reopen); one after
    // it has settled resolves, as a call on a closed store always did.
    if (this.#closed && this.#closeCall === undefined) return Promise.resolve();
    this.#closeCall ??= this.#close().finally(() => {
      this.#closeCall = Promise.resolve();
    });
    return this.#closeCall;
  }

  async #close(): Promise<void> {
    this.#closing = true;
    try {
      if (this.#compaction) await this.#compaction.catch(() => undefined);
      await this.#commit.idle();
      sealActive(this.#state, this.#commit);
    } finally {
      this.#closed = true;
      this.#state.closeFiles();
      this.#commit.retired.closeAll();
      this.#lock.release();
    }
  }

  /** Closes the store when used with `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * After a failed write was cut back: the key directory loaded again, read-only, from the files as they are now
   * (what a reopen would show). The failed active file is left to group commit, which closes it once the fsyncs
   * running on it return. When the files cannot be read back, nothing this store could answer would be right, so
   * it closes.
   */
  #reload(failed: DataFile): void {
    const fresh = reload(this.#state, failed, this.#cutFailed);
    if (fresh !== null) this.#state = fresh;
    else {
      this.#closed = true;
      this.#lock.release();
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new KvError("ERR_KV_CLOSED", `store ${this.dir} is closed`, this.dir);
  }

  #checkWritable(): void {
    this.#checkOpen();
    if (this.#closing) throw new KvError("ERR_KV_CLOSED", `store ${this.dir} is closing`, this.dir);
    const reason = this.#state.readOnlyReason;
    if (reason !== undefined) {
      throw new KvError("ERR_KV_READ_ONLY", `store ${this.dir} is read-only: ${reason}`, this.dir);
    }
  }
}

/**
 * Opens (or creates) the store in `dir`. A writer takes an exclusive lock; `readOnly` opens take a shared one.
 *
 * @example
 * const db = await open("/tmp/my-store", { sync: "batch" });
 * await db.put("greeting", "hello");
 * console.log(await db.getString("greeting")); // hello
 * await db.close();
 */
export function open(dir: string, options: OpenOptions = {}): Promise<Store> {
  return Store.open(dir, options);
}
