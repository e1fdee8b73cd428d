import { type FileMode, systemCallError } from "@rafkit/syscall-state";
import {
  AsyncFileLock,
  type HeldLocks,
  LOCK_SYSCALL,
  type LockOptions,
  type LockRange,
  lockGranted,
  lockRequest,
  planLock,
} from "../locks";
import { flushAll, lock } from "../operations";
import type { AsyncDriver } from "./driver";

/**
 * The locks of `AsyncRandomAccessFile`: taking one in its turn (in the thread's record while the OS
 * call is pending), trying one, and releasing one in its turn. Internal: one per instance.
 */
export class AsyncLocking {
  readonly #d: AsyncDriver;
  readonly #locks: HeldLocks;
  readonly #mode: FileMode;
  readonly #path: string;

  constructor(d: AsyncDriver, locks: HeldLocks, mode: FileMode, path: string) {
    this.#d = d;
    this.#locks = locks;
    this.#mode = mode;
    this.#path = path;
  }

  /** `lock()` (`wait`) or `tryLock()`, in its turn: Java's checks, then the OS lock. */
  async take(options: LockOptions, wait: boolean): Promise<AsyncFileLock | null> {
    const w = this.#d.w;
    w.begin();
    const range = planLock(options, this.#mode, this.#d.backend);
    this.#locks.check(range);
    if (!wait) return this.#tryNow(range);
    // In the thread's registry from before the OS call: the backend takes the lock synchronously (its
    // first attempt) or on a timer, and this promise settles turns later; a sync lock() of another
    // instance run meanwhile would otherwise wait forever for a holder it cannot see.
    const record = this.#locks.reserve(range);
    let granted = false;
    try {
      const r = await this.#d.drive(lock(w, lockRequest(range, wait)), false);
      granted = lockGranted(r, this.#d.backend, this.#path);
    } finally {
      if (!granted) this.#locks.unreserve(record);
    }
    if (!granted) return null;
    return this.#locks.add(new AsyncFileLock(range, this.#locks, (l) => this.#unlock(l)), record);
  }

  /**
   * `tryLock` after its checks. F_SETLK never waits: made here, after the flush, in the same turn as the thread's
   * record learns the outcome, so it counts exactly while the OS holds it. Through the backend's `lockAsync`, a
   * refused attempt would stay recorded for the turns its promise takes, and a sync lock() run meanwhile, that must
   * wait for a holder in another thread, would throw over a lock nobody in this thread holds.
   */
  async #tryNow(range: LockRange): Promise<AsyncFileLock | null> {
    const w = this.#d.w;
    // Flushed first, as the shared `lock` operation does (a failure: no attempt, nothing recorded).
    const flushing = flushAll(w);
    if (flushing.next().done !== true) await this.#d.drive(flushing, true);
    const r = this.#d.backend.lock(w.fd, lockRequest(range, false));
    if (!lockGranted(r, this.#d.backend, this.#path)) return null;
    w.discard();
    return this.#locks.add(new AsyncFileLock(range, this.#locks, (l) => this.#unlock(l)));
  }

  #unlock(held: AsyncFileLock): Promise<void> {
    return this.#d.enqueue(async () => {
      const w = this.#d.w;
      if (w.closed || !held.isValid()) return;
      // Flushed first, so the next holder sees what was written under the lock (a failure keeps it held).
      // Nothing to flush: no await, so the lock goes during release() itself, as the sync class's.
      const flushing = flushAll(w);
      if (flushing.next().done !== true) await this.#d.drive(flushing, true);
      // F_UNLCK never waits: made here, in the same turn as the thread's record drops the lock, so no sync
      // lock() can run in between and take a lock that is gone for one still held (see `HeldLocks`).
      const { position, length } = lockRequest(held, false);
      const r = this.#d.backend.unlock(w.fd, position, length);
      if (r < 0) throw systemCallError(r, LOCK_SYSCALL, w.path);
      held.released();
    });
  }
}
