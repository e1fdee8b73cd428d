import { writeDamaged } from "./damage-file";
import type { DataFile } from "./data-file";
import { KvError } from "./errors";
import { dataFileName, MAX_FILE_ID } from "./file-names";
import { HintWriter } from "./hint-file";
import { KeyDirectory } from "./key-directory";
import { keyForMessage } from "./key-message";
import type { StoreDir } from "./store-dir";
import type { RecoveryIssue } from "./types";

/**
 * What an open loaded (see `recovery.ts`): the open data files, the key directory, the damage found, and the active
 * file that writes append to. A failed write loads a fresh one (what a reopen would show).
 */
export class StoreState {
  readonly dir: StoreDir;
  readonly maxFileSize: number;
  readonly files = new Map<number, DataFile>();
  /** Each key's newest record, and its value's read-cache handle (values in the cache were checked against their CRC when read, or are the bytes just written). */
  readonly keydir = new KeyDirectory();
  readonly recovery: RecoveryIssue[] = [];
  /** Why writes are refused; undefined while the store takes them. */
  readOnlyReason: string | undefined;
  active: DataFile | null = null;
  activeId = 0;
  activeHints = new HintWriter();
  nextId = 1;
  lastTs = 0;
  /** Ids of data files found missing under their hints (see `recovery.ts`). */
  lost: number[] = [];
  /**
   * The compaction marker this state counts on: the first live data file id as loaded or as its own compaction last
   * committed (0: no marker). A live reader's may be older than the directory's, whose inputs it still holds open.
   */
  firstLive = 0;
  /**
   * Damage whose records' keys are unknown (outside any hint) holds records written before this timestamp: a key
   * whose newest record here is older (or that has none) may have a newer one in the damaged bytes, so no answer is
   * given for it until a repair. 0: no such damage.
   */
  unvouchedBefore = 0;

  constructor(dir: StoreDir, maxFileSize: number, readOnlyReason: string | undefined) {
    this.dir = dir;
    this.maxFileSize = maxFileSize;
    this.readOnlyReason = readOnlyReason;
  }

  /** Bytes of all data files. */
  totalBytes(): number {
    let total = 0;
    for (const f of this.files.values()) total += f.size;
    return total;
  }

  /**
   * The next data file id, for a new active file or a compaction's output; `ERR_KV_CORRUPT` past the last one, which
   * no listing would take for the store's (the file would be set aside as foreign, with its records).
   */
  takeFileId(): number {
    if (this.nextId > MAX_FILE_ID) {
      throw new KvError(
        "ERR_KV_CORRUPT",
        `store ${this.dir.path} has no data file id left (the next would be ${this.nextId}): a data file with a huge id was put there`,
        this.dir.path,
      );
    }
    return this.nextId++;
  }

  /** Starts a new, empty active file with the next id. */
  startActiveFile(): void {
    const id = this.takeFileId();
    const file = this.dir.open(dataFileName(id), "rw");
    this.files.set(id, file);
    this.active = file;
    this.activeId = id;
    this.activeHints = new HintWriter();
    this.dir.sync();
  }

  /**
   * Closes every data file, even when one fails to (its flush of appends; the descriptor is closed anyway), rather
   * than leave the others and the lock held. Only the active file has appends to flush, and close seals it first:
   * a flush failing here failed there already, with the error close throws.
   */
  closeFiles(): void {
    for (const f of this.files.values()) closeQuietly(f);
    this.files.clear();
    this.keydir.clear();
  }

  /** Whether the key directory can answer for a key whose newest record has `timestamp` (-1: none); see {@link unvouchedBefore}. */
  vouchesFor(timestamp: number): boolean {
    return this.unvouchedBefore === 0 || timestamp >= this.unvouchedBefore;
  }

  /** The error for a key the key directory cannot vouch for (see {@link unvouchedBefore}). */
  unvouched(id: string): KvError {
    const first = this.recovery.find((r) => r.kind === "corrupt");
    const where = first ? ` (${first.file} at offset ${first.offset})` : "";
    return new KvError(
      "ERR_KV_CORRUPT",
      `key ${keyForMessage(id)} may have a newer record in damaged bytes whose keys are unknown${where}; the store answers for it again after it is opened with repair`,
      this.dir.path,
    );
  }

  /**
   * The damage this state knows of and has not repaired, as the `DAMAGED` file records it: what its open found
   * (the directory's notes as loaded among it) and what reads found since.
   */
  damageNotes(): RecoveryIssue[] {
    return this.recovery.filter((r) => r.kind === "corrupt" && r.action === "ignored");
  }

  /**
   * A record that failed its check when read (damage a hint file hid at open): reported in `recovery` and, as damage
   * found at open would, it makes the store read-only until it is opened with `repair`.
   */
  foundCorrupt(id: string, fileId: number, offset: number, size: number, what: string): KvError {
    const file = dataFileName(fileId);
    if (!this.recovery.some((r) => r.file === file && r.offset === offset)) {
      this.recovery.push({ file, offset, kind: "corrupt", action: "ignored", bytes: size });
      // Recorded, by a read-only open too, so that the next writable open is read-only until a repair.
      try {
        writeDamaged(this.dir, this.damageNotes());
      } catch {
        // The read's error is the one to report (a read-only directory cannot take the note).
      }
    }
    this.readOnlyReason ??= `corrupt record in ${file} at offset ${offset} (open with repair to drop it)`;
    return new KvError(
      "ERR_KV_CORRUPT",
      `record of key ${keyForMessage(id)} in ${file} at offset ${offset} is corrupt${what}; the store is read-only until it is opened with repair`,
      this.files.get(fileId)?.path ?? this.dir.path,
    );
  }
}

/**
 * Closes a data file whose close may fail: one that a failed write took out of service (its appends were dropped,
 * so only `close` itself can fail, EIO from a filesystem that reports writeback errors there). The descriptor is
 * released all the same, and the write's own error is the one reported.
 */
export function closeQuietly(file: DataFile): void {
  try {
    file.close();
  } catch {
    // See above.
  }
}
