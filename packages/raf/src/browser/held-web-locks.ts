import type { FileMode } from "@rafkit/syscall-state/browser";
import { ClosedError, invalidArgType, OverlappingFileLockError } from "../errors";
import {
  type AsyncFileLock,
  type FileLock,
  HeldLocks,
  type LockOptions,
  type LockRange,
  lockRange,
} from "../locks";
import { type FreeWebLock, requestWebLock } from "./web-locks";

/** Options of the browser's `lock`/`tryLock` (and the sync class's `lockAsync`/`tryLockAsync`): Java's, plus a signal. */
export interface WebLockOptions extends LockOptions {
  /** Aborting it stops a waiting `lock()` (it rejects with the signal's reason); a `tryLock()` never waits. */
  signal?: AbortSignal | undefined;
}

/** What the locks need of their file. */
interface LockedFile {
  readonly path: string;
  readonly mode: FileMode;
  readonly closed: boolean;
}

/**
 * The Web Locks one file instance holds or waits for: Java's checks before any request, Java's overlap
 * rule widened to the whole file (Web Locks are by name), and every lock released when the file closes.
 * `L` is the Node class's lock type (`FileLock` or `AsyncFileLock`), so a browser lock is the same object.
 */
export class HeldWebLocks<L extends FileLock | AsyncFileLock> {
  readonly #file: LockedFile;
  /** Held and requested ranges, for the overlap rule (Java counts a lock being waited for too). */
  readonly #ranges = new Set<LockRange>();
  readonly #free = new Map<L, { range: LockRange; free: FreeWebLock }>();
  /** The requests now waiting, cancelled by close. */
  readonly #waiting = new Set<AbortController>();
  /** Close was called (for the async class it may still be queued). */
  #closing = false;
  /**
   * The owner the Node lock classes report to. Never in the thread's registry (each lock is added with its own
   * record): that registry serves the sync `lock()`, which cannot wait in a browser.
   */
  readonly locks: HeldLocks;

  constructor(file: LockedFile) {
    this.#file = file;
    this.locks = new HeldLocks({ fd: -1, path: file.path, closed: false });
  }

  /**
   * Java's checks, before anything else is done (`lockRange`: the backend has no locks of its own), and the
   * signal's: only `undefined` means none (a `5` failed as an engine TypeError once a request waited).
   */
  plan(options: WebLockOptions): LockRange {
    if (this.#file.closed) throw new ClosedError();
    const range = lockRange(options, this.#file.mode);
    if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
      throw invalidArgType("signal", "an AbortSignal", options.signal);
    return range;
  }

  /**
   * Requests the Web Lock for `range` (`wait`, or `ifAvailable`: null on a conflict) and makes the lock
   * object with `make`. Overlapping a range this instance holds or waits for throws
   * `OverlappingFileLockError`, as on Node; so does any second lock unless both are shared, since both
   * would be the one Web Lock on the path, and this instance would wait for (or be refused by) itself.
   * Close cancels a waiting request (`ClosedError`).
   */
  async take(
    range: LockRange,
    wait: boolean,
    signal: AbortSignal | undefined,
    make: (range: LockRange, owner: HeldLocks) => L,
  ): Promise<L | null> {
    if (this.#file.closed) throw new ClosedError();
    this.#checkOverlap(range);
    // A close() called before this turn (the async class's, queued behind it) would wait behind a waiting
    // request: the lock is taken only if it is free now (the close then releases it), as on Node.
    const cancelledIfBusy = wait && this.#closing;
    const waits = wait && !cancelledIfBusy;
    // Before the range is taken: a bad signal throws here, and must leave nothing held.
    const cancel = wait ? this.#cancellable(signal) : undefined;
    this.#ranges.add(range);
    let free: FreeWebLock | null = null;
    try {
      // The caller's signal, already aborted, still wins over a lock taken at once.
      cancel?.controller.signal.throwIfAborted();
      free = await requestWebLock(this.#file.path, range.shared, waits, cancel?.controller.signal);
    } catch (error) {
      // Aborted: by close (a ClosedError) or by the caller's signal (its reason).
      const aborted = cancel?.controller.signal;
      throw aborted?.aborted === true ? aborted.reason : error;
    } finally {
      cancel?.done();
      if (free === null) this.#ranges.delete(range);
    }
    if (free === null) {
      if (cancelledIfBusy) throw new ClosedError();
      return null;
    }
    // Closed while the grant was on its way: it goes at once, as the close would have released it.
    if (this.#file.closed) {
      this.#ranges.delete(range);
      void free();
      throw new ClosedError();
    }
    const lock = make(range, this.locks);
    this.#free.set(lock, { range, free });
    return this.locks.add(lock, range);
  }

  /** Lets `lock`'s Web Lock go (its file's buffered writes already flushed); settles once it has gone. */
  release(lock: L): Promise<void> {
    const held = this.#free.get(lock);
    if (held === undefined) return Promise.resolve();
    this.#free.delete(lock);
    this.#ranges.delete(held.range);
    lock.released();
    return held.free();
  }

  /** Close was called: a request still waiting would hold up the close queued behind it. */
  closing(): void {
    this.#closing = true;
    for (const c of this.#waiting) c.abort(new ClosedError());
  }

  /** The file closed (and flushed): every lock goes; settles once `navigator.locks` has let them all go. */
  closed(): Promise<void> {
    this.closing();
    const frees = [...this.#free.values()].map(({ free }) => free());
    this.#free.clear();
    this.#ranges.clear();
    this.locks.closed();
    return Promise.all(frees).then(() => undefined);
  }

  #checkOverlap(range: LockRange): void {
    for (const r of this.#ranges) {
      const overlaps =
        r.position < range.position + range.size && range.position < r.position + r.size;
      if (overlaps || !(r.shared && range.shared)) {
        const error = new OverlappingFileLockError(range.position, range.size);
        if (!overlaps)
          error.message = `The ${range.shared ? "shared" : "exclusive"} lock on ${text(range)} conflicts with the ${r.shared ? "shared" : "exclusive"} lock on ${text(r)} this file already holds: in a browser every lock covers the whole file (Web Locks are by name), so only shared locks combine`;
        throw error;
      }
    }
  }

  /** A signal for one waiting request: aborted by close, or by the caller's `signal`. */
  #cancellable(signal: AbortSignal | undefined): { controller: AbortController; done(): void } {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    this.#waiting.add(controller);
    return {
      controller,
      // The request settled: close no longer cancels it, and the caller's signal keeps no listener.
      done: () => {
        this.#waiting.delete(controller);
        signal?.removeEventListener("abort", onAbort);
      },
    };
  }
}

function text(r: LockRange): string {
  return `[${r.position}, ${r.size === Number.POSITIVE_INFINITY ? "end of file" : r.position + r.size})`;
}
