import * as fs from "node:fs";
import * as path from "node:path";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { Acks, type AckValue } from "./acks";
import { type Bytes, hasLoneSurrogate, isAscii, keyId, keyIdBytes, toBytes, utf8 } from "./bytes";
import { clearDamaged, readDamaged, writeDamaged } from "./damage-file";
import { DataFile, readWholeFile, syncDirectory, writeFileAtomic } from "./data-file";
import { KvError } from "./errors";
import { dataFileName, hintFileName, inDir, LOCK_FILE, listStore, MARKER_FILE } from "./file-names";
import { hintMatches, hintMismatch } from "./hint-check";
import { decodeHint, encodeHint, type HintEntry, HintWriter } from "./hint-file";
import { KeyDirectory } from "./key-directory";
import { ListingChanged, LOAD_ATTEMPTS, listingChanged } from "./listing-changed";
import { markerFromFiles, readMarker, writeMarker } from "./marker";
import type { OpenOptions, ProgressCallback, SyncMode } from "./options";
import {
  checkRecord,
  decodeHeader,
  encodeRecordInto,
  HEADER_SIZE,
  MAX_KEY_LENGTH,
  MAX_VALUE_LENGTH,
  recordSize,
} from "./record";
import { type Damage, scanDataFile } from "./scan";
import { StoreLock } from "./store-lock";
import { copyOut, ValueCache } from "./value-cache";

/** Writes sharing one fsync (group commit): their promises, resolved together in issue order. */
interface SyncGroup {
  readonly acks: Acks;
  /** Its fsync finished (or one started after it did, or a seal's fsync covered it), or it failed. */
  settled: boolean;
  /** The data file its records are in (a rotation settles the group first: its records are never in two files). */
  readonly file: DataFile;
  /** Where its first record starts: a failure cuts the file back to here. */
  readonly from: number;
  /** Keys it deleted: a later delete of one of them wrote nothing, but its answer depends on this group. */
  deleted: Set<string> | null;
  /** Its writes were rejected (a failure). */
  failed: boolean;
}

/**
 * fdatasyncs that may run at once. Two: a group gathered while one runs need not wait for it to finish. Not more,
 * and a group is never split to start its fsync early: each fdatasync costs the CPU tens of microseconds in the
 * kernel, and on ext4 one started while another runs waits for that one's journal commit anyway, so fewer, larger
 * groups won (with 256 writes in flight: 3 at once and groups split at 64 loaded 165k to 180k records/s on one
 * pinned core, 2 at once and unsplit groups 225k to 235k).
 */
const MAX_SYNCS = 2;

/** Damage found on open, and what was done about it. */
export interface RecoveryIssue {
  /** The data file's name. */
  readonly file: string;
  readonly offset: number;
  readonly kind: Damage["kind"];
  /** `truncated`: a torn tail cut off; `ignored`: left in place (read-only); `skipped`: records dropped (repair). */
  readonly action: "truncated" | "ignored" | "skipped";
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

const DEFAULT_MAX_FILE = 64 * 1024 * 1024;
const DEFAULT_CACHE = 16 * 1024 * 1024;

/**
 * An open rafkv store: a Bitcask-style log-structured key-value store in one directory. Create one with {@link open}.
 *
 * Writes append records to the active data file; an in-memory key directory maps each key to its newest record;
 * reads are one positional read each. See the package README for the file format and the durability argument.
 */
export class Store {
  /** The store directory (a real path). */
  readonly dir: string;
  /** When writes reach the disk. */
  readonly sync: SyncMode;
  readonly #maxFileSize: number;
  readonly #lock: StoreLock;
  readonly #files = new Map<number, DataFile>();
  /** Each key's newest record, and its value's read-cache handle (values in the cache were checked against their CRC when read, or are the bytes just written). */
  readonly #keydir = new KeyDirectory();
  readonly #recovery: RecoveryIssue[] = [];
  #readOnlyReason: string | undefined;
  #active: DataFile | null = null;
  #activeId = 0;
  #activeHints = new HintWriter();
  #nextId = 1;
  #lastTs = 0;
  #closed = false;
  #closing = false;
  #compaction: Promise<CompactionResult> | null = null;
  #compactions = 0;
  #scratch = new Uint8Array(4096);
  /** The group gathering for the next fsync: every write in it shares one promise. */
  #group: SyncGroup | null = null;
  /** Groups whose fsync is running, in the order their fsyncs started. */
  #syncing: SyncGroup[] = [];
  #syncScheduled = false;
  #flushScheduled = false;
  /** Writes resolved at once since the last one that waited for a turn (see {@link Store.#settled}). */
  #sinceTurn = 0;
  /** The writes waiting for the next turn, while one is pending. */
  #turn: Acks | null = null;
  #idle: (() => void) | null = null;
  readonly #cache: ValueCache;
  /** Opened read-only: another process may be writing (a backend without OS locks). */
  readonly #reader: boolean;
  /** Ids of data files found missing under their hints on open (see {@link Store.#lostDataFiles}). */
  #lost: number[] = [];
  /** Where the newest record appended starts (in the active file). */
  #lastAppendAt = 0;
  /** The active file a failed write took out of service, kept open until the fsyncs running on it return. */
  #failedActive: DataFile | null = null;
  /** Compaction inputs deleted while a group's fdatasync ran on them: closed when the last one returns. */
  readonly #closeLater = new Set<DataFile>();
  /** A data file whose cut back after a failed write failed: the reloads read it only up to `end`. */
  #cutFailed: { path: string; end: number } | null = null;

  private constructor(dir: string, lock: StoreLock, options: OpenOptions, cache: ValueCache) {
    this.dir = dir;
    this.#lock = lock;
    this.sync = options.sync ?? "always";
    this.#maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE;
    this.#cache = cache;
    this.#reader = options.readOnly ?? false;
    if (this.#reader) this.#readOnlyReason = "opened read-only";
  }

  /** @internal use {@link open}. */
  static async open(dir: string, options: OpenOptions = {}): Promise<Store> {
    if (options.sync !== undefined && !["always", "batch", "never"].includes(options.sync)) {
      throw new KvError("ERR_KV_INVALID_ARG", `sync must be "always", "batch" or "never"`);
    }
    const { maxFileSize, cacheSize } = options;
    if (maxFileSize !== undefined && !(Number.isSafeInteger(maxFileSize) && maxFileSize > 0)) {
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        `maxFileSize must be a positive integer (bytes), got ${String(maxFileSize)}`,
      );
    }
    if (
      cacheSize !== undefined &&
      !(typeof cacheSize === "number" && cacheSize >= 0 && cacheSize < Infinity)
    ) {
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        `cacheSize must be a number of bytes, 0 or more, got ${String(cacheSize)}`,
      );
    }
    const readOnly = options.readOnly ?? false;
    if (readOnly && options.repair) {
      throw new KvError("ERR_KV_INVALID_ARG", "repair needs a writable open (readOnly: false)");
    }
    const create = !readOnly && (options.create ?? true);
    const real = ensureDirectory(dir, create);
    if (!isStore(real)) {
      // Nothing is created where a store was expected, nor among another program's files (a LevelDB directory,
      // say); a read-only open would otherwise leave a LOCK file in any directory it is pointed at.
      const why = !create
        ? "is not a rafkv store (it has no data files)"
        : hasForeignFiles(real)
          ? "is not empty and holds no rafkv store"
          : undefined;
      if (why !== undefined) throw new KvError("ERR_KV_NO_STORE", `${real} ${why}`, real);
    }
    const lock = StoreLock.acquire(real, readOnly);
    // One cache for every attempt: a failed load put nothing in it (loads read no values), and it is the one large
    // allocation of an open (16 MiB by default).
    const cache = new ValueCache(options.cacheSize ?? DEFAULT_CACHE);
    let store: Store;
    for (let attempt = 1; ; attempt++) {
      store = new Store(real, lock, options, cache);
      try {
        store.#load(options.repair ?? false);
        break;
      } catch (error) {
        store.#closeFiles();
        // A read-only open of a live store (a writer without OS locks) whose listing a compaction changed: a
        // fresh listing is consistent again. A writer owns the directory, so its errors are real.
        const stale = readOnly && listingChanged(error, real);
        if (stale && attempt < LOAD_ATTEMPTS) {
          await sleep(attempt); // lets the writer finish deleting the compaction's inputs
          continue;
        }
        lock.release();
        if (!stale) throw error;
        throw new KvError(
          "ERR_KV_BUSY",
          `store ${real} kept changing under a read-only open (a writer compacting): ${LOAD_ATTEMPTS} attempts; try again`,
          real,
          { cause: error },
        );
      }
    }
    if (options.repair && store.#recovery.some((r) => r.kind === "corrupt")) {
      try {
        await store.compact();
        clearDamaged(real);
        store.#removeLostHints();
      } catch (error) {
        await store.close();
        throw error;
      }
    }
    return store;
  }

