import * as path from "node:path";
import type { DataFile } from "./data-file";
import { dataFileName, hintFileName, type listStore } from "./file-names";
import { ListingChanged } from "./listing-changed";
import { decodeHeader, HEADER_SIZE } from "./record";
import { LOST_FOUND, type StoreDir } from "./store-dir";
import type { StoreState } from "./store-state";

// What recovery does with the files a crash, or someone else, left in the store directory.

/**
 * Hint files at or above the marker whose data file is gone: lost data. Not one whose data file is still
 * `N.data.tmp`: a compaction renames an output's hint into place just before its data file, so a crash between
 * the two leaves that pair (an uncommitted output, a leftover).
 */
export function lostDataFiles(
  dir: StoreDir,
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
    const exists = (n: string) => dir.exists(n);
    if (!writable && (exists(name) || exists(`${name}.tmp`) || !exists(hintFileName(id)))) {
      throw new ListingChanged();
    }
    lost.push(id);
  }
  return lost;
}

/** After a repair's compaction committed: the hints of lost data files are below its marker, and go. */
export function removeLostHints(state: StoreState): void {
  for (const id of state.lost) state.dir.remove(hintFileName(id));
  if (state.lost.length > 0) state.dir.sync();
  state.lost = [];
}

/**
 * Deletes what a crash may have left: obsolete files of a committed compaction, temp files, orphan hints (not
 * those of `lost` data files: they are the evidence).
 */
export function removeLeftovers(
  dir: StoreDir,
  state: StoreState,
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
  for (const name of hints) dir.remove(name);
  if (hints.length > 0) dir.sync();
  const doomed: string[] = [...listing.temps];
  for (const id of listing.dataIds) {
    if (id >= firstLive) continue;
    // An obsolete input is a file of records; one that does not start with a record is not the store's.
    if (startsWithRecord(dir, dataFileName(id))) doomed.push(dataFileName(id));
    else setAside(dir, state, dataFileName(id), true);
  }
  // Ascending ids: harmless in any order, since the marker already made them all obsolete.
  for (const name of doomed) dir.remove(name);
  if (doomed.length > 0) dir.sync();
}

/**
 * Drops empty data files other than the newest (a compaction's sealed-empty active file, say). Not one with a
 * hint: a hint covering bytes the file no longer has is evidence of lost data, which the open reports.
 */
export function removeEmpty(dir: StoreDir, ids: number[], hinted: Set<number>): void {
  for (let i = ids.length - 2; i >= 0; i--) {
    if (hinted.has(ids[i]!)) continue;
    const name = dataFileName(ids[i]!);
    if (dir.ops.stat(dir.file(name))?.size === 0) {
      dir.remove(name);
      dir.remove(hintFileName(ids[i]!));
      ids.splice(i, 1);
    }
  }
}

/**
 * Moves a file into `lost+found` (a writer), and reports it: one that is not the store's (`foreign`), or a data file
 * of the store's holding no valid record (`torn-tail` at offset 0: a torn first append, or its only record damaged).
 */
export function setAside(
  dir: StoreDir,
  state: StoreState,
  name: string,
  move: boolean,
  kind: "foreign" | "torn-tail" = "foreign",
): void {
  const bytes = dir.lstat(name)?.size ?? 0;
  const keptAs = move ? `${LOST_FOUND}/${path.basename(dir.moveAside(name))}` : undefined;
  state.recovery.push({
    file: name,
    offset: 0,
    kind,
    action: move ? "moved" : "ignored",
    bytes,
    ...(keptAs === undefined ? {} : { keptAs }),
  });
}

export function startsWithRecord(dir: StoreDir, name: string): boolean {
  const file = dir.open(name, "r");
  try {
    return file.size === 0 || plausibleStart(file);
  } finally {
    file.close();
  }
}

/**
 * Cuts `file` at `end` and fsyncs: its torn or zero tail. The newest file is open for writing; an older one (the
 * active file of a compaction whose outputs were renamed before a crash) is cut through a writable handle of its
 * own.
 */
export function cutTail(dir: StoreDir, file: DataFile, end: number): void {
  if (file.writable) {
    file.truncate(end);
    file.sync();
    return;
  }
  const rw = dir.ops.openData(file.path, "rw");
  try {
    rw.truncate(end);
    rw.sync();
  } finally {
    rw.close();
  }
  file.setContentEnd(end);
}

/**
 * Whether `file` starts as a record does: a header with lengths and a timestamp the store could have written (or
 * too few bytes to tell, as a torn first append may leave).
 */
export function plausibleStart(file: DataFile): boolean {
  if (file.size < HEADER_SIZE) return true;
  const header = new Uint8Array(HEADER_SIZE);
  file.readAt(0, header, 0, HEADER_SIZE);
  return decodeHeader(header, 0) !== null;
}
