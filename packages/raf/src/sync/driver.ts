import type { ByteOrder, NumericArray } from "@rafkit/bits";
import {
  type DirectBuffer,
  errnoOf,
  type OneShotTransfers,
  oneShotTransfers,
  type SyncBackend,
  systemCallError,
} from "@rafkit/syscall-state";
import { at, type Op, readArray, writeArray } from "../operations";
import { rangeLength, toPosition } from "../position";
import type { Primitive } from "../primitives";
import { type ArrayKind, checkedArray } from "../typed-arrays";
import { complete } from "../window/complete";
import { endPrimitiveRead, planRead } from "../window/read-planning";
import { IO, requestFlush, type Step } from "../window/request";
import type { Window } from "../window/window";
import { planFlush, planRoom } from "../window/write-planning";

const EINTR = errnoOf("EINTR");
const EIO = errnoOf("EIO");

/**
 * The driver of `RandomAccessFile`: performs the one system call its window asks for, with the sync
 * backend, and holds the slow paths the class's hot paths fall back to. Internal: one per instance,
 * `#private` there.
 */
export class SyncDriver {
  // `declare`d, set by the constructor: each field's first value is its lasting one (see Window's fields).
  declare readonly w: Window;
  declare readonly backend: SyncBackend;
  /** The file's byte order, for the bulk transfers. */
  declare readonly order: ByteOrder;
  /**
   * The one system call of an unbuffered primitive and of a flush: the backend's unchecked `pread`/`pwrite`
   * where it has them (every argument is the window's own, and any answer but the full length goes to the
   * window, EINTR included), else the backend itself (BENCHMARKS.md, "Unbuffered primitives below the
   * backend's checks").
   */
  readonly #oneShot: OneShotTransfers;
  /**
   * Unbuffered over a direct buffer (the window's memory is its bytes): a primitive's one system call
   * passes the buffer's address instead of a view (BENCHMARKS.md, "Direct buffers").
   */
  readonly #direct: DirectBuffer | undefined;

  constructor(w: Window, backend: SyncBackend, order: ByteOrder, direct?: DirectBuffer) {
    this.w = w;
    this.backend = backend;
    this.order = order;
    this.#oneShot = oneShotTransfers(backend) ?? backend;
    this.#direct = direct;
  }

  #io(): void {
    const w = this.w;
    const b = this.backend;
    if (w.isCall) {
      complete(w, this.#call());
      return;
    }
    complete(
      w,
      w.request.isWrite
        ? b.pwrite(w.fd, w.request.buffer, w.request.offset, w.request.length, w.request.position)
        : b.pread(w.fd, w.request.buffer, w.request.offset, w.request.length, w.request.position),
    );
  }