  /** True when writes are refused (see {@link StoreStats.readOnlyReason}). */
  get readOnly(): boolean {
    return this.#readOnlyReason !== undefined;
  }

  /** Damage found on open, and what was done about it. */
  get recovery(): readonly RecoveryIssue[] {
    return this.#recovery;
  }

  // ---------------------------------------------------------------- open

  #load(repair: boolean): void {
    const writable = this.#readOnlyReason === undefined;
    let firstLive: number;
    let markerDamaged = false;
    try {
      firstLive = readMarker(this.dir);
    } catch (error) {
      if (!repair) throw error;
      firstLive = markerFromFiles(this.dir, error);
      markerDamaged = true;
      // Written at once: the files this repair makes next (an active file, its compaction's outputs) would keep
      // a repair killed before its commit from deciding again.
      writeMarker(this.dir, firstLive);
    }
    const listing = listStore(this.dir);
    const ids = listing.dataIds.filter((id) => id >= firstLive);
    const live = new Set(ids);
    const lost = this.#lostDataFiles(listing, firstLive, live, writable);
    // A reader of a live store: a compaction committed during the listing may have renamed its outputs after
    // readdir passed their names, or deleted inputs the old marker counts on. Files it deletes later fail to open.
    if (!writable && readMarker(this.dir) !== firstLive) throw new ListingChanged();
    if (writable) this.#removeLeftovers(listing, firstLive, live, new Set(lost));
    if (writable) this.#removeEmpty(ids, listing.hintIds);
    const lastId = ids.at(-1);
    // Above a lost file's id too: a new data file must never pair with its hint.
    this.#nextId = Math.max(firstLive, (lastId ?? 0) + 1, (lost.at(-1) ?? 0) + 1, 1);
    const tombs = new Map<string, number>();
    const torn: { file: DataFile; offset: number; id: number }[] = [];
    const zeroTails: DataFile[] = [];
    let corrupt = false;
    const damageIn = (file: string, offset: number, bytes: number) => {
      corrupt = true;
      if (this.#recovery.some((r) => r.file === file && r.offset === offset)) return; // seen twice
      const action = repair && writable ? "skipped" : "ignored";
      this.#recovery.push({ file, offset, kind: "corrupt", action, bytes });
    };
    const damage = (id: number, offset: number, bytes: number) =>
      damageIn(dataFileName(id), offset, bytes);
    // Found by reads in an earlier session (see Store.#foundCorrupt).
    for (const d of readDamaged(this.dir)) damageIn(d.file, d.offset, d.bytes);
    // Only a repair gets here: its compaction writes a new marker.
    if (markerDamaged) damageIn(MARKER_FILE, 0, 16);
    for (const id of lost) {
      // A data file gone from under its hint: its records are lost. Their keys go (as a repair drops hinted
      // records it cannot find) rather than let an older value of theirs answer; the hint stays as the evidence.
      const hint = decodeHint(readWholeFile(inDir(this.dir, hintFileName(id))));
      if (hint) for (const h of hint.entries) this.#index({ ...h, valueLength: -1 }, id, tombs);
      damage(id, 0, hint?.coveredLength ?? 0);
    }
    this.#lost = lost;
    // A reader opens every file before it scans any: a live writer's compaction may delete them (the reader then
    // loads again), and the shorter the time from listing to the last open, the rarer that is. Once open, a file
    // stays readable even when deleted. A writer owns the directory: it reads each hint when its turn comes, so at
    // most one hint's bytes are held at a time.
    const readHintBytes = (id: number) =>
      listing.hintIds.has(id) ? readWholeFile(inDir(this.dir, hintFileName(id))) : null;
    const snapshot = ids.map((id) => {
      // The hint before the data file's size: a writer that seals the file in between (a read-only open of a live
      // store) wrote the hint after the bytes it covers, so the size taken next is at least its coverage.
      // Its bytes, decoded only when its turn comes: entry objects of every hint at once would take far more memory.
      const hintBytes = writable ? null : readHintBytes(id);
      const mode = writable && id === lastId ? "rw" : "r";
      const file = DataFile.open(inDir(this.dir, dataFileName(id)), mode);
      this.#files.set(id, file);
      const cut = this.#cutFailed;
      if (cut !== null && cut.path === file.path && cut.end < file.size)
        file.setContentEnd(cut.end);
      return { id, file, hintBytes };
    });
    for (const entry of snapshot) {
      const { id, file } = entry;
      const hintPath = inDir(this.dir, hintFileName(id));
      const bytes = writable ? readHintBytes(id) : entry.hintBytes;
      entry.hintBytes = null; // read once: let it go with the entries decoded from it
      const hasHint = bytes !== null;
      const hint = bytes && decodeHint(bytes);
      const collect = id === lastId && writable ? this.#activeHints : null;
      const apply = (h: HintEntry) => {
        this.#index(h, id, tombs);
        collect?.add(h.id, h.timestamp, h.valueLength, h.offset);
      };
      let from = 0;
      // A damaged hint is derived data gone bad: the data file is scanned instead, and a writer deletes it.
      let stale = hasHint && hint === null;
      // Repair reads every record (damage inside a hinted file shows only when its bytes are read), and compares
      // what it read with the hint.
      const seen: HintEntry[] | null = repair && hint ? [] : null;
      if (hint && hint.coveredLength > file.size) {
        // A hint is written only after the bytes it covers were synced: the data file lost some since.
        damage(id, file.size, hint.coveredLength - file.size);
      }
      if (hint && !repair) {
        // The hint says what was written: the key directory follows it even where the data disagrees, so that a
        // read of a damaged record fails its check instead of returning an older value.
        const bad = hintMismatch(file, hint.entries);
        if (bad >= 0) damage(id, bad, 0);
        for (const h of hint.entries) apply(h);
        from = Math.min(hint.coveredLength, file.size);
      }
      const result = scanDataFile(file, from, (header, key, offset) => {
        const h = { id: key, timestamp: header.timestamp, valueLength: header.valueLength, offset };
        seen?.push(h);
        apply(h);
      });
      const coverage = hint?.coveredLength ?? 0;
      if (hint && seen) {
        // Repair: the hinted records the scan did not find were damaged. Their keys go (rather than show an older
        // value), and the hint, which no longer describes the file, with them.
        const found = new Set(seen.map((h) => h.offset));
        for (const h of hint.entries) {
          if (found.has(h.offset)) continue;
          stale = true;
          damage(id, h.offset, recordSize(h.id.length, h.valueLength));
          apply({ id: h.id, timestamp: h.timestamp, valueLength: -1, offset: h.offset });
        }
        if (!stale && !hintMatches(hint.entries, seen)) {
          stale = true;
          // A hint that disagrees with records that are intact: the repair's compaction rewrites the file anyway.
          damageIn(hintFileName(id), 0, 0);
        }
      }
      // Not during a repair: until its compaction commits, a crash must leave the damage as it found it, and the
      // commit deletes the inputs' hints with them.
      if (stale && writable && !repair) {
        fs.rmSync(hintPath, { force: true });
        syncDirectory(this.dir);
      }
      // A zero tail: zeros written ahead of the appends (a writer killed or still running), not damage.
      if (result.zeroTail > 0) file.setContentEnd(file.size - result.zeroTail);
      const tornTail = result.damage.some((d) => d.kind === "torn-tail"); // cut at the torn tail, zeros and all
      if (result.zeroTail > 0 && !tornTail && writable) zeroTails.push(file);
      for (const d of result.damage) {
        // A "torn tail" inside what a hint covers is damage: those bytes had been fsynced (only repair scans there).
        if (d.kind === "torn-tail" && d.offset >= coverage) {
          torn.push({ file, offset: d.offset, id });
          continue;
        }
        // Not the key of a damaged record, though its header may still read: its timestamp cannot be trusted (one
        // raised by the damage would shadow the key's newer records and push the store's clock), and a torn tail
        // whose value holds record-like bytes looks the same.
        damage(id, d.offset, (d.resumeAt ?? file.size) - d.offset);
      }
    }
    if (corrupt && !repair && writable) {
      const first = this.#recovery.find((r) => r.kind === "corrupt")!;
      this.#readOnlyReason =
        lost.length > 0
          ? `data file ${dataFileName(lost[0]!)} is missing, its hint file remains (open with repair to drop its keys)`
          : `corrupt record in ${first.file} at offset ${first.offset} (open with repair to drop it)`;
    }
    const cut = this.#readOnlyReason === undefined;
    // Cut like a torn tail (below, which cuts the zeros after it too), but not reported: the file's clean end.
    // Not only the newest file's: a crash after a compaction renamed its outputs leaves the active file it wrote
    // to below them.
    if (cut) for (const file of zeroTails) cutTail(file, file.size);
    for (const t of torn) {
      const bytes = t.file.size - t.offset;
      if (cut) cutTail(t.file, t.offset);
      this.#recovery.push({
        file: dataFileName(t.id),
        offset: t.offset,
        kind: "torn-tail",
        action: cut ? "truncated" : "ignored",
        bytes,
      });
    }
    if (this.#readOnlyReason !== undefined) return;
    const last = lastId === undefined ? undefined : this.#files.get(lastId);
    if (last && lastId !== undefined && !corrupt && last.size < this.#maxFileSize) {
      this.#active = last;
      this.#activeId = lastId;
    } else {
      this.#activeHints = new HintWriter();
      this.#startActiveFile();
    }
  }

  /**
   * Hint files at or above the marker whose data file is gone: lost data. Not one whose data file is still
   * `N.data.tmp`: a compaction renames an output's hint into place just before its data file, so a crash between
   * the two leaves that pair (an uncommitted output, a leftover).
   */
  #lostDataFiles(
    listing: ReturnType<typeof listStore>,
    firstLive: number,
    live: Set<number>,
    writable: boolean,
  ): number[] {
    const lost: number[] = [];
    for (const id of [...listing.hintIds].sort((a, b) => a - b)) {
      if (id < firstLive || live.has(id)) continue;
      const name = dataFileName(id);
      if (listing.temps.includes(`${name}.tmp`)) continue;
      // A reader of a live store: readdir may have missed an output renamed while it ran, or a failed compaction
      // may have just removed its output (hint first, then the data file). Either way a fresh listing differs.
      const exists = (n: string) => fs.existsSync(inDir(this.dir, n));
      if (!writable && (exists(name) || exists(`${name}.tmp`) || !exists(hintFileName(id)))) {
        throw new ListingChanged();
      }
      lost.push(id);
    }
    return lost;
  }

  /**
   * Deletes what a crash may have left: obsolete files of a committed compaction, temp files, orphan hints (not
   * those of `lost` data files: they are the evidence).
   */
  #removeLeftovers(
    listing: ReturnType<typeof listStore>,
    firstLive: number,
    live: Set<number>,
    lost: Set<number>,
  ): void {
    // Orphan hints first, and durably: an uncommitted output's hint must not outlive its `.tmp` data file, or the
    // next open would take it for lost data.
    const hints: string[] = [];
    for (const id of listing.hintIds)
      if (!live.has(id) && !lost.has(id)) hints.push(hintFileName(id));
    for (const name of hints) fs.rmSync(inDir(this.dir, name), { force: true });
    if (hints.length > 0) syncDirectory(this.dir);
    const doomed: string[] = [...listing.temps];
    for (const id of listing.dataIds) if (id < firstLive) doomed.push(dataFileName(id));
    // Ascending ids: harmless in any order, since the marker already made them all obsolete.
    for (const name of doomed) fs.rmSync(inDir(this.dir, name), { force: true });
    if (doomed.length > 0) syncDirectory(this.dir);
  }

  /** After a repair's compaction committed: the hints of lost data files are below its marker, and go. */
  #removeLostHints(): void {
    for (const id of this.#lost) fs.rmSync(inDir(this.dir, hintFileName(id)), { force: true });
    if (this.#lost.length > 0) syncDirectory(this.dir);
    this.#lost = [];
  }

  /**
   * Drops empty data files other than the newest (a compaction's sealed-empty active file, say). Not one with a
   * hint: a hint covering bytes the file no longer has is evidence of lost data, which the open reports.
   */
  #removeEmpty(ids: number[], hinted: Set<number>): void {
    for (let i = ids.length - 2; i >= 0; i--) {
      if (hinted.has(ids[i]!)) continue;
      const name = inDir(this.dir, dataFileName(ids[i]!));
      if (fs.statSync(name).size === 0) {
        fs.rmSync(name);
        fs.rmSync(inDir(this.dir, hintFileName(ids[i]!)), { force: true });
        ids.splice(i, 1);
      }
    }
  }

  /** Applies one record to the key directory during open: the larger timestamp wins; tombstones shadow. */
  #index(h: HintEntry, file: number, tombs: Map<string, number>): void {
    if (h.timestamp > this.#lastTs) this.#lastTs = h.timestamp;
    const prev = this.#keydir.find(h.id);
    if (h.valueLength < 0) {
      if (prev >= 0 && this.#keydir.timestamp(prev) < h.timestamp) this.#keydir.delete(h.id);
      if ((tombs.get(h.id) ?? -1) < h.timestamp) tombs.set(h.id, h.timestamp);
      return;
    }
    if (prev >= 0 && this.#keydir.timestamp(prev) >= h.timestamp) return;
    if ((tombs.get(h.id) ?? -1) > h.timestamp) return;
    this.#keydir.set(h.id, file, h.offset, recordSize(h.id.length, h.valueLength), h.timestamp, -1);
  }

  #startActiveFile(): void {
    const id = this.#nextId++;
    const file = DataFile.open(inDir(this.dir, dataFileName(id)), "rw");
    this.#files.set(id, file);
    this.#active = file;
    this.#activeId = id;
    this.#activeHints = new HintWriter();
    syncDirectory(this.dir);
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
    const keydir = this.#keydir;
    if (typeof key === "string") {
      // The common case in one lookup: an ASCII string key is its own id.
      const slot = keydir.findAscii(key);
      if (slot >= 0) return this.#readValue(slot, key);
      // Not a key any put could store (see keyId): not one to look up as its U+FFFD spelling either.
      if (!keydir.hasOther || hasLoneSurrogate(key)) return undefined;
    }
    const id = keyId(key);
    const slot = keydir.find(id);
    return slot < 0 ? undefined : this.#readValue(slot, id);
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
    if (typeof key === "string") {
      if (this.#keydir.findAscii(key) >= 0) return true;
      if (!this.#keydir.hasOther || hasLoneSurrogate(key)) return false;
    }
    return this.#keydir.find(keyId(key)) >= 0;
  }

  /** Live keys, in byte order, optionally only those with a prefix. Keys written during iteration may be missed. */
  async *keys(options: IterateOptions = {}): AsyncGenerator<Uint8Array> {
    for (const id of this.#matching(options)) {
      if (this.#keydir.find(id) >= 0) yield keyIdBytes(id);
    }
  }

  /** `[key, value]` pairs in key byte order, optionally only keys with a prefix. */
  async *entries(options: IterateOptions = {}): AsyncGenerator<[Uint8Array, Uint8Array]> {
    for (const id of this.#matching(options)) {
      this.#checkOpen();
      const slot = this.#keydir.find(id);
      if (slot >= 0) yield [keyIdBytes(id), this.#readValue(slot, id)];
    }
  }

  #matching(options: IterateOptions): string[] {
    this.#checkOpen();
    const wanted = options.prefix;
    if (typeof wanted === "string" && hasLoneSurrogate(wanted)) return []; // no stored key starts so
    const prefix = wanted === undefined ? "" : keyId(wanted);
    const ids: string[] = [];
    for (const id of this.#keydir.ids()) if (id.startsWith(prefix)) ids.push(id);
    return ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  #readValue(slot: number, id: string): Uint8Array {
    const keydir = this.#keydir;
    const size = keydir.recordSize(slot);
    const handle = keydir.cache(slot);
    if (this.#cache.has(handle)) {
      return this.#cache.copyOut(handle, size - HEADER_SIZE - id.length);
    }
    const fileId = keydir.file(slot);
    const offset = keydir.offset(slot);
    const file = this.#files.get(fileId)!;
    // A record past the file's end: the file lost bytes its hint covers (the store is read-only then).
    if (offset + size > file.size) throw this.#foundCorrupt(id, fileId, offset, size, "");
    const buf = size <= this.#scratch.length ? this.#scratch : new Uint8Array(size);
    file.readAt(offset, buf, 0, size);
    const header = decodeHeader(buf, 0);
    if (!header || header.timestamp !== keydir.timestamp(slot) || !checkRecord(buf, 0, size)) {
      throw this.#foundCorrupt(id, fileId, offset, size, "");
    }
    const start = HEADER_SIZE + header.keyLength;
    keydir.setCache(slot, this.#cache.add(buf, start, size));
    return copyOut(buf, start, size);
  }

  /**
   * A record that failed its check when read (damage a hint file hid at open): reported in {@link Store.recovery}
   * and, as damage found at open would, it makes the store read-only until it is opened with `repair`.
   */
  #foundCorrupt(id: string, fileId: number, offset: number, size: number, what: string): KvError {
    const file = dataFileName(fileId);
    if (!this.#recovery.some((r) => r.file === file && r.offset === offset)) {
      this.#recovery.push({ file, offset, kind: "corrupt", action: "ignored", bytes: size });
      // A writer records it, so that the next open is read-only too until a repair.
      if (this.#active !== null) {
        try {
          writeDamaged(
            this.dir,
            this.#recovery.filter((r) => r.kind === "corrupt" && r.action === "ignored"),
          );
        } catch {
          // The read's error is the one to report; the store is read-only in this session either way.
        }
      }
    }
    this.#readOnlyReason ??= `corrupt record in ${file} at offset ${offset} (open with repair to drop it)`;
    return new KvError(
      "ERR_KV_CORRUPT",
      `record of key ${JSON.stringify(id)} in ${file} at offset ${offset} is corrupt${what}; the store is read-only until it is opened with repair`,
      this.#files.get(fileId)?.path ?? this.dir,
    );
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
      this.#append(id, v, ascii || (typeof key !== "string" && isAscii(id)));
      return this.#durable(undefined);
    } catch (error) {
      return this.#refused(error);
    }
  }

  /** Deletes `key` (appending a tombstone); resolves to whether it had a value, once durable. */
  delete(key: Bytes): Promise<boolean> {
    try {
      this.#checkWritable();
      const id = keyId(key);
      checkKeyLength(id);
      if (this.#keydir.find(id) < 0) {
        // Nothing to write, but acknowledged after the writes issued before it, as every write is. Not rejected
        // when their fsync fails (a no-op has nothing to lose), unless the key is missing because of a delete
        // still waiting for its fsync: then its answer stands or falls with that delete.
        const pending = this.#pendingAcks();
        if (pending === null) return Promise.resolve(false);
        const deleter = this.#pendingDelete(id);
        if (deleter === null) return pending.addNoop(false);
        // In the group it joins, it shares that group's fate; in an earlier one, that one's (settled before it).
        return deleter.acks === pending
          ? pending.add(false)
          : pending.addNoop(false, () => deleter.failed);
      }
      this.#append(id, null, isAscii(id));
      const done = this.#durable(true);
      const group = this.#group;
      if (group !== null) (group.deleted ??= new Set()).add(id);
      return done;
    } catch (error) {
      return this.#refused(error);
    }
  }

  /** Appends a record for the key whose key directory id is `id` (its bytes as latin1). */
  #append(id: string, value: Uint8Array | null, ascii: boolean): void {
    this.#checkWritable();
    checkKeyLength(id);
    const now = Date.now() * 1000;
    const ts = (this.#lastTs = now > this.#lastTs ? now : this.#lastTs + 1);
    const size = recordSize(id.length, value === null ? 0 : value.length);
    let active = this.#active!;
    if (active.size > 0 && active.size + size > this.#maxFileSize) {
      this.#rotate();
      active = this.#active!;
    }
    // Encoded straight into the file's append buffer: no record is allocated. `reserve` first: for a record
    // larger than the buffer it swaps in a bigger one.
    let at: number;
    try {
      at = active.reserve(size);
    } catch (error) {
      // Its flush of the full buffer failed: the appends waiting in it, and the groups waiting for an fsync, fail
      // with it, first (they were issued before this write), and the store stops, as when their fsync fails.
      this.#failPending(error, active);
      throw error;
    }
    encodeRecordInto(active.buffer, at, ts, id, value);
    const offset = active.commit(size);
    this.#lastAppendAt = offset;
    if (value === null) this.#keydir.delete(id);
    else {
      // The value is copied into the cache: the caller may reuse its buffer once put returns.
      const cache = this.#cache.add(value, 0, value.length);
      this.#keydir.set(id, this.#activeId, offset, size, ts, cache, ascii);
    }
    this.#activeHints.add(id, ts, value === null ? -1 : value.length, offset);
  }

  /** The promise of a write just appended, resolving to `value` once durable, after those of earlier writes. */
  #durable<T extends AckValue>(value: T): Promise<T> {
    if (this.sync === "always") {
      const active = this.#active!;
      try {
        active.datasync();
      } catch (error) {
        this.#writeFailed(error, active, this.#lastAppendAt, null);
        throw error;
      }
      this.#preallocate(active);
      return this.#settled(value);
    }
    if (this.sync === "batch") {
      let group = this.#group;
      if (group === null) {
        group = this.#group = {
          acks: new Acks(),
          settled: false,
          file: this.#active!,
          from: this.#lastAppendAt,
          deleted: null,
          failed: false,
        };
        // Started at the end of this event-loop turn, not now, so that the writes of the turn share it.
        this.#scheduleGroupSync();
      }
      return group.acks.add(value);
    }
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        const active = this.#active;
        if (this.#closed || active === null) return;
        try {
          active.flush();
        } catch (error) {
          // Acknowledged already (never promises no durability), but nothing may write them later behind the
          // store's back: the store stops taking writes, as it does when an fsync fails.
          this.#writeFailed(error, active, active.flushedEnd, null);
        }
      });
    }
    return this.#settled(value);
  }

  /**
   * The promise of a write that failed or was refused: rejected after the writes before it that wait for a turn
   * (see {@link Store.#settled}), whose promises resolve a turn later; a put whose fsync failed meanwhile would
   * otherwise reject before them.
   */
  #refused(error: unknown): Promise<never> {
    const turn = this.#turn;
    return turn === null ? Promise.reject(error) : turn.addError(error);
  }

  /** The promises of the newest writes not yet acknowledged, or null when every write was. */
  #pendingAcks(): Acks | null {
    if (this.#turn !== null) return this.#turn;
    if (this.#group !== null) return this.#group.acks;
    const last = this.#syncing.at(-1);
    return last !== undefined && !last.settled ? last.acks : null;
  }

  /**
   * The promise of a write that is durable already (`always`, `never`). While a compaction runs, every so many of
   * them resolve a turn later instead: a writer awaiting each put in a loop never leaves the microtask queue
   * otherwise, and the compaction, which goes on in later turns, would wait for it to stop.
   */
  #settled<T extends AckValue>(value: T): Promise<T> {
    // Writes after one that waits wait for the same turn: acknowledgements stay in write order.
    if (this.#turn !== null) return this.#turn.add(value);
    if (this.#compaction === null) return Promise.resolve(value);
    if (++this.#sinceTurn < (this.sync === "always" ? 8 : 256)) return Promise.resolve(value);
    this.#sinceTurn = 0;
    const turn = new Acks();
    this.#turn = turn;
    setImmediate(() => {
      this.#turn = null;
      turn.resolve();
    });
    return turn.add(value);
  }

  #scheduleGroupSync(): void {
    if (this.#syncScheduled) return;
    this.#syncScheduled = true;
    setImmediate(() => {
      this.#syncScheduled = false;
      if (this.#group !== null && this.#syncing.length < MAX_SYNCS && !this.#closed) {
        this.#groupSync();
      }
    });
  }

  /**
   * Group commit: an `fdatasync` covers every write made before it started (the flush before it hands them all to
   * the OS), so each group resolves when its own fsync, or any fsync started after it, has finished. Up to
   * {@link MAX_SYNCS} run at once; writes made meanwhile form the next group.
   */
  #groupSync(): void {
    const group = this.#group!;
    this.#group = null;
    this.#syncing.push(group);
    let done: Promise<void>;
    const active = this.#active!;
    try {
      done = active.datasyncAsync();
    } catch (error) {
      done = Promise.reject(error);
    }
    // While the fdatasync runs on its worker thread, and the writes of this group wait for it.
    this.#preallocate(active);
    done.then(
      () => {
        // Every group whose fsync started before this one's is covered by it too.
        for (const g of this.#syncing) {
          if (!g.settled) {
            g.settled = true;
            g.acks.resolve();
          }
          if (g === group) break;
        }
        this.#syncDone(group);
      },
      (error: unknown) => {
        // The groups whose fsync started earlier and still runs fail with it, first: the kernel reports a writeback
        // error to one fsync of the descriptor only, so their success, coming later, would prove nothing (and a
        // later write would settle before an earlier one).
        if (!group.settled) this.#failPending(error, group.file);
        // Acknowledged already, by an fsync started after this one that returned first: that success proves
        // nothing either. Too late to undo these writes, but the store stops all the same, and undoes those not
        // yet acknowledged.
        else this.#activeSyncFailed(error);
        this.#syncDone(group);
      },
    );
  }

  /**
   * Writes zeros ahead of the active file's appends when they get near the end of those already written (see
   * {@link DataFile.preallocate}), up to the file size that seals it. Only for `always` and `batch`, whose
   * fdatasyncs it makes cheaper. It is an optimisation: a failure (ENOSPC, say) is left for the appends to report.
   */
  #preallocate(file: DataFile): void {
    try {
      file.preallocate(this.#maxFileSize);
    } catch {
      // The appends report their own errors; the zeros are only ever ahead of them.
    }
  }

  #syncDone(group: SyncGroup): void {
    this.#syncing.splice(this.#syncing.indexOf(group), 1);
    for (const file of this.#closeLater) {
      if (this.#syncing.some((g) => g.file === file)) continue;
      this.#closeLater.delete(file);
      closeQuietly(file);
    }
    if (this.#syncing.length === 0 && this.#failedActive !== null) {
      closeQuietly(this.#failedActive);
      this.#failedActive = null;
    }
    if (this.#group !== null) this.#scheduleGroupSync();
    else if (this.#syncing.length === 0) this.#idle?.();
  }

  /** Where the first write in `file` not yet acknowledged starts (its end when every write there was). */
  #pendingFrom(file: DataFile): number {
    let from = file.flushedEnd; // under never, the appends not yet handed to the OS
    for (const g of this.#syncing) if (!g.settled && g.file === file) from = Math.min(from, g.from);
    const group = this.#group;
    if (group !== null && group.file === file) from = Math.min(from, group.from);
    return from;
  }

  /**
   * An fsync of the active file failed outside a group's own path (a late one whose group was acknowledged, a
   * compaction's, close's seal): {@link Store.#writeFailed} for every write not yet acknowledged. A no-op when an
   * earlier failure took the active file out of service already.
   */
  #activeSyncFailed(error: unknown): void {
    const active = this.#active;
    if (active === null) return;
    this.#failPending(error, active);
  }

  /** {@link Store.#writeFailed} for every write in `file` not yet acknowledged, from the first of them. */
  #failPending(error: unknown, file: DataFile): void {
    this.#writeFailed(
      error,
      file,
      this.#pendingFrom(file),
      this.#syncing.find((g) => !g.settled) ?? null,
    );
  }

  /** The group of the newest delete of `id` still waiting for its fsync, or null. */
  #pendingDelete(id: string): SyncGroup | null {
    const group = this.#group;
    if (group?.deleted?.has(id)) return group;
    for (let i = this.#syncing.length - 1; i >= 0; i--) {
      const g = this.#syncing[i]!;
      if (!g.settled && g.deleted?.has(id)) return g;
    }
    return null;
  }

  /**
   * Every write so far is durable (a seal's or a compaction's fsync of the active file just returned): their
   * groups resolve now, in order. Nothing may cut them back after that: a compaction's commit counts on them.
   */
  #settleAll(): void {
    for (const g of this.#syncing) {
      if (!g.settled) {
        g.settled = true;
        g.acks.resolve();
      }
    }
    const group = this.#group;
    if (group !== null) {
      this.#group = null;
      group.settled = true;
      group.acks.resolve();
    }
  }

  /**
   * A write or fsync of the active file failed (EIO, ENOSPC, EFBIG...) for the writes from `from` on: the first
   * write of `group` (the first group not yet acknowledged, see {@link Store.#failPending}) or, without a group,
   * the write that failed. Like LevelDB after a failed log write, the
   * store takes no more writes: after a failed fsync the kernel may have dropped the pages, and a later fsync that
   * succeeds would not say so. No effect of the failed writes is left: the file is cut back to `from` (the
   * appends not yet written are dropped), the key directory is loaded again from the files (what a reopen would
   * show), and every write not yet acknowledged rejects with `error`, in issue order (deletes of missing keys
   * that depend on none of them resolve `false`).
   */
  #writeFailed(error: unknown, file: DataFile, from: number, group: SyncGroup | null): void {
    const message = error instanceof Error ? error.message : String(error);
    this.#readOnlyReason ??= `a write failed (${message}); the writes not acknowledged were rejected and undone: reopen the store to write again`;
    const rejected: Acks[] = [];
    if (group !== null) {
      for (const g of this.#syncing.slice(this.#syncing.indexOf(group))) {
        if (g.settled) continue;
        g.settled = g.failed = true;
        rejected.push(g.acks);
      }
    }
    const gathering = this.#group;
    if (gathering !== null) {
      this.#group = null;
      gathering.settled = gathering.failed = true;
      rejected.push(gathering.acks);
    }
    try {
      file.cutBack(from);
    } catch {
      // Neither cut nor zeroed (see DataFile.cutBack): the failed writes are still in the file. The store is
      // read-only either way, and its reload reads the file only up to the cut point; a reopen would find them.
      this.#cutFailed = { path: file.path, end: file.size };
    }
    // The active file, or the one an earlier failure took out of service (a group that started its fsync before
    // the failed one, failing after it, cuts the file further back). Not into a store that closed meanwhile (a
    // reload that could not read the files back closes it): what it loaded would never be closed.
    if (!this.#closed && (file === this.#active || file === this.#failedActive)) this.#reload(file);
    for (const acks of rejected) acks.reject(error);
  }

  /**
   * Loads the key directory again, read-only, from the files as they are now (after a failed write was cut back).
   * The active file stays open until the fsyncs running on it return: closing it could let a new file take its
   * descriptor number under them.
   */
  #reload(failed: DataFile): void {
    const seen = [...this.#recovery];
    if (this.#files.get(this.#activeId) === failed) this.#files.delete(this.#activeId);
    if (failed !== this.#failedActive) {
      if (this.#syncing.length > 0) this.#failedActive = failed;
      else closeQuietly(failed);
    }
    this.#active = null;
    this.#closeFiles();
    this.#recovery.length = 0;
    try {
      this.#load(false);
    } catch {
      // The files cannot be read back: nothing this store could answer would be right, so it closes.
      this.#closeFiles();
      this.#closed = true;
      this.#lock.release();
      this.#recovery.push(...seen);
      return;
    }
    const fresh = this.#recovery.filter(
      (r) => !seen.some((s) => s.file === r.file && s.offset === r.offset && s.kind === r.kind),
    );
    this.#recovery.length = 0;
    this.#recovery.push(...seen, ...fresh);
  }

  /** Seals the active file (fsync, hint) and starts a new one. */
  #rotate(): void {
    const old = this.#active!;
    // Cuts the zeros written ahead and fsyncs: a sealed file ends where its content does, as its hint says.
    try {
      old.seal();
    } catch (error) {
      // A failed fsync like a group's: the pending writes' next fdatasync could succeed with their pages lost.
      this.#failPending(error, old);
      throw error;
    }
    // Every write so far is durable now; a group never spans two files.
    this.#settleAll();
    writeFileAtomic(
      this.dir,
      inDir(this.dir, hintFileName(this.#activeId)),
      this.#activeHints.finish(old.size),
    );
    this.#startActiveFile();
  }

  #checkOpen(): void {
    if (this.#closed) throw new KvError("ERR_KV_CLOSED", `store ${this.dir} is closed`, this.dir);
  }

  #checkWritable(): void {
    this.#checkOpen();
    if (this.#closing) throw new KvError("ERR_KV_CLOSED", `store ${this.dir} is closing`, this.dir);
    if (this.#readOnlyReason !== undefined) {
      throw new KvError(
        "ERR_KV_READ_ONLY",
        `store ${this.dir} is read-only: ${this.#readOnlyReason}`,
        this.dir,
      );
    }
  }

  // ---------------------------------------------------------------- compaction

  /**
   * Rewrites every live record into new files and drops the old ones, while reads and writes go on.
   * Concurrent calls share one run. A crash at any point leaves a store that opens with all its data.
   */
  compact(options: { onProgress?: ProgressCallback } = {}): Promise<CompactionResult> {
    try {
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
    const filesBefore = this.#files.size;
    const bytesBefore = this.#totalBytes();
    // 1. Seal the active file, so that every file below the new active id is immutable: the inputs.
    if (this.#active!.size > 0) this.#rotate();
    const firstLive = this.#activeId;
    const inputs = [...this.#files.keys()].filter((id) => id < firstLive);
    const keydir = this.#keydir;
    /** A live record to copy: its key, slot, and (to tell whether a write replaced it meanwhile) timestamp. */
    interface Live {
      id: string;
      slot: number;
      ts: number;
      file: number;
      offset: number;
      size: number;
    }
    const work: Live[] = [];
    for (const [id, slot] of keydir.entries()) {
      const file = keydir.file(slot);
      if (file >= firstLive) continue;
      const [ts, offset, size] = [
        keydir.timestamp(slot),
        keydir.offset(slot),
        keydir.recordSize(slot),
      ];
      work.push({ id, slot, ts, file, offset, size });
    }
    work.sort((a, b) => a.file - b.file || a.offset - b.offset);
    const unchanged = (w: Live) =>
      keydir.find(w.id) === w.slot && keydir.timestamp(w.slot) === w.ts;

    // 2. Copy live records into new files named *.tmp, yielding to other work between small batches.
    interface Output {
      id: number;
      file: DataFile;
      hints: HintEntry[];
    }
    const outputs: Output[] = [];
    const updates: { live: Live; file: number; offset: number }[] = [];
    let out: Output | null = null;
    let buf = new Uint8Array(4096);
    try {
      for (let i = 0; i < work.length; i++) {
        const entry = work[i]!;
        const id = entry.id;
        if (i % 256 === 0) {
          onProgress?.(i, work.length);
          await nextTurn();
          if (this.#closing)
            throw new KvError("ERR_KV_CLOSED", "compaction stopped: the store is closing");
          // A failed write loaded the key directory again meanwhile (its slots are not the ones above).
          if (this.#readOnlyReason !== undefined)
            throw new KvError(
              "ERR_KV_READ_ONLY",
              `compaction stopped: the store is read-only: ${this.#readOnlyReason}`,
              this.dir,
            );
        }
        if (!unchanged(entry)) continue; // overwritten or deleted meanwhile
        if (buf.length < entry.size) buf = new Uint8Array(entry.size);
        const record = buf.subarray(0, entry.size);
        this.#files.get(entry.file)!.readAt(entry.offset, record, 0, entry.size);
        if (!checkRecord(record, 0, entry.size)) {
          throw this.#foundCorrupt(
            id,
            entry.file,
            entry.offset,
            entry.size,
            "; compaction stopped",
          );
        }
        if (out === null || (out.file.size > 0 && out.file.size + entry.size > this.#maxFileSize)) {
          const oid = this.#nextId++;
          out = {
            id: oid,
            file: DataFile.open(`${inDir(this.dir, dataFileName(oid))}.tmp`, "rw"),
            hints: [],
          };
          outputs.push(out); // first: the catch below closes and removes it if its truncate fails
          out.file.truncate(0);
        }
        const offset = out.file.append(record);
        const valueLength = entry.size - HEADER_SIZE - id.length;
        out.hints.push({ id, timestamp: entry.ts, valueLength, offset });
        updates.push({ live: entry, file: out.id, offset });
      }
      onProgress?.(work.length, work.length);

      // Keys written meanwhile were skipped above, their inputs' records being older: the newer records must be on
      // disk before the marker makes the older ones obsolete, whatever the sync mode (a batch group's fsync may not
      // have started yet; under never, the older record was durable and the newer one not). Before the outputs get
      // their final names (nothing runs in between): when it fails, the store stops (as after any failed fsync of
      // the active file) and the catch below removes the outputs.
      try {
        this.#active?.datasync();
      } catch (error) {
        this.#activeSyncFailed(error);
        throw error;
      }
      // 3. Make the new files durable under their final names. Until the marker exists they are duplicates
      //    of records in the inputs: harmless, as the same timestamp resolves to the same value.
      for (const o of outputs) {
        o.file.sync();
        o.file.close();
        writeFileAtomic(
          this.dir,
          inDir(this.dir, hintFileName(o.id)),
          encodeHint(o.hints, o.file.size),
        );
        fs.renameSync(
          `${inDir(this.dir, dataFileName(o.id))}.tmp`,
          inDir(this.dir, dataFileName(o.id)),
        );
      }
      syncDirectory(this.dir);
    } catch (error) {
      // The hints first, and durably: one without its data file would be taken for lost data.
      for (const o of outputs) {
        // Quietly: an output whose appends could not be written fails its flush again on close (the descriptor
        // is closed all the same), and the outputs after it must still be closed and removed.
        closeQuietly(o.file);
        fs.rmSync(inDir(this.dir, hintFileName(o.id)), { force: true });
      }
      syncDirectory(this.dir);
      for (const o of outputs) {
        fs.rmSync(`${inDir(this.dir, dataFileName(o.id))}.tmp`, { force: true });
        fs.rmSync(inDir(this.dir, dataFileName(o.id)), { force: true });
      }
      throw error;
    }

    // The writes made meanwhile are durable now (the fdatasync above): none may be cut back after the commit
    // counts on them.
    this.#settleAll();
    // 4. The commit point: one atomic rename makes every input obsolete at once.
    writeMarker(this.dir, firstLive);
    for (const o of outputs)
      this.#files.set(o.id, DataFile.open(inDir(this.dir, dataFileName(o.id)), "r"));
    // The same bytes in a new place: a cached value stays cached.
    for (const u of updates) if (unchanged(u.live)) keydir.move(u.live.slot, u.file, u.offset);
    // 5. Delete the inputs; a crash here is finished by the next open, which honours the marker.
    for (const id of inputs) {
      const input = this.#files.get(id);
      // A group's fdatasync on it may not have returned (or, queued behind other work on libuv's pool, not even
      // started): closed now, its descriptor would fail it with EBADF, or be another file's by then.
      if (input !== undefined && this.#syncing.some((g) => g.file === input))
        this.#closeLater.add(input);
      else input?.close();
      this.#files.delete(id);
      fs.rmSync(inDir(this.dir, dataFileName(id)), { force: true });
      fs.rmSync(inDir(this.dir, hintFileName(id)), { force: true });
    }
    syncDirectory(this.dir);
    this.#compactions++;
    return {
      filesBefore,
      filesAfter: this.#files.size,
      filesWritten: outputs.length,
      filesRemoved: inputs.length,
      bytesBefore,
      bytesAfter: this.#totalBytes(),
      records: updates.length,
    };
  }

  // ---------------------------------------------------------------- inspection

  #totalBytes(): number {
    let total = 0;
    for (const f of this.#files.values()) total += f.size;
    return total;
  }

  /** Counts of keys, files and bytes, and what open found. */
  stats(): StoreStats {
    this.#checkOpen();
    let liveBytes = 0;
    for (const [, slot] of this.#keydir.entries()) liveBytes += this.#keydir.recordSize(slot);
    const totalBytes = this.#totalBytes();
    return {
      dir: this.dir,
      sync: this.sync,
      readOnly: this.readOnly,
      ...(this.#readOnlyReason === undefined ? {} : { readOnlyReason: this.#readOnlyReason }),
      keys: this.#keydir.count,
      files: this.#files.size,
      totalBytes,
      liveBytes,
      deadBytes: totalBytes - liveBytes,
      compactions: this.#compactions,
      recovery: [...this.#recovery],
      lock: this.#lock.osLocked ? "os" : "process",
    };
  }

  /**
   * Reads every data file from start to end, checking each record's CRC, that every live key points at a valid
   * record, and that every hint file agrees with its data file. Reports progress in bytes.
   */
  async verify(options: { onProgress?: ProgressCallback } = {}): Promise<VerifyReport> {
    this.#checkOpen();
    const problems: string[] = [];
    for (const id of this.#lost) {
      problems.push(`${dataFileName(id)}: missing, its hint file remains (its records are lost)`);
    }
    const tornTails: string[] = [];
    const total = this.#totalBytes();
    const valid = new Map<number, Set<number>>();
    let records = 0;
    let doneBytes = 0;
    let files = 0;
    const ids = [...this.#files.keys()].sort((a, b) => a - b);
    for (const id of ids) {
      const file = this.#files.get(id)!;
      const name = dataFileName(id);
      file.flush();
      if (file.size > 0) files++;
      const offsets = new Set<number>();
      const seen: HintEntry[] = [];
      const base = doneBytes;
      const result = scanDataFile(
        file,
        0,
        (header, key, offset) => {
          offsets.add(offset);
          seen.push({
            id: key,
            timestamp: header.timestamp,
            valueLength: header.valueLength,
            offset,
          });
        },
        (pos) => options.onProgress?.(base + pos, total),
      );
      records += result.records;
      valid.set(id, offsets);
      for (const d of result.damage) {
        if (d.kind === "corrupt") {
          problems.push(
            `${name}: corrupt record at offset ${d.offset} (next valid record at ${d.resumeAt})`,
          );
        } else
          tornTails.push(
            `${name}: torn tail at offset ${d.offset} (${file.size - d.offset} bytes)`,
          );
      }
      const bytes = readHint(inDir(this.dir, hintFileName(id)));
      const hint = bytes && decodeHint(bytes);
      if (bytes && !hint)
        problems.push(
          `${hintFileName(id)}: damaged (it is ignored; the data file is scanned instead)`,
        );
      else if (hint) {
        // A reader of a live store sees a file as it was at open; its writer may have sealed it since, writing a
        // hint over records appended later. A writer's hint never covers more than it knows.
        const entries = this.#reader
          ? hint.entries.filter(
              (h) => h.offset + recordSize(h.id.length, h.valueLength) <= file.size,
            )
          : hint.entries;
        if (!hintMatches(entries, seen))
          problems.push(`${hintFileName(id)}: does not match ${name}`);
      }
      doneBytes += file.size;
      options.onProgress?.(doneBytes, total);
      await nextTurn();
    }
    for (const [id, slot] of this.#keydir.entries()) {
      const [file, offset] = [this.#keydir.file(slot), this.#keydir.offset(slot)];
      if (!valid.get(file)?.has(offset)) {
        problems.push(
          `key ${JSON.stringify(id)}: its record in ${dataFileName(file)} at ${offset} is not valid`,
        );
      }
    }
    return {
      ok: problems.length === 0,
      files,
      records,
      bytes: total,
      problems,
      tornTails,
    };
  }

  // ---------------------------------------------------------------- close

  /** Waits for pending writes, stops a running compaction, writes the active file's hint, and releases the lock. */
  async close(): Promise<void> {
    if (this.#closed || this.#closing) return;
    this.#closing = true;
    try {
      if (this.#compaction) await this.#compaction.catch(() => undefined);
      while (this.#syncing.length > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
      this.#idle = null;
      // Only a writable open has an active file. Sealed even when damage found since made the store read-only:
      // the writes acknowledged before it are in there.
      const active = this.#active;
      if (active) {
        try {
          active.seal();
        } catch (error) {
          // As any failed fsync of the active file: the writes waiting for it reject and are cut back, so that a
          // reopen does not show writes that were rejected.
          this.#activeSyncFailed(error);
          throw error;
        } finally {
          // A group whose fsync was scheduled but not started: the sync above covered it.
          const group = this.#group;
          this.#group = null;
          group?.acks.resolve();
        }
        if (active.size > 0) {
          writeFileAtomic(
            this.dir,
            inDir(this.dir, hintFileName(this.#activeId)),
            this.#activeHints.finish(active.size),
          );
        }
      }
    } finally {
      this.#closed = true;
      this.#closeFiles();
      try {
        this.#failedActive?.close();
      } catch {
        // Its appends were dropped when it failed: nothing is left to flush.
      }
      this.#failedActive = null;
      for (const file of this.#closeLater) closeQuietly(file);
      this.#closeLater.clear();
      this.#lock.release();
    }
  }

  /** Closes the store when used with `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Closes every data file, even when one fails to (its flush of appends; the descriptor is closed anyway), rather
   * than leave the others and the lock held. Only the active file has appends to flush, and close seals it first:
   * a flush failing here failed there already, with the error close throws.
   */
  #closeFiles(): void {
    for (const f of this.#files.values()) {
      try {
        f.close();
      } catch {
        // See above.
      }
    }
    this.#files.clear();
    this.#keydir.clear();
  }
}

/**
 * Closes a data file that a failed write took out of service. Its appends were dropped, so only `close` itself can
 * fail (EIO from a filesystem that reports writeback errors there); the descriptor is released all the same, and
 * the write's own error is the one reported.
 */
function closeQuietly(file: DataFile): void {
  try {
    file.close();
  } catch {
    // See above.
  }
}

/** Throws `ERR_KV_INVALID_ARG` unless the key of key directory id `id` is 1 to {@link MAX_KEY_LENGTH} bytes. */
function checkKeyLength(id: string): void {
  if (id.length < 1 || id.length > MAX_KEY_LENGTH) {
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `key must be 1 to ${MAX_KEY_LENGTH} bytes, got ${id.length}`,
    );
  }
}

/**
 * Cuts `file` at `end` and fsyncs: its torn or zero tail. The newest file is open for writing; an older one (the
 * active file of a compaction whose outputs were renamed before a crash) is cut through a writable handle of its own.
 */
function cutTail(file: DataFile, end: number): void {
  if (file.writable) {
    file.truncate(end);
    file.sync();
    return;
  }
  const rw = DataFile.open(file.path, "rw");
  try {
    rw.truncate(end);
    rw.sync();
  } finally {
    rw.close();
  }
  file.setContentEnd(end);
}

/**
 * A hint file's bytes, or null when there is none: also when it vanished after the listing, which only a live
 * writer's compaction does (its data file, which this store holds open, was replaced by the compaction's outputs).
 */
function readHint(path: string): Uint8Array | null {
  try {
    return readWholeFile(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return null;
    throw error;
  }
}

/** Whether `dir` holds a store: a writable open makes a data file at once, and compaction leaves a marker. */
function isStore(dir: string): boolean {
  return fs.existsSync(inDir(dir, MARKER_FILE)) || listStore(dir).dataIds.length > 0;
}

/** Whether `dir` holds files a store does not make (a LOCK and temp files are what an interrupted first open leaves). */
function hasForeignFiles(dir: string): boolean {
  return fs.readdirSync(dir).some((n) => n !== LOCK_FILE && !n.endsWith(".tmp"));
}

function ensureDirectory(dir: string, create: boolean): string {
  const abs = path.resolve(dir);
  let stat = fs.statSync(abs, { throwIfNoEntry: false });
  if (stat === undefined && create) {
    try {
      fs.mkdirSync(abs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new KvError(
          "ERR_KV_NO_STORE",
          `cannot create store directory ${abs}: ${(error as Error).message}`,
          abs,
          {
            cause: error,
          },
        );
      }
    }
    syncDirectory(path.dirname(abs));
    stat = fs.statSync(abs, { throwIfNoEntry: false });
  }
  if (stat === undefined)
    throw new KvError("ERR_KV_NO_STORE", `no such store directory: ${abs}`, abs);
  if (!stat.isDirectory()) throw new KvError("ERR_KV_NO_STORE", `not a directory: ${abs}`, abs);
  return fs.realpathSync(abs);
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
