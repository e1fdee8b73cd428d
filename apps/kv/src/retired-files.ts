import type { DataFile } from "./data-file";
import { closeQuietly } from "./store-state";

/**
 * Data files group commit took out of service while a group's fdatasync may still run on them: the active file a
 * failed write retired, and compaction inputs deleted meanwhile. Each is closed only once no fdatasync runs on it:
 * closed under one, its descriptor would fail it with EBADF, or be another file's by then.
 */
export class RetiredFiles {
  /** The groups whose fdatasync is running (group commit's own list, read live). */
  readonly #syncing: readonly { readonly file: DataFile }[];
  /** The active file a failed write took out of service, kept open until the fsyncs running on it return. */
  #failedActive: DataFile | null = null;
  /** Compaction inputs deleted while a group's fdatasync ran on them: closed when the last one returns. */
  readonly #closeLater = new Set<DataFile>();

  constructor(syncing: readonly { readonly file: DataFile }[]) {
    this.#syncing = syncing;
  }

  /** Whether a group's fdatasync runs on `file`. */
  #syncingOn(file: DataFile): boolean {
    return this.#syncing.some((g) => g.file === file);
  }

  /** Whether `file` is the active file a failed write took out of service. */
  isFailedActive(file: DataFile): boolean {
    return file === this.#failedActive;
  }

  /**
   * Closes a compaction input that was deleted: now, or (a group's fdatasync on it may not have returned, or,
   * queued behind other work on libuv's pool, not even started) when the last one returns.
   */
  closeWhenSynced(file: DataFile): void {
    if (this.#syncingOn(file)) this.#closeLater.add(file);
    else file.close();
  }

  /**
   * Takes the active file out of service after a failed write: kept open until the fsyncs running on it return,
   * since closing it could let a new file take its descriptor number under them.
   */
  retireActive(file: DataFile): void {
    if (this.#syncing.length > 0) this.#failedActive = file;
    else closeQuietly(file);
  }

  /** A group's fdatasync returned (and left the list): closes the files no fdatasync runs on any more. */
  syncReturned(): void {
    for (const file of this.#closeLater) {
      if (this.#syncingOn(file)) continue;
      this.#closeLater.delete(file);
      closeQuietly(file);
    }
    if (this.#syncing.length === 0 && this.#failedActive !== null) {
      closeQuietly(this.#failedActive);
      this.#failedActive = null;
    }
  }

  /** Closes every file taken out of service (at close). */
  closeAll(): void {
    try {
      this.#failedActive?.close();
    } catch {
      // Its appends were dropped when it failed: nothing is left to flush.
    }
    this.#failedActive = null;
    for (const file of this.#closeLater) closeQuietly(file);
    this.#closeLater.clear();
  }
}