  /** The pending system call other than `pread`/`pwrite`: its raw result. */
  #call(): number {
    const w = this.w;
    const b = this.backend;
    const fd = w.fd;
    switch (w.request.call) {
      case "size":
        return b.size(fd);
      case "truncate":
        return b.truncate(fd, w.request.truncateTo);
      case "sync":
        return b.sync(fd);
      case "datasync":
        return b.datasync(fd);
      case "lock":
        return b.lock(fd, w.request.lock!);
      case "unlock":
        return b.unlock(fd, w.request.lock!.position, w.request.lock!.length);
      case "close":
        return b.close(fd);
    }
  }

  /** Operations running now: more than one when user code an operation called (a subclass's getter) started another. */
  #running = 0;

  /** Whether a shared operation is running (see {@link run}): a `close` made inside one must not release the window. */
  get running(): boolean {
    return this.#running > 0;
  }

  /** Runs a shared operation to completion, making each system call it yields for. */
  run<T>(op: Op<T>): T {
    this.#running++;
    try {
      let r = op.next();
      while (r.done !== true) {
        try {
          this.#io();
        } catch (error) {
          r = op.throw(error);
          continue;
        }
        r = op.next();
      }
      return r.value;
    } finally {
      this.#running--;
    }
  }

  // The slow paths of primitives (every primitive when unbuffered) are the shared operations `fill`,
  // `room` and `flushAll` driven by plain loops: they have no `finally`, so an error thrown by the
  // system call propagates exactly as when thrown into the generator, minus its cost.

  /** Slow path of a primitive read (`fill`): the index of `n` bytes in the window, consumed; EOFError when short. */
  fill(n: number): number {
    const w = this.w;
    const v = w.scratch(n);
    if (v !== undefined) {
      // Unbuffered: the one `pread` the window would plan, made directly.
      const r = this.#preadScratch(v, n);
      if (r === n) {
        // An unbuffered window never attaches a cursor: `rawPointer` is the pointer.
        w.rawPointer += n;
        return 0;
      }
      // Anything else (short, end of file, an error, EINTR) was that planned call: the window takes it over.
      w.begin();
      planRead(w, n);
      complete(w, r);
    } else w.begin();
    let s: Step;
    while ((s = planRead(w, n)) === IO) this.#io();
    return endPrimitiveRead(w, n, s);
  }

  /**
   * `pread` of `n` bytes at the pointer into `scratch`. A method of its own on purpose: inlined into
   * `fill`, the backend's call chain used up V8's inlining budget of the primitive readers, which then
   * ran out of line in a process that also reads unbuffered (BENCHMARKS.md, "Code choices").
   */
  #preadScratch(scratch: Uint8Array, n: number): number {
    // `scratch` (Window.scratch) ends at or before MAX_POSITION: the position needs no check.
    const d = this.#direct;
    return d !== undefined
      ? d.pread(this.w.fd, n, this.w.rawPointer)
      : this.#oneShot.pread(this.w.fd, scratch, 0, n, this.w.rawPointer);
  }

  /** Slow path of a primitive write (`room`): the index in the window where `n` bytes go (then {@link Window.commit}). */
  room(n: number): number {
    const w = this.w;
    w.beginWrite();
    while (planRoom(w, n) === IO) this.#io();
    return w.progress.readyIndex;
  }

  /** `flushAll`: writes the dirty range to the file. */
  flushAll(): void {
    const w = this.w;
    w.settle();
    if (!w.dirty) return;
    // The one `pwrite` planFlush would ask for, made directly; any answer but the whole range (short, an
    // error, EINTR) is that planned call's, and the window takes it over.
    const n = w.dirtyTo - w.dirtyFrom;
    const r = this.#oneShot.pwrite(w.fd, w.dirtyBytes(), 0, n, w.start + w.dirtyFrom);
    if (r === n) {
      w.flushed(n);
      return;
    }
    requestFlush(w);
    complete(w, r);
    while (planFlush(w) === IO) this.#io();
  }

  /**
   * A read that {@link Window.bypasses} the window: `pread`s straight into `dst[off…]` at `pos` until
   * `len` bytes or end of file (`some`: after the first that brings any, Java's `read(byte[])`). The same
   * system calls the window would ask for. Returns the bytes read; `advance` moves the pointer over
   * each transfer as it lands, so a failure leaves it after what arrived (as the window does). The
   * window is clean (see {@link Window.bypasses}), so the OS knows the file's true length.
   */
  preadDirect(
    pos: number,
    dst: Uint8Array,
    off: number,
    len: number,
    some: boolean,
    advance: boolean,
  ): number {
    const w = this.w;
    const b = this.backend;
    let done = 0;
    while (done < len) {
      const r = b.pread(w.fd, dst, off + done, len - done, pos + done);
      if (r > 0) {
        done += r;
        if (advance) w.pointer += r;
        if (some) break;
      } else if (r === 0) break;
      else if (r !== -EINTR) throw systemCallError(r, "read", w.path);
    }
    return done;
  }

  /** A write that {@link Window.bypasses} the window: `pwrite`s all of `src[off…off+len)` at `pos` (see {@link preadDirect}). */
  pwriteDirect(pos: number, src: Uint8Array, off: number, len: number, advance: boolean): void {
    const w = this.w;
    const b = this.backend;
    let done = 0;
    while (done < len) {
      const r = b.pwrite(w.fd, src, off + done, len - done, pos + done);
      if (r > 0) {
        done += r;
        if (advance) w.pointer += r;
      } else if (r !== -EINTR) throw systemCallError(r === 0 ? -EIO : r, "write", w.path);
    }
  }

  commit(i: number, n: number): void {
    if (this.w.commit(i, n)) this.flushAll();
  }

  /**
   * Slow path of a primitive write (no write run is open at the pointer, or every write takes this
   * path: `r`, `rws`/`rwd`, unbuffered, closed). Kept out of the writers so their hot path stays small.
   */
  putSlow<W>(p: Primitive<unknown, W>, v: W): void {
    const w = this.w;
    const n = p.width;
    const scratch = w.readOnly ? undefined : w.scratch(n);
    if (scratch !== undefined) {
      // Unbuffered: the one `pwrite` the window would plan, made directly from its scratch.
      p.set(w.codec, w.view, 0, v);
      const r = this.#pwriteScratch(scratch, n);
      if (r === n) {
        w.rawPointer += n;
        return;
      }
      // Anything else (short, an error, EINTR) was that planned flush: the window takes it over.
      w.beginWrite();
      planRoom(w, n);
      w.commit(0, n);
      planFlush(w);
      complete(w, r);
      this.flushAll();
      return;
    }
    // The writer's `runIndex` already tried the window as it stands: make room (flushing or moving it).
    const i = this.room(n);
    p.set(w.codec, w.view, i, v);
    this.commit(i, n);
  }

  /** `pwrite` of `n` bytes at the pointer from `scratch` (see {@link #preadScratch} for why a method of its own). */
  #pwriteScratch(scratch: Uint8Array, n: number): number {
    const d = this.#direct;
    return d !== undefined
      ? d.pwrite(this.w.fd, n, this.w.rawPointer)
      : this.#oneShot.pwrite(this.w.fd, scratch, 0, n, this.w.rawPointer);
  }

  /** Runs `op` at `position` (positional I/O): the file pointer does not move. */
  at<T>(position: number | bigint, op: Op<T>): T {
    return this.run(at(this.w, toPosition(position, "position"), op));
  }

  /** A bulk read (`readInts`, …) of `count` elements (default: to the end of `dst`) into an array of `kind`. */
  readArray(dst: NumericArray, off: number, count: number | undefined, kind: ArrayKind): void {
    const a = checkedArray(dst, kind, "dst");
    const n = rangeLength(off, count, a.length);
    this.run(readArray(this.w, this.order, a, off, n, kind.width));
  }

  /** A bulk write (`writeInts`, …) of `count` elements (default: to the end of `src`) from an array of `kind`. */
  writeArray(src: NumericArray, off: number, count: number | undefined, kind: ArrayKind): void {
    const a = checkedArray(src, kind, "src");
    const n = rangeLength(off, count, a.length);
    this.run(writeArray(this.w, this.order, a, off, n, kind.width));
  }
}
