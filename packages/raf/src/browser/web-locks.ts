import { shareClassIdentity } from "@rafkit/bits";
import { LockUnsupportedError } from "../errors";

/** `navigator.locks`, as far as used (the package's types have no DOM library). */
interface LockManager {
  request<T>(
    name: string,
    options: { mode: "shared" | "exclusive"; ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<T> | T,
  ): Promise<T>;
}

/** `LockUnsupportedError` (same class and code as on Node) with the browser's reason as its message. */
export class WebLocksMissingError extends LockUnsupportedError {
  static {
    shareClassIdentity(this, "@rafkit/raf.WebLocksMissingError");
  }
  constructor() {
    super("opfs");
    this.message =
      "navigator.locks (Web Locks) is not available in this context (it needs a secure context: https or localhost)";
  }
}

function lockManager(): LockManager {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks === undefined) throw new WebLocksMissingError();
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
 * Releases a granted Web Lock; settles once `navigator.locks` has let it go (its request settled), so a
 * holder that awaits it has released before it tells anyone.
 */
export type FreeWebLock = () => Promise<void>;

/**
 * Asks `navigator.locks` for the lock on `path`: `wait` until granted (or `signal` aborts: it rejects with
 * the signal's reason), else `ifAvailable` (null at once on a conflict). Resolves with the function that
 * releases it: until then the lock stays held, by this context, across every worker and page of the origin.
 */
export function requestWebLock(
  path: string,
  shared: boolean,
  wait: boolean,
  signal?: AbortSignal,
): Promise<FreeWebLock | null> {
  const locks = lockManager();
  const name = webLockName(path);
  // A release this context started is not yet seen by navigator.locks: a request after it waits for it,
  // so a lock let go in this context is free here at once, as on Node.
  const releasing = releases.get(name);
  if (releasing !== undefined)
    return releasing.then(() => requestWebLock(path, shared, wait, signal));
  return new Promise((resolve, reject) => {
    const options = {
      mode: shared ? ("shared" as const) : ("exclusive" as const),
      // Web Locks refuse a signal next to ifAvailable; a try never waits, so it needs none.
      ...(wait ? (signal === undefined ? {} : { signal }) : { ifAvailable: true }),
    };
    let free: () => void = () => {};
    const settled = locks.request(name, options, (lock) => {
      if (lock === null) return resolve(null);
      // Held until this promise settles.
      const held = new Promise<void>((f) => (free = f));
      resolve(() => {
        free();
        const gone = settled.then(() => undefined);
        track(name, gone);
        return gone;
      });
      return held;
    });
    settled.catch(reject);
  });
}

/** The releases this context has started and `navigator.locks` not yet finished, by lock name. */
const releases = new Map<string, Promise<void>>();

function track(name: string, gone: Promise<void>): void {
  const all = Promise.all([releases.get(name), gone]).then(
    () => undefined,
    () => undefined,
  );
  releases.set(name, all);
  void all.then(() => {
    if (releases.get(name) === all) releases.delete(name);
  });
}
