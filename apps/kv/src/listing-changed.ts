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
 * Whether a read-only load failed because a writer's compaction changed the directory under it: the listing went
 * stale, or a file it named was deleted (`ENOENT`) before the load opened it. A fresh listing is then consistent.
 */
export function listingChanged(error: unknown): boolean {
  return error instanceof ListingChanged || (error as { code?: unknown } | null)?.code === "ENOENT";
}
