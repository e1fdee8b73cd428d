import { readDamaged } from "./damage-file";
import type { DataFile } from "./data-file";
import { KvError } from "./errors";
import { dataFileName, hintFileName, listStore, MARKER_FILE } from "./file-names";
import { hintMatches, hintMismatch } from "./hint-check";
import { decodeHint, type HintEntry, HintWriter } from "./hint-file";
import {
  cutTail,
  lostDataFiles,
  plausibleStart,
  removeEmpty,
  removeLeftovers,
  setAside,
} from "./leftovers";
import { ListingChanged } from "./listing-changed";
import { keepTail } from "./lost-found";
import { markerFromFiles, readMarker, writeMarker } from "./marker";
import { recordSize } from "./record";
import { scanDataFile, timestampFrom } from "./scan";
import type { StoreDir } from "./store-dir";
import { closeQuietly, StoreState } from "./store-state";

/** A data file whose cut back after a failed write failed: loads read it only up to `end`. */
export interface CutFailed {
  readonly path: string;
  readonly end: number;
}

/** How {@link loadStore} loads. */
export interface LoadOptions {
  readonly maxFileSize: number;
  /** Why the store is read-only (then nothing is written), or undefined for a writer. */
  readonly readOnlyReason: string | undefined;
  /** Drop damaged records, for a repair's compaction to rewrite the rest (a writer only). */
  readonly repair: boolean;
  readonly cutFailed: CutFailed | null;
}

/**
 * Recovery: reads the store directory into a {@link StoreState}. It honours the compaction marker, deletes what a
 * crash left (a writer), finds lost data files and damage, cuts torn and zero tails, and picks the active file.
 * The files it opened are closed when it throws.
 */
export function loadStore(dir: StoreDir, options: LoadOptions): StoreState {
  const state = new StoreState(dir, options.maxFileSize, options.readOnlyReason);
  try {
    new Loader(dir, state, options.cutFailed).load(options.repair);
  } catch (error) {
    state.closeFiles();
    throw error;
  }
  return state;
}

/** Ids an empty newest data file may be numbered above the store's others before it counts as a stray. */
const STRAY_GAP = 1 << 20;

class Loader {
  readonly #dir: StoreDir;
  readonly #s: StoreState;
  readonly #cutFailed: CutFailed | null;

  constructor(dir: StoreDir, state: StoreState, cutFailed: CutFailed | null) {
    this.#dir = dir;
    this.#s = state;
    this.#cutFailed = cutFailed;
  }

