import { setImmediate as nextTurn } from "node:timers/promises";
import { dataFileName, hintFileName } from "./file-names";
import { hintMatches } from "./hint-check";
import { decodeHint, type HintEntry } from "./hint-file";
import { keyForMessage } from "./key-message";
import type { ProgressCallback } from "./options";
import { recordSize } from "./record";
import { scanDataFile } from "./scan";
import { LOST_FOUND } from "./store-dir";
import type { StoreState } from "./store-state";
import type { VerifyReport } from "./types";

/**
 * Verify: reads every data file from start to end, checking each record's CRC, that every live key points at a
 * valid record (of the keys whose records were in the files as read: writes and compactions may go on meanwhile),
 * and that every hint file agrees with its data file. `stillOpen` throws once the store is closed. Reports progress
 * in bytes. `reader`: a read-only open of a store that a writer may be changing. A hint that vanished since open is
 * read as none: only a live writer's compaction deletes one (its data file, which this store holds open, was
 * replaced by the outputs).
 */
export async function verifyStore(
  state: StoreState,
  reader: boolean,
  stillOpen: () => void,
  onProgress?: ProgressCallback,
): Promise<VerifyReport> {
  const problems: string[] = [];
  for (const id of state.lost) {
    problems.push(`${dataFileName(id)}: missing, its hint file remains (its records are lost)`);
  }
  const tornTails: string[] = [];
  const total = state.totalBytes();
  const valid = new Map<number, Set<number>>();
  let records = 0;
  let doneBytes = 0;
  let files = 0;
  // Each file's length when it was read: what a key's record may be checked against (see below).
  const readTo = new Map<number, number>();
  const ids = [...state.files.keys()].sort((a, b) => a - b);
  for (const id of ids) {
    const file = state.files.get(id);
    if (file === undefined) continue; // compacted away meanwhile: its records live on in the outputs
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
      (pos) => onProgress?.(base + pos, total),
    );
    records += result.records;
    valid.set(id, offsets);
    readTo.set(id, file.size);
    for (const d of result.damage) {
      if (d.kind === "corrupt") {
        problems.push(
          `${name}: corrupt record at offset ${d.offset} (next valid record at ${d.resumeAt})`,
        );
      } else
        tornTails.push(`${name}: torn tail at offset ${d.offset} (${file.size - d.offset} bytes)`);
    }
    const bytes = state.dir.readIfAny(hintFileName(id));
    const hint = bytes && decodeHint(bytes);
    if (bytes && !hint)
      problems.push(
        `${hintFileName(id)}: damaged (it is ignored; the data file is scanned instead)`,
      );
    else if (hint) {
      // A reader of a live store sees a file as it was at open; its writer may have sealed it since, writing a
      // hint over records appended later. A writer's hint never covers more than it knows.
      const entries = reader
        ? hint.entries.filter((h) => h.offset + recordSize(h.id.length, h.valueLength) <= file.size)
        : hint.entries;
      const covered = reader ? Math.min(hint.coveredLength, file.size) : hint.coveredLength;
      if (!hintMatches(entries, seen, covered))
        problems.push(`${hintFileName(id)}: does not match ${name}`);
    }
    doneBytes += file.size;
    onProgress?.(doneBytes, total);
    await nextTurn();
    stillOpen(); // closed meanwhile: ERR_KV_CLOSED, not a read of files gone
  }
  // Writes and compactions go on while verify runs: a key whose record was written or moved after its file was read
  // (past that length, or into a file made since) was not read, so it is not checked, rather than reported damaged.
  for (const [id, slot] of state.keydir.entries()) {
    const [file, offset] = [state.keydir.file(slot), state.keydir.offset(slot)];
    if (offset >= (readTo.get(file) ?? 0)) continue;
    if (!valid.get(file)?.has(offset)) {
      problems.push(
        `key ${keyForMessage(id)}: its record in ${dataFileName(file)} at ${offset} is not valid`,
      );
    }
  }
  // Damage the store holds against itself that this scan cannot see (a DAMAGED note about a file gone since, or one
  // that does not parse): the store refuses writes for it, so verify must not say ok.
  if (problems.length === 0) {
    for (const n of state.damageNotes())
      problems.push(
        `${n.file}: damaged at offset ${n.offset} (noted in DAMAGED; open with repair)`,
      );
  }
  return {
    ok: problems.length === 0,
    files,
    records,
    bytes: total,
    problems,
    tornTails,
    keptAside: keptAside(state),
  };
}

/** The files in `lost+found/`, skipping copies an interrupted open left half written (`.tmp`). */
function keptAside(state: StoreState): string[] {
  const dir = state.dir;
  const folder = dir.file(LOST_FOUND);
  if (dir.ops.stat(folder, false)?.isDirectory !== true) return [];
  return dir.ops
    .list(folder)
    .filter((name) => !name.endsWith(".tmp"))
    .sort()
    .map((name) => `${LOST_FOUND}/${name}`);
}
