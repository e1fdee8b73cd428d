import { setImmediate as nextTurn } from "node:timers/promises";
import type { DataFile } from "./data-file";
import { KvError } from "./errors";
import { dataFileName, hintFileName } from "./file-names";
import type { GroupCommit } from "./group-commit";
import { encodeHint, type HintEntry } from "./hint-file";
import { readMarker, writeMarker } from "./marker";
import type { ProgressCallback } from "./options";
import { HEADER_SIZE, isRecordOf } from "./record";
import type { StoreDir } from "./store-dir";
import { closeQuietly, type StoreState } from "./store-state";
import type { CompactionResult } from "./types";
import { rotate } from "./writes";

/**
 * Compaction: rewrites every live record of the sealed files into new files and drops the old ones, while reads and
 * writes go on. The steps are numbered below; one atomic rename of the marker is the commit point, so a crash at
 * any point leaves a store that opens with all its data. `closing` tells it to stop.
 */
export async function compactNow(
  state: StoreState,
  commit: GroupCommit,
  closing: () => boolean,
  onProgress?: ProgressCallback,
): Promise<CompactionResult> {
  const dir = state.dir;
  const filesBefore = state.files.size;
  const bytesBefore = state.totalBytes();
  // 1. Seal the active file, so that every file below the new active id is immutable: the inputs.
  if (state.active!.size > 0) rotate(state, commit);
  const firstLive = state.activeId;
  const inputs = [...state.files.keys()].filter((id) => id < firstLive);
  const keydir = state.keydir;
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
  const unchanged = (w: Live) => keydir.find(w.id) === w.slot && keydir.timestamp(w.slot) === w.ts;

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
        if (closing())
          throw new KvError("ERR_KV_CLOSED", "compaction stopped: the store is closing");
        // A failed write loaded the key directory again meanwhile (its slots are not the ones above).
        if (state.readOnlyReason !== undefined)
          throw new KvError(
            "ERR_KV_READ_ONLY",
            `compaction stopped: the store is read-only: ${state.readOnlyReason}`,
            dir.path,
          );
      }
      if (!unchanged(entry)) continue; // overwritten or deleted meanwhile
      if (buf.length < entry.size) buf = new Uint8Array(entry.size);
      const record = buf.subarray(0, entry.size);
      state.files.get(entry.file)!.readAt(entry.offset, record, 0, entry.size);
      if (!isRecordOf(record, 0, entry.size, id, entry.ts)) {
        throw state.foundCorrupt(id, entry.file, entry.offset, entry.size, "; compaction stopped");
      }
      if (out === null || (out.file.size > 0 && out.file.size + entry.size > state.maxFileSize)) {
        const oid = state.takeFileId();
        out = {
          id: oid,
          file: dir.open(`${dataFileName(oid)}.tmp`, "rw"),
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
      state.active?.datasync();
    } catch (error) {
      commit.activeSyncFailed(error);
      throw error;
    }
    // 3. Make the new files durable under their final names. Until the marker exists they are duplicates
    //    of records in the inputs: harmless, as the same timestamp resolves to the same value.
    // The outputs' creations made durable first: a power cut may otherwise keep a hint's rename below and lose
    // its `.data.tmp`'s creation, and a hint without its data file reads as lost data (test/power-loss.test.ts).
    if (outputs.length > 0) dir.sync();
    for (const o of outputs) {
      o.file.seal(); // fsynced, with a sync point attesting it all
      o.file.close();
      dir.writeAtomic(hintFileName(o.id), encodeHint(o.hints, o.file.size));
      dir.rename(`${dataFileName(o.id)}.tmp`, dataFileName(o.id));
    }
    dir.sync();
  } catch (error) {
    removeOutputs(dir, outputs);
    throw error;
  }

  // The writes made meanwhile are durable now (the fdatasync above): none may be cut back after the commit
  // counts on them.
  commit.settleAll();
  // 4. The commit point: one atomic rename makes every input obsolete at once.
  try {
    writeMarker(dir, firstLive);
  } catch (error) {
    // Not committed unless the rename landed (only the directory's fsync failed): else the outputs go, or each
    // retry would leave another copy of the live records behind. In doubt they stay: duplicates are harmless.
    if (!markerNames(dir, firstLive)) removeOutputs(dir, outputs);
    throw error;
  }
  state.firstLive = firstLive;
  for (const o of outputs) state.files.set(o.id, dir.open(dataFileName(o.id), "r"));
  // The same bytes in a new place: a cached value stays cached.
  for (const u of updates) if (unchanged(u.live)) keydir.move(u.live.slot, u.file, u.offset);
  // 5. Delete the inputs; a crash here is finished by the next open, which honours the marker.
  for (const id of inputs) {
    const input = state.files.get(id);
    if (input !== undefined) commit.retired.closeWhenSynced(input);
    state.files.delete(id);
    // A repair's input with dropped records goes aside rather than away: its damaged bytes may be all that is
    // left of acknowledged writes.
    const name = dataFileName(id);
    if (state.recovery.some((r) => r.file === name && r.action === "skipped")) dir.moveAside(name);
    else dir.remove(name);
    dir.remove(hintFileName(id));
  }
  dir.sync();
  return {
    filesBefore,
    filesAfter: state.files.size,
    filesWritten: outputs.length,
    filesRemoved: inputs.length,
    bytesBefore,
    bytesAfter: state.totalBytes(),
    records: updates.length,
  };
}

/**
 * Removes a compaction's outputs that are not committed: their hints first, and durably (one without its data file
 * would be taken for lost data), then the data files under either name.
 */
function removeOutputs(dir: StoreDir, outputs: readonly { id: number; file: DataFile }[]): void {
  for (const o of outputs) {
    // Quietly: an output whose appends could not be written fails its flush again on close (the descriptor
    // is closed all the same), and the outputs after it must still be closed and removed.
    closeQuietly(o.file);
    dir.remove(hintFileName(o.id));
  }
  dir.sync();
  for (const o of outputs) {
    dir.remove(`${dataFileName(o.id)}.tmp`);
    dir.remove(dataFileName(o.id));
  }
}

/** Whether the marker on disk names `firstLive` (a failure to read it counts as yes: nothing is then removed). */
function markerNames(dir: StoreDir, firstLive: number): boolean {
  try {
    return readMarker(dir) === firstLive;
  } catch {
    return true;
  }
}
