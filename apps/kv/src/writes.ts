import { KvError } from "./errors";
import { hintFileName } from "./file-names";
import type { GroupCommit } from "./group-commit";
import { encodeRecordInto, MAX_KEY_LENGTH, recordSize } from "./record";
import type { StoreState } from "./store-state";
import type { ValueCache } from "./value-cache";

/** Throws `ERR_KV_INVALID_ARG` unless the key of key directory id `id` is 1 to {@link MAX_KEY_LENGTH} bytes. */
export function checkKeyLength(id: string): void {
  if (id.length < 1 || id.length > MAX_KEY_LENGTH) {
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `key must be 1 to ${MAX_KEY_LENGTH} bytes, got ${id.length}`,
    );
  }
}

/**
 * Appends a record (a tombstone when `value` is null) for the key whose key directory id is `id` (its bytes as
 * latin1) to the active file, rotating first when it would pass the size limit, and points the key at it.
 */
export function appendRecord(
  state: StoreState,
  commit: GroupCommit,
  cache: ValueCache,
  id: string,
  value: Uint8Array | null,
  ascii: boolean,
): void {
  checkKeyLength(id);
  const now = Date.now() * 1000;
  const ts = now > state.lastTs ? now : state.lastTs + 1;
  // Timestamps only grow, from the newest record loaded: one at the end of the safe integers (only a crafted file
  // holds one) leaves none to write.
  if (!Number.isSafeInteger(ts)) {
    throw new KvError(
      "ERR_KV_CORRUPT",
      `store ${state.dir.path} holds a record timestamped ${state.lastTs}, the last timestamp a record can have: no write can follow it`,
      state.dir.path,
    );
  }
  state.lastTs = ts;
  const size = recordSize(id.length, value === null ? 0 : value.length);
  let active = state.active!;
  if (active.size > 0 && active.size + size > state.maxFileSize) {
    rotate(state, commit);
    active = state.active!;
  }
  // Encoded straight into the file's append buffer: no record is allocated. `reserve` first: for a record
  // larger than the buffer it swaps in a bigger one.
  let at: number;
  try {
    active.appendSyncPoint();
    at = active.reserve(size);
  } catch (error) {
    // Its flush of the full buffer failed: the appends waiting in it, and the groups waiting for an fsync, fail
    // with it, first (they were issued before this write), and the store stops, as when their fsync fails.
    commit.failPending(error, active);
    throw error;
  }
  encodeRecordInto(active.buffer, at, ts, id, value);
  const offset = active.commit(size);
  commit.lastAppendAt = offset;
  // In the hint as soon as it is in the file: a throw below (a table that cannot grow) must not leave a record
  // the sealed hint lacks, which the next open would take for a hint with records left out.
  state.activeHints.add(id, ts, value === null ? -1 : value.length, offset);
  if (value === null) state.keydir.delete(id);
  else {
    // The value is copied into the cache: the caller may reuse its buffer once put returns.
    const handle = cache.add(value, 0, value.length);
    state.keydir.set(id, state.activeId, offset, size, ts, handle, ascii);
  }
}

/** Seals the active file (fsync, hint) and starts a new one. */
export function rotate(state: StoreState, commit: GroupCommit): void {
  const old = state.active!;
  // Cuts the zeros written ahead and fsyncs: a sealed file ends where its content does, as its hint says.
  try {
    old.seal();
  } catch (error) {
    // A failed fsync like a group's: the pending writes' next fdatasync could succeed with their pages lost.
    commit.failPending(error, old);
    throw error;
  }
  // Every write so far is durable now; a group never spans two files.
  commit.settleAll();
  state.dir.writeAtomic(hintFileName(state.activeId), state.activeHints.finish(old.size));
  state.startActiveFile();
}

/**
 * At close, seals the active file (only a writable open has one) and writes its hint. Sealed even when damage found
 * since made the store read-only: the writes acknowledged before it are in there.
 */
export function sealActive(state: StoreState, commit: GroupCommit): void {
  const active = state.active;
  if (active === null) return;
  try {
    active.seal();
  } catch (error) {
    // As any failed fsync of the active file: the writes waiting for it reject and are cut back, so that a reopen
    // does not show writes that were rejected.
    commit.activeSyncFailed(error);
    throw error;
  } finally {
    commit.resolveGathering();
  }
  if (active.size > 0) {
    state.dir.writeAtomic(hintFileName(state.activeId), state.activeHints.finish(active.size));
  }
}
