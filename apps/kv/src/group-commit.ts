import { Acks, type AckValue } from "./acks";
import type { DataFile } from "./data-file";
import type { SyncMode } from "./options";
import type { CutFailed } from "./recovery";
import { RetiredFiles } from "./retired-files";
import type { StoreState } from "./store-state";

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

/** fdatasyncs that may run at once: two, so a group gathered while one runs need not wait (BENCHMARKS.md, "Code constants"). */
const MAX_SYNCS = 2;

/** What group commit needs of its store. */
export interface CommitHost {
  readonly sync: SyncMode;
  /** The loaded state: a fresh one after {@link CommitHost.reload}. */
  readonly state: StoreState;
  readonly closed: boolean;
  /** A compaction is running (see {@link GroupCommit.durable}). */
  readonly compacting: boolean;
  /** A failed write's cut back failed too: later loads read that file only up to `end`. */
  cutFailed(cut: CutFailed): void;
  /**
   * Loads the state again, read-only, from the files as they are after a failed write was cut back; `failed` (the
   * active file, taken out of service) is left open. Closes the store when the files cannot be read back.
   */
  reload(failed: DataFile): void;
}

/**
 * Group commit and fail-stop: when each write's promise settles. Under `always` and `never` a write is durable (or
 * handed over) at once; under `batch` the writes of one event-loop turn form a group that shares one fdatasync, run
 * off the event loop. Promises settle in issue order, and any failed write or fsync rejects every write not yet
 * acknowledged, cuts them back, and stops the store.
 */
