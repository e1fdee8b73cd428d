import type { ByteOrder, NumericArray } from "@rafkit/bits";
import { type Backend, errnoOf, type LockRequest } from "@rafkit/syscall-state";
import { ClosedError } from "../errors";
import {
  at,
  flushAll,
  type Op,
  readArray,
  readPrimitive,
  writeArray,
  writePrimitive,
} from "../operations";
import { rangeLength, toPosition } from "../position";
import type { Primitive } from "../primitives";
import { type ArrayKind, checkedArray } from "../typed-arrays";
import { complete } from "../window/complete";
import type { Window } from "../window/window";

const EAGAIN = errnoOf("EAGAIN");

/** The one settled promise every buffered write resolves with: the fast path allocates nothing. */
export const DONE: Promise<void> = Promise.resolve();

/**
 * The driver of `AsyncRandomAccessFile`: the queue that runs its operations one at a time in call
 * order, the one system call the window asks for (awaited, off the main thread), and the hot paths of
 * its primitives. Internal: one per instance, `#private` there.
 */
export class AsyncDriver {
  readonly w: Window;
  readonly backend: Backend;
  /** The file's byte order, for the bulk transfers. */
  readonly order: ByteOrder;
  /** An operation is running; later ones wait in {@link #jobs}. */
  busy = false;
  readonly #jobs: (() => void)[] = [];
  /** Cancels the `lock()` now waiting for another holder, if any. */
  #waiting: AbortController | undefined;
  /** `close()` has been called (it may still be queued). */
  #closing = false;
  /**
   * The instance's leak guard while it is open. An operation in flight holds this driver (its awaited
   * system call's continuation does), and through it the guard: an instance only a pending promise still
   * refers to is not closed under its own operation at garbage collection (its descriptor then reused).
   */
  keepAlive: object | undefined;

  constructor(w: Window, backend: Backend, order: ByteOrder) {
    this.w = w;
    this.backend = backend;
    this.order = order;
  }