  load(repair: boolean): void {
    const writable = this.#s.readOnlyReason === undefined;
    let firstLive: number;
    let markerDamaged = false;
    try {
      firstLive = readMarker(this.#dir);
    } catch (error) {
      if (!repair) throw error;
      firstLive = markerFromFiles(this.#dir, error);
      markerDamaged = true;
      // Written at once: the files this repair makes next (an active file, its compaction's outputs) would keep
      // a repair killed before its commit from deciding again.
      writeMarker(this.#dir, firstLive);
    }
    const listing = listStore(this.#dir);
    if (firstLive > 0 && !markerDamaged && !listing.dataIds.some((id) => id >= firstLive)) {
      // Every marker names a data file that a compaction created before it wrote the marker, and that file (or a
      // newer one) stays. A marker above every data file is not this store's (copied from another, say): counted,
      // it would make every data file obsolete, and a writer would delete them all.
      const path = this.#dir.file(MARKER_FILE);
      throw new KvError(
        "ERR_KV_CORRUPT",
        `compaction marker ${path} names data file ${firstLive}, above every data file of the store: it is not this store's (nothing was deleted; remove MERGED if no compaction ran since it was copied in)`,
        path,
      );
    }
    this.#s.firstLive = firstLive;
    const ids = listing.dataIds.filter((id) => id >= firstLive);
    const live = new Set(ids);
    const lost = lostDataFiles(this.#dir, listing, firstLive, live, writable);
    // A reader of a live store: a compaction committed during the listing may have renamed its outputs after
    // readdir passed their names, or deleted inputs the old marker counts on. Files it deletes later fail to open.
    if (!writable && readMarker(this.#dir) !== firstLive) throw new ListingChanged();
    // Files no store numbers are not this store's: moved aside (a writer), never deleted or cut.
    for (const name of listing.foreign) setAside(this.#dir, this.#s, name, writable);
    if (writable) removeLeftovers(this.#dir, this.#s, listing, firstLive, live, new Set(lost));
    if (writable) removeEmpty(this.#dir, ids, listing.hintIds);
    const lastId = ids.at(-1);
    // Above a lost file's id too: a new data file must never pair with its hint.
    this.#s.nextId = Math.max(firstLive, (lastId ?? 0) + 1, (lost.at(-1) ?? 0) + 1, 1);
    const tombs = new Map<string, number>();
    const torn: { file: DataFile; offset: number; id: number }[] = [];
    const zeroTails: DataFile[] = [];
    let corrupt = false;
    const damageIn = (file: string, offset: number, bytes: number) => {
      corrupt = true;
      if (this.#s.recovery.some((r) => r.file === file && r.offset === offset)) return; // seen twice
      const action = repair && writable ? "skipped" : "ignored";
      this.#s.recovery.push({ file, offset, kind: "corrupt", action, bytes });
    };
    const damage = (id: number, offset: number, bytes: number) =>
      damageIn(dataFileName(id), offset, bytes);
    // Found by reads in an earlier session (see Store.#foundCorrupt).
    for (const d of readDamaged(this.#dir)) damageIn(d.file, d.offset, d.bytes);
    // Only a repair gets here: its compaction writes a new marker.
    if (markerDamaged) damageIn(MARKER_FILE, 0, 16);
    for (const id of lost) {
      // A data file gone from under its hint: its records are lost. Their keys go (as a repair drops hinted
      // records it cannot find) rather than let an older value of theirs answer; the hint stays as the evidence.
      const hint = decodeHint(this.#dir.read(hintFileName(id)));
      if (hint) for (const h of hint.entries) this.#index({ ...h, valueLength: -1 }, id, tombs);
      damage(id, 0, hint?.coveredLength ?? 0);
    }
    this.#s.lost = lost;
    // A reader opens every file before it scans any: a live writer's compaction may delete them (the reader then
    // loads again), and the shorter the time from listing to the last open, the rarer that is. Once open, a file
    // stays readable even when deleted. A writer owns the directory: it reads each hint when its turn comes, so at
    // most one hint's bytes are held at a time.
    const readHintBytes = (id: number) =>
      listing.hintIds.has(id) ? this.#dir.read(hintFileName(id)) : null;
    const snapshot = ids.map((id) => {
      // The hint before the data file's size: a writer that seals the file in between (a read-only open of a live
      // store) wrote the hint after the bytes it covers, so the size taken next is at least its coverage.
      // Its bytes, decoded only when its turn comes: entry objects of every hint at once would take far more memory.
      const hintBytes = writable ? null : readHintBytes(id);
      const mode = writable && id === lastId ? "rw" : "r";
      const file = this.#dir.open(dataFileName(id), mode);
      this.#s.files.set(id, file);
      const cut = this.#cutFailed;
      if (cut !== null && cut.path === file.path && cut.end < file.size)
        file.setContentEnd(cut.end);
      return { id, file, hintBytes };
    });
    for (const entry of snapshot) {
      const { id, file } = entry;
      const bytes = writable ? readHintBytes(id) : entry.hintBytes;
      entry.hintBytes = null; // read once: let it go with the entries decoded from it
      const hasHint = bytes !== null;
      const hint = bytes && decodeHint(bytes);
      const collect = id === lastId && writable ? this.#s.activeHints : null;
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
        const bad = hintMismatch(file, hint.entries, hint.coveredLength);
        if (bad >= 0) damage(id, bad, 0);
        for (const h of hint.entries) apply(h);
        // A hint that disagrees with its file (another file's hint copied over it, say) cannot say what the file
        // holds either: every record in the file is read too, so that none of its newer records or tombstones is
        // missed, and no older value or deleted key answers in their place.
        const distrusted = bad >= 0 || hint.coveredLength > file.size;
        from = distrusted ? 0 : Math.min(hint.coveredLength, file.size);
      }
      // Whether the scanned records are in timestamp order, as one writer appends them (a compaction's output is
      // in key order): only then does the first record after a damaged region bound the damaged records' times.
      let lastSeen = 0;
      let appendOrder = !hasHint;
      const result = scanDataFile(file, from, (header, key, offset) => {
        if (header.timestamp < lastSeen) appendOrder = false;
        lastSeen = header.timestamp;
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
        if (!stale && !hintMatches(hint.entries, seen, hint.coveredLength)) {
          stale = true;
          // A hint that disagrees with records that are intact: the repair's compaction rewrites the file anyway.
          damageIn(hintFileName(id), 0, 0);
        }
      }
      // Not during a repair: until its compaction commits, a crash must leave the damage as it found it, and the
      // commit deletes the inputs' hints with them.
      if (stale && writable && !repair) {
        this.#dir.remove(hintFileName(id));
        this.#dir.sync();
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
        // Which keys the damaged records held is unknown, so no key is answered for whose newest record is older
        // than the first record after them: its newer one may be in the damage. A repair accepts the loss.
        if (d.kind === "corrupt" && !repair) {
          const after =
            d.resumeAt === undefined || !appendOrder ? undefined : timestampFrom(file, d.resumeAt);
          this.#s.unvouchedBefore = Math.max(
            this.#s.unvouchedBefore,
            after ?? Number.POSITIVE_INFINITY,
          );
        }
      }
    }
    if (corrupt && !repair && writable) {
      const first = this.#s.recovery.find((r) => r.kind === "corrupt")!;
      this.#s.readOnlyReason =
        lost.length > 0
          ? `data file ${dataFileName(lost[0]!)} is missing, its hint file remains (open with repair to drop its keys)`
          : `corrupt record in ${first.file} at offset ${first.offset} (open with repair to drop it)`;
    }
    const cut = this.#s.readOnlyReason === undefined;
    // Cut like a torn tail (below, which cuts the zeros after it too), but not reported: the file's clean end.
    // Not only the newest file's: a crash after a compaction renamed its outputs leaves the active file it wrote
    // to below them.
    if (cut) for (const file of zeroTails) cutTail(this.#dir, file, file.size);
    const aside: typeof torn = [];
    /** The store's data files with no valid record: moved aside whole once the active file is in place. */
    const empty: typeof torn = [];
    // The newest file numbered far above the store's others (and the marker) holding no record is a stray, not the
    // store's active file (which is numbered one above the files before it, give or take a failed compaction's
    // outputs): it must not take over the numbering.
    const stray = (id: number) => {
      if (id !== lastId || listing.hintIds.has(id)) return false;
      const others = [...this.#s.files.keys()].filter((other) => other !== id);
      return id - Math.max(firstLive, lost.at(-1) ?? 0, ...others) > STRAY_GAP;
    };
    for (const t of torn) {
      if (t.offset === 0) {
        // No valid record at all, and not even the start of one: not a torn append but a file the store did not
        // write. It is kept, not cut. The start of one: a torn first append or a damaged only record, which
        // cannot be told apart; kept whole too, never cut to nothing.
        (plausibleStart(t.file) && !stray(t.id) ? empty : aside).push(t);
        continue;
      }
      const bytes = t.file.size - t.offset;
      const name = dataFileName(t.id);
      // Kept before the cut: a torn tail may be damaged fsynced records that no sync point attests.
      const keptAs = cut ? keepTail(this.#dir, t.file, name, t.offset) : undefined;
      if (cut) cutTail(this.#dir, t.file, t.offset);
      this.#s.recovery.push({
        file: name,
        offset: t.offset,
        kind: "torn-tail",
        action: cut ? "truncated" : "ignored",
        bytes,
        ...(keptAs === undefined ? {} : { keptAs }),
      });
    }
    for (const t of empty) {
      if (!cut) {
        const bytes = t.file.size;
        this.#s.recovery.push({
          file: dataFileName(t.id),
          offset: 0,
          kind: "torn-tail",
          action: "ignored",
          bytes,
        });
        continue;
      }
      closeQuietly(t.file);
      this.#s.files.delete(t.id);
    }
    const newest = lastId === undefined ? undefined : this.#s.files.get(lastId);
    if (newest && lastId !== undefined && newest.size === 0 && stray(lastId)) {
      aside.push({ file: newest, offset: 0, id: lastId });
    }
    for (const t of aside) {
      if (cut) {
        closeQuietly(t.file);
        this.#s.files.delete(t.id);
      }
      setAside(this.#dir, this.#s, dataFileName(t.id), cut);
    }
    if (aside.length > 0) {
      // A stray file does not set the numbering; the store's own files do, those to be moved aside too.
      const kept = [...this.#s.files.keys(), ...empty.map((t) => t.id)];
      this.#s.nextId = Math.max(firstLive, Math.max(0, ...kept) + 1, (lost.at(-1) ?? 0) + 1, 1);
    }
    if (this.#s.readOnlyReason !== undefined) return;
    this.#pickActive(lastId, corrupt);
    // After a new active file (numbered above them) is durable: moved first, the only file at or above the marker
    // could be gone when a power cut hits before the new one exists, and the next open would refuse the marker.
    for (const t of empty) {
      // A hint of no record (its coverage 0) is derived data that describes nothing; alone, it would read as lost
      // data.
      if (this.#dir.lstat(hintFileName(t.id)) !== undefined) {
        this.#dir.remove(hintFileName(t.id));
        this.#dir.sync();
      }
      setAside(this.#dir, this.#s, dataFileName(t.id), true, "torn-tail");
    }
  }

  /** The active file: the newest data file when it is sound and has room, else a new one. */
  #pickActive(lastId: number | undefined, corrupt: boolean): void {
    const last = lastId === undefined ? undefined : this.#s.files.get(lastId);
    if (last && lastId !== undefined && !corrupt && last.size < this.#s.maxFileSize) {
      // Made durable, so that the first append's sync point attests what the file already holds (a crashed
      // writer's unsynced appends included): damage to it is then reported, not taken for a torn tail.
      if (last.size > 0) last.datasync();
      this.#s.active = last;
      this.#s.activeId = lastId;
    } else {
      this.#s.activeHints = new HintWriter();
      this.#s.startActiveFile();
    }
  }

  /** Applies one record to the key directory during open: the larger timestamp wins; tombstones shadow. */
  #index(h: HintEntry, file: number, tombs: Map<string, number>): void {
    if (h.timestamp > this.#s.lastTs) this.#s.lastTs = h.timestamp;
    const prev = this.#s.keydir.find(h.id);
    if (h.valueLength < 0) {
      if (prev >= 0 && this.#s.keydir.timestamp(prev) < h.timestamp) this.#s.keydir.delete(h.id);
      if ((tombs.get(h.id) ?? -1) < h.timestamp) tombs.set(h.id, h.timestamp);
      return;
    }
    if (prev >= 0 && this.#s.keydir.timestamp(prev) >= h.timestamp) return;
    if ((tombs.get(h.id) ?? -1) > h.timestamp) return;
    this.#s.keydir.set(
      h.id,
      file,
      h.offset,
      recordSize(h.id.length, h.valueLength),
      h.timestamp,
      -1,
    );
  }
}
