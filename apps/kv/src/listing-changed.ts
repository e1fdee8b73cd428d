import * as fs from "node:fs";
import * as path from "node:path";

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
export function listingChanged(error: unknown, dir: string): boolean {
  if (error instanceof ListingChanged) return true;
  const e = error as { code?: unknown; path?: unknown } | null;
  if (e?.code !== "ENOENT" || typeof e.path !== "string") return false;
  const gone = (p: string) => {
    try {
      fs.lstatSync(p);
      return false;
    } catch {
      return true;
    }
  };
  return path.resolve(e.path) !== path.resolve(dir) && gone(e.path) && !gone(dir);
}