  /** Runs `job` now if nothing else is running, else after everything called before it. */
  enqueue<T>(job: () => Promise<T>): Promise<T> {
    if (!this.busy) {
      this.busy = true;
      return this.#start(job);
    }
    return new Promise<T>((resolve, reject) => {
      this.#jobs.push(() => {
        this.#start(job).then(resolve, reject);
      });
    });
  }

  /** Runs `job` (the instance is busy); when it settles, starts the next one before handing out the result. */
  #start<T>(job: () => Promise<T>): Promise<T> {
    let p: Promise<T>;
    try {
      p = job();
    } catch (error) {
      p = Promise.reject(error);
    }
    return p.then(
      (value) => {
        this.#next();
        return value;
      },
      (error: unknown) => {
        this.#next();
        throw error;
      },
    );
  }

  #next(): void {
    const job = this.#jobs.shift();
    if (job === undefined) this.busy = false;
    else job();
  }

  /** `close()` was called: a `lock()` still waiting for another holder is cancelled (the close queued behind it could never run). */
  closing(): void {
    this.#closing = true;
    this.#waiting?.abort();
  }

  async #io(): Promise<void> {
    const w = this.w;
    // Native locks are tried on this thread (a waiting lock polls): nothing of theirs is left on the thread pool.
    if (w.isCall && (w.request.call === "lock" || w.request.call === "unlock")) {
      complete(w, await this.#call());
      return;
    }
    w.callsInFlight++;
    let r: number;
    try {
      r = await this.#systemCall();
    } finally {
      w.callsInFlight--;
    }
    complete(w, r);
  }

  /** The window's pending request, off the main thread: its raw result. */
  #systemCall(): Promise<number> {
    const w = this.w;
    const b = this.backend;
    if (w.isCall) return this.#call();
    return w.request.isWrite
      ? b.pwriteAsync(
          w.fd,
          w.request.buffer,
          w.request.offset,
          w.request.length,
          w.request.position,
        )
      : b.preadAsync(
          w.fd,
          w.request.buffer,
          w.request.offset,
          w.request.length,
          w.request.position,
        );
  }

  /** The pending system call other than `pread`/`pwrite`, off the main thread: its raw result. */
  #call(): Promise<number> {
    const w = this.w;
    const b = this.backend;
    const fd = w.fd;
    switch (w.request.call) {
      case "size":
        return b.sizeAsync(fd);
      case "truncate":
        return b.truncateAsync(fd, w.request.truncateTo);
      case "sync":
        return b.syncAsync(fd);
      case "datasync":
        return b.datasyncAsync(fd);
      case "lock":
        return this.#lockCall(fd, w.request.lock!);
      case "unlock":
        // F_UNLCK never waits: a synchronous call.
        return Promise.resolve(b.unlock(fd, w.request.lock!.position, w.request.lock!.length));
      case "close":
        return b.closeAsync(fd);
    }
  }

  /** `lockAsync`; a waiting one can be cancelled by {@link closing} (it then rejects with `ClosedError`). */
  async #lockCall(fd: number, request: LockRequest): Promise<number> {
    const b = this.backend;
    if (!request.wait) return b.lockAsync(fd, request);
    // A close() already called would queue behind a wait forever: the lock is taken only if it is free now
    // (the close then releases it), else cancelled, as if the close had run.
    if (this.#closing) {
      const r = await b.lockAsync(fd, { ...request, wait: false });
      if (r === -EAGAIN) throw new ClosedError();
      return r;
    }
    const cancel = new AbortController();
    this.#waiting = cancel;
    try {
      return await b.lockAsync(fd, { ...request, signal: cancel.signal });
    } catch (error) {
      if (cancel.signal.aborted) throw new ClosedError();
      throw error;
    } finally {
      this.#waiting = undefined;
    }
  }

  /** Runs a shared operation to completion, awaiting each system call it yields for (`started`: it already yielded once). */
  async drive<T>(op: Op<T>, started: boolean): Promise<T> {
    let r: IteratorResult<void, T> = started ? { done: false, value: undefined } : op.next();
    while (r.done !== true) {
      try {
        await this.#io();
      } catch (error) {
        r = op.throw(error);
        continue;
      }
      r = op.next();
    }
    return r.value;
  }

  /**
   * Runs the operation `make` builds, in call order. When nothing is queued it runs at once, and if
   * the window serves it completely the promise is already settled: no system call, no queueing.
   */
  submit<T>(make: () => Op<T>): Promise<T> {
    if (this.busy) return this.enqueue(() => this.drive(make(), false));
    // Busy from its first step: a call that user code makes meanwhile (a typed array subclass's getter,
    // a `close()` among them) waits its turn instead of running inside this operation.
    this.busy = true;
    let op: Op<T>;
    let r: IteratorResult<void, T>;
    try {
      op = make();
      r = op.next();
    } catch (error) {
      this.#next();
      return Promise.reject(error);
    }
    if (r.done === true) {
      this.#next();
      return Promise.resolve(r.value);
    }
    return this.#start(() => this.drive(op, true));
  }

  /**
   * A primitive read that the window cannot serve at once (busy, or the bytes are not there): queued. The
   * hot path is written out in each generated method (`primitive-methods.ts`), which calls this.
   */
  get<R>(p: Primitive<R, unknown>): Promise<R> {
    return this.submit(() => readPrimitive(this.w, p));
  }

  /** A primitive write that the window cannot take at once: queued. `v`'s type is checked already. */
  put<W>(p: Primitive<unknown, W>, v: W): Promise<void> {
    return this.submit(() => writePrimitive(this.w, p, v));
  }

  /** Hot path of a positional primitive read: straight from the window when idle and the bytes are there. */
  getAt<R>(position: number | bigint, p: Primitive<R, unknown>): Promise<R> {
    if (!this.busy) {
      const w = this.w;
      const i = w.takeReadAt(position, p.width);
      if (i >= 0) {
        try {
          return Promise.resolve(p.get(w.codec, w.view, i));
        } catch (error) {
          return Promise.reject(error);
        }
      }
    }
    return this.at(position, () => readPrimitive(this.w, p));
  }

  /** Hot path of a positional primitive write: straight into the window when idle and there is room. */
  putAt<W>(position: number | bigint, p: Primitive<unknown, W>, value: W): Promise<void> {
    let v: W;
    try {
      v = p.check(value);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.busy) {
      const w = this.w;
      const i = w.writeIndexAt(position, p.width);
      if (i >= 0) {
        try {
          p.set(w.codec, w.view, i, v);
        } catch (error) {
          return Promise.reject(error);
        }
        return w.commitAt(i, p.width) ? this.submit(() => flushAll(w)) : DONE;
      }
    }
    return this.at(position, () => writePrimitive(this.w, p, v));
  }

  /**
   * Runs the operation at `position` (positional I/O): the file pointer does not move. `make` checks its own
   * arguments before the position is, as the sync class does, so both throw the same error for the same call.
   */
  at<T>(position: number | bigint, make: () => Op<T>): Promise<T> {
    return this.submit(() => {
      const op = make();
      return at(this.w, toPosition(position, "position"), op);
    });
  }

  /** A bulk read (`readInts`, …) of `count` elements (default: to the end of `dst`) into an array of `kind`. */
  readArray(
    dst: NumericArray,
    off: number,
    count: number | undefined,
    kind: ArrayKind,
  ): Promise<void> {
    return this.submit(() => {
      const a = checkedArray(dst, kind, "dst");
      const n = rangeLength(off, count, a.length);
      return readArray(this.w, this.order, a, off, n, kind.width);
    });
  }

  /** A bulk write (`writeInts`, …) of `count` elements (default: to the end of `src`) from an array of `kind`. */
  writeArray(
    src: NumericArray,
    off: number,
    count: number | undefined,
    kind: ArrayKind,
  ): Promise<void> {
    return this.submit(() => {
      const a = checkedArray(src, kind, "src");
      const n = rangeLength(off, count, a.length);
      return writeArray(this.w, this.order, a, off, n, kind.width);
    });
  }
}
