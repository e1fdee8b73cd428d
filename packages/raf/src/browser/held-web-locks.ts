import { ClosedError, LockModeError, OffsetRangeError } from "../errors";
import type { LockOptions } from "../locks";
import { toPosition } from "../position";
import {
  requestWebLock,
  type WebFileLock,
  type WebLockOptions,
  type WebLockOwner,
} from "./web-locks";

/** The Web Locks one file instance holds, all dropped when it closes. */
export class HeldWebLocks {
  readonly #held = new Set<WebFileLock>();
  readonly #owner: WebLockOwner;

  constructor(owner: WebLockOwner) {
    this.#owner = owner;
  }

  /** `webLock` (`wait`) or `tryWebLock`, after Java's checks of mode and range, before any request. */
  async take(options: WebLockOptions, wait: boolean): Promise<WebFileLock | null> {
    if (this.#owner.closed) throw new ClosedError();
    const range = planRange(options, this.#owner.mode);
    const lock = await requestWebLock(this.#owner, range, wait, options.signal, (l) =>
      this.#held.delete(l),
    );
    if (lock === null) return null;
    // Closed while the lock was on its way: it goes at once, as close would have released it.
    if (this.#owner.closed) {
      lock.drop();
      throw new ClosedError();
    }
    this.#held.add(lock);
    return lock;
  }

  /** The file closed (and flushed): every lock goes. */
  closed(): void {
    for (const lock of [...this.#held]) lock.drop();
  }
}

/** Java's checks: an exclusive lock needs a writable file; the range is non-negative, its size positive. */
function planRange(options: LockOptions, mode: string) {
  const shared = options.shared === true;
  if (!shared && mode === "r") throw new LockModeError();
  const position = toPosition(options.position ?? 0, "lock position");
  let size = Number.POSITIVE_INFINITY;
  if (options.size !== undefined) {
    size = toPosition(options.size, "lock size");
    if (size === 0)
      throw new OffsetRangeError(
        "lock size must be positive (omit it to lock to the end of the file)",
      );
  }
  return { shared, position, size };
}