export class GroupCommit {
  readonly #host: CommitHost;
  /** Where the newest record appended starts (in the active file). */
  lastAppendAt = 0;
  /** The group gathering for the next fsync: every write in it shares one promise. */
  #group: SyncGroup | null = null;
  /** Groups whose fsync is running, in the order their fsyncs started. */
  readonly #syncing: SyncGroup[] = [];
  /** Files taken out of service, closed once no fsync runs on them. */
  readonly retired = new RetiredFiles(this.#syncing);
  #syncScheduled = false;
  #flushScheduled = false;
  /** Writes resolved at once since the last one that waited for a turn (see {@link GroupCommit.#settled}). */
  #sinceTurn = 0;
  /** The writes waiting for the next turn, while one is pending. */
  #turn: Acks | null = null;
  #idle: (() => void) | null = null;

  constructor(host: CommitHost) {
    this.#host = host;
  }

  /**
   * The promise of a delete of a key that is missing: nothing to write, but acknowledged after the writes issued
   * before it, as every write is. Not rejected when their fsync fails (a no-op has nothing to lose), unless the key
   * is missing because of a delete still waiting for its fsync: then its answer stands or falls with that delete.
   */
  deleteOfMissing(id: string): Promise<boolean> {
    const pending = this.pendingAcks();
    if (pending === null) return Promise.resolve(false);
    const deleter = this.pendingDelete(id);
    if (deleter === null) return pending.addNoop(false);
    // In the group it joins, it shares that group's fate; in an earlier one, that one's (settled before it).
    return deleter.acks === pending
      ? pending.add(false)
      : pending.addNoop(false, () => deleter.failed);
  }

  /** Notes a delete just appended, for {@link GroupCommit.deleteOfMissing}. */
  deleted(id: string): void {
    const group = this.#group;
    if (group !== null) (group.deleted ??= new Set()).add(id);
  }

  /** Resolves once no fsync runs. */
  async idle(): Promise<void> {
    while (this.#syncing.length > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    this.#idle = null;
  }

  /** Close sealed the active file: the group whose fsync was scheduled but not started is covered. */
  resolveGathering(): void {
    const group = this.#group;
    this.#group = null;
    group?.acks.resolve();
  }

  /** The promise of a write just appended, resolving to `value` once durable, after those of earlier writes. */
  durable<T extends AckValue>(value: T): Promise<T> {
    if (this.#host.sync === "always") {
      const active = this.#host.state.active!;
      try {
        active.datasync();
      } catch (error) {
        this.writeFailed(error, active, this.lastAppendAt, null);
        throw error;
      }
      this.#preallocate(active);
      return this.#settled(value);
    }
    if (this.#host.sync === "batch") {
      let group = this.#group;
      if (group === null) {
        group = this.#group = {
          acks: new Acks(),
          settled: false,
          file: this.#host.state.active!,
          from: this.lastAppendAt,
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
        const active = this.#host.state.active;
        if (this.#host.closed || active === null) return;
        try {
          active.flush();
        } catch (error) {
          // Acknowledged already (never promises no durability), but nothing may write them later behind the
          // store's back: the store stops taking writes, as it does when an fsync fails.
          this.writeFailed(error, active, active.flushedEnd, null);
        }
      });
    }
    return this.#settled(value);
  }

  /**
   * The promise of a write that failed or was refused: rejected after the writes before it, whether they wait for a
   * turn (see {@link GroupCommit.#settled}) or for a batch group's fsync; it would otherwise reject before them,
   * where writes are acknowledged in the order they were issued.
   */
  refused(error: unknown): Promise<never> {
    const pending = this.pendingAcks();
    return pending === null ? Promise.reject(error) : pending.addError(error);
  }

  /** The promises of the newest writes not yet acknowledged, or null when every write was. */
  pendingAcks(): Acks | null {
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
    if (!this.#host.compacting) return Promise.resolve(value);
    if (++this.#sinceTurn < (this.#host.sync === "always" ? 8 : 256)) return Promise.resolve(value);
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
      if (this.#group !== null && this.#syncing.length < MAX_SYNCS && !this.#host.closed) {
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
    const active = this.#host.state.active!;
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
        if (!group.settled) this.failPending(error, group.file);
        // Acknowledged already, by an fsync started after this one that returned first: that success proves
        // nothing either. Too late to undo these writes, but the store stops all the same, and undoes those not
        // yet acknowledged.
        else this.activeSyncFailed(error);
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
      file.preallocate(this.#host.state.maxFileSize);
    } catch {
      // The appends report their own errors; the zeros are only ever ahead of them.
    }
  }

  #syncDone(group: SyncGroup): void {
    this.#syncing.splice(this.#syncing.indexOf(group), 1);
    this.retired.syncReturned();
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
   * compaction's, close's seal): {@link GroupCommit.writeFailed} for every write not yet acknowledged. A no-op when an
   * earlier failure took the active file out of service already.
   */
  activeSyncFailed(error: unknown): void {
    const active = this.#host.state.active;
    if (active === null) return;
    this.failPending(error, active);
  }

  /** {@link GroupCommit.writeFailed} for every write in `file` not yet acknowledged, from the first of them. */
  failPending(error: unknown, file: DataFile): void {
    this.writeFailed(
      error,
      file,
      this.#pendingFrom(file),
      this.#syncing.find((g) => !g.settled) ?? null,
    );
  }

  /** The group of the newest delete of `id` still waiting for its fsync, or null. */
  pendingDelete(id: string): SyncGroup | null {
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
  settleAll(): void {
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
   * write of `group` (the first group not yet acknowledged, see {@link GroupCommit.failPending}) or, without a group,
   * the write that failed. Like LevelDB after a failed log write, the
   * store takes no more writes: after a failed fsync the kernel may have dropped the pages, and a later fsync that
   * succeeds would not say so. No effect of the failed writes is left: the file is cut back to `from` (the
   * appends not yet written are dropped), the key directory is loaded again from the files (what a reopen would
   * show), and every write not yet acknowledged rejects with `error`, in issue order (deletes of missing keys
   * that depend on none of them resolve `false`).
   */
  writeFailed(error: unknown, file: DataFile, from: number, group: SyncGroup | null): void {
    const message = error instanceof Error ? error.message : String(error);
    this.#host.state.readOnlyReason ??= `a write failed (${message}); the writes not acknowledged were rejected and undone: reopen the store to write again`;
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
      this.#host.cutFailed({ path: file.path, end: file.size });
    }
    // The active file, or the one an earlier failure took out of service (a group that started its fsync before
    // the failed one, failing after it, cuts the file further back). Not into a store that closed meanwhile (a
    // reload that could not read the files back closes it): what it loaded would never be closed.
    const retired = this.retired.isFailedActive(file);
    if (!this.#host.closed && (file === this.#host.state.active || retired)) {
      this.#host.reload(file);
      if (!retired) this.retired.retireActive(file);
    }
    for (const acks of rejected) acks.reject(error);
  }
}
