import type { DataFile } from "./data-file";
import { type CutFailed, loadStore } from "./recovery";
import type { StoreState } from "./store-state";

/**
 * After a failed write was cut back: the state loaded again, read-only, from the files as they are now (what a
 * reopen would show), with the damage seen before first. `failed`, the active file, is left open (see
 * `GroupCommit.writeFailed`). Null when the files cannot be read back.
 */
export function reload(
  old: StoreState,
  failed: DataFile,
  cutFailed: CutFailed | null,
): StoreState | null {
  const seen = [...old.recovery];
  if (old.files.get(old.activeId) === failed) old.files.delete(old.activeId);
  old.active = null;
  old.closeFiles();
  let fresh: StoreState;
  try {
    fresh = loadStore(old.dir, {
      maxFileSize: old.maxFileSize,
      readOnlyReason: old.readOnlyReason,
      repair: false,
      cutFailed,
    });
  } catch {
    return null;
  }
  const added = fresh.recovery.filter(
    (r) => !seen.some((s) => s.file === r.file && s.offset === r.offset && s.kind === r.kind),
  );
  fresh.recovery.length = 0;
  fresh.recovery.push(...seen, ...added);
  return fresh;
}
