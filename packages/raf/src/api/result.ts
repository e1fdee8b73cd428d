import type { AsyncFileLock, FileLock } from "../locks";

/** Which file class an API declaration describes: `RandomAccessFile` (`"sync"`) or `AsyncRandomAccessFile` (`"async"`). */
export type Flavor = "sync" | "async";

/**
 * What a method of the `R` class returns for a result `T`: `T` itself (sync), or a Promise of it (async).
 * A failure throws in the sync class and rejects that Promise in the async one, with the same error:
 * the docs say "fails with" for both.
 */
export type Result<R extends Flavor, T> = R extends "sync" ? T : Promise<T>;

/** The lock handle of the `R` class: {@link FileLock} (sync) or {@link AsyncFileLock} (async). */
export type LockOf<R extends Flavor> = R extends "sync" ? FileLock : AsyncFileLock;
