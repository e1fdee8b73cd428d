import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { KvError } from "./errors";
import { type LoadOptions, loadStore } from "./recovery";
import type { StoreDir } from "./store-dir";
import type { StoreState } from "./store-state";

/**
 * Loads a read-only open tries before giving up with `ERR_KV_BUSY`. A retry is needed only when a writer (one
 * without an OS lock, e.g. on the `node` backend) commits a compaction during the load, which takes milliseconds.
 */
export const LOAD_ATTEMPTS = 10;

/**
 * Thrown by a read-only load whose directory listing went stale: the compaction marker changed while the listing
 * was taken, so the listing may lack files the new marker counts on, or hold inputs it made obsolete.
 */
export class ListingChanged extends Error {
  constructor() {
    super("the store's compaction marker changed during the directory listing");
    this.name = "ListingChanged";
  }
}

/**
 * Whether a read-only load of the store in `dir` failed because a writer's compaction changed the directory under
 * it: the listing went stale, or a file it named was deleted (`ENOENT`) before the load opened it. A fresh listing
 * is then consistent. An `ENOENT` for a path that is still there (a dangling symlink) or for the store directory
 * itself is real, and retrying would only hide it.
 */
export function listingChanged(error: unknown, dir: StoreDir): boolean {
  if (error instanceof ListingChanged) return true;
  const e = error as { code?: unknown; path?: unknown } | null;
  if (e?.code !== "ENOENT" || typeof e.path !== "string") return false;
  const gone = (p: string) => {
    try {
      return dir.ops.stat(p, false) === undefined;
    } catch {
      return true;
    }
  };
  return path.resolve(e.path) !== path.resolve(dir.path) && gone(e.path) && !gone(dir.path);
}

/**
 * {@link loadStore}, again while a read-only open of a live store (a writer without OS locks) finds its listing
 * changed by a compaction: a fresh listing is consistent again. A writer owns the directory, so its errors are real.
 */
export async function loadRetrying(dir: StoreDir, options: LoadOptions): Promise<StoreState> {
  const readOnly = options.readOnlyReason !== undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return loadStore(dir, options);
    } catch (error) {
      const stale = readOnly && listingChanged(error, dir);
      if (stale && attempt < LOAD_ATTEMPTS) {
        await sleep(attempt); // lets the writer finish deleting the compaction's inputs
        continue;
      }
      if (!stale) throw error;
      throw new KvError(
        "ERR_KV_BUSY",
        `store ${dir.path} kept changing under a read-only open (a writer compacting): ${LOAD_ATTEMPTS} attempts; try again`,
        dir.path,
        { cause: error },
      );
    }
  }
}
