import type { LockOptions } from "../locks";

/** `navigator.locks`, as far as used (the package's types have no DOM library). */
interface LockManager {
  request<T>(
    name: string,
    options: { mode: "shared" | "exclusive"; ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<T> | T,
  ): Promise<T>;
}

/** What a Web Lock needs of its file: to flush before it goes, and to be told it went. */
export interface WebLockOwner {
  readonly path: string;
  readonly mode: string;
  readonly closed: boolean;
  flush(): void | Promise<void>;
}

/** Options of `webLock`/`tryWebLock`: Java's, plus a signal that cancels a waiting `webLock`. */
export interface WebLockOptions extends LockOptions {
  /** Aborting it stops a waiting `webLock()` (it rejects with the signal's reason). */
  signal?: AbortSignal;
}

function lockManager(): LockManager {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks === undefined) {
    const error = new Error("navigator.locks (Web Locks) is not available in this context");
    (error as Error & { code: string }).code = "ERR_RAF_LOCK_UNSUPPORTED";
    throw error;
  }
  return locks;
}

/** The Web Lock name of a path: `rafkit:` and the path with empty and `.` segments dropped, so `a//b` is `/a/b`. */
export function webLockName(path: string): string {
  return `rafkit:/${path
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/")}`;
}

/**
 * A lock from `navigator.locks` on a file's path: shared or exclusive, across every worker and page of
 * the origin. Web Locks are by name, so a range lock here locks the **whole file**: `position`/`size` are
 * kept (and checked) for the code that reads them, but any two locks on one path conflict unless both are
 * shared. Released by {@link release}, by closing its file, or when its context goes away.
 */
export class WebFileLock {
  /** Whether the lock is shared (true) or exclusive (false). */
  readonly shared: boolean;
  /** First byte of the range asked for (the lock covers the whole file). */
  readonly position: number;
  /** Bytes of the range asked for; `Infinity` when it runs to the end of the file. */
  readonly size: number;
  readonly #owner: WebLockOwner;
  readonly #free: () => void;
  readonly #forget: (lock: WebFileLock) => void;
  #valid = true;

  /** @internal Made by `webLock`/`tryWebLock`. */
  constructor(
    owner: WebLockOwner,
    range: { shared: boolean; position: number; size: number },
    free: () => void,
    forget: (lock: WebFileLock) => void,
  ) {
    this.#owner = owner;
    this.shared = range.shared;
    this.position = range.position;
    this.size = range.size;
    this.#free = free;
    this.#forget = forget;
  }

  /** Whether the lock is still held: false after {@link release} or after its file was closed. */
  isValid(): boolean {
    return this.#valid;
  }

  /** Flushes the file's buffered writes (so the next holder sees them), then releases the lock. Idempotent. */
  async release(): Promise<void> {
    if (!this.#valid) return;
    if (!this.#owner.closed) await this.#owner.flush();
    this.drop();
  }

  /** @internal Releases without flushing (its file closed, which flushed already). */
  drop(): void {
    if (!this.#valid) return;
    this.#valid = false;
    this.#forget(this);
    this.#free();
  }

  /** `await using lock = await f.webLock()` releases it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}

/**
 * Takes a Web Lock on `owner`'s path (`wait`: until granted; else `ifAvailable`, null on a conflict).
 * An exclusive lock needs a file opened for writing, as the OS locks do.
 */
export function requestWebLock(
  owner: WebLockOwner,
  range: { shared: boolean; position: number; size: number },
  wait: boolean,
  signal: AbortSignal | undefined,
  forget: (lock: WebFileLock) => void,
): Promise<WebFileLock | null> {
  const locks = lockManager();
  return new Promise((resolve, reject) => {
    const options = {
      mode: range.shared ? ("shared" as const) : ("exclusive" as const),
      ...(wait ? {} : { ifAvailable: true }),
      ...(signal === undefined ? {} : { signal }),
    };
    locks
      .request(webLockName(owner.path), options, (lock) => {
        if (lock === null) return resolve(null);
        // Held until this promise settles: the lock object's release (or its file's close) settles it.
        return new Promise<void>((free) => resolve(new WebFileLock(owner, range, free, forget)));
      })
      .catch(reject);
  });
}
