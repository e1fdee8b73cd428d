import { KvError } from "./errors";
import { loadRetrying } from "./listing-changed";
import { checkIsStore, checkOpenOptions, ensureDirectory } from "./open-checks";
import type { OpenOptions } from "./options";
import { realDirectory, StoreDir } from "./store-dir";
import { StoreLock } from "./store-lock";
import type { StoreState } from "./store-state";
import { ValueCache } from "./value-cache";

const DEFAULT_MAX_FILE = 64 * 1024 * 1024;
const DEFAULT_CACHE = 16 * 1024 * 1024;

/** What an open has before its `Store` exists. */
export interface Opened {
  readonly state: StoreState;
  readonly lock: StoreLock;
  readonly cache: ValueCache;
}

/**
 * The steps of an open before its `Store` exists: the options checked, the directory made (or checked to be a
 * store), the lock taken, and the files loaded (a reader retrying while a writer compacts). A failed load releases
 * the lock.
 */
export async function openState(dir: string, options: OpenOptions): Promise<Opened> {
  if (typeof dir !== "string" || dir === "")
    throw new KvError("ERR_KV_INVALID_ARG", "the store directory must be a non-empty path string");
  checkOpenOptions(options);
  const readOnly = options.readOnly ?? false;
  const create = !readOnly && (options.create ?? true);
  const ops = options.directory ?? realDirectory;
  const store = new StoreDir(ensureDirectory(ops, dir, create), ops);
  checkIsStore(store, create);
  const lock = StoreLock.acquire(store, readOnly);
  // One cache for every attempt: a failed load put nothing in it (loads read no values), and it is the one large
  // allocation of an open (16 MiB by default).
  const cache = new ValueCache(options.cacheSize ?? DEFAULT_CACHE);
  const load = {
    maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE,
    readOnlyReason: readOnly ? "opened read-only" : undefined,
    repair: options.repair ?? false,
    cutFailed: null,
  };
  try {
    return { state: await loadRetrying(store, load), lock, cache };
  } catch (error) {
    lock.release();
    throw error;
  }
}
