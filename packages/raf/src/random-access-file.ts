import type { Readable, Writable } from "node:stream";
import type { ByteOrder, NumericArray } from "@rafkit/bits";
import { errnoOf, type FileMode, type SyncBackend, systemCallError } from "@rafkit/syscall-state";
import type { RandomAccessFileApi } from "./api";
import { checkFromIndexSize, EOFError } from "./errors";
import { guard, unguard } from "./leak-guard";
import { FileLock, HeldLocks, type LockOptions, lockGranted, lockRequest, planLock } from "./locks";
import { latin1Of, openWindow, planOpen, rejectDirectory } from "./open-file";
import {
  at,
  charBytes,
  close,
  latin1Bytes,
  lock,
  type Op,
  readArray,
  readByte,
  readFully,
  readLine,
  readSome,
  readUTF,
  setLength,
  skipBytes,
  sync,
  unlock,
  writeArray,
  writeBytes,
  writeUTF,
} from "./operations";
import type { RandomAccessFileOptions } from "./options";
import { toPosition } from "./position";
import {
  BOOLEAN,
  BYTE,
  CHAR,
  DOUBLE,
  FLOAT,
  INT,
  LONG,
  LONG_AS_NUMBER,
  type Primitive,
  SHORT,
  UNSIGNED_BYTE,
  UNSIGNED_SHORT,
} from "./primitives";
import {
  createRangeReadStream,
  createRangeWriteStream,
  type ReadStreamOptions,
  type WriteStreamOptions,
} from "./streams";
import { IO, type Step, type Window } from "./window";

const EINTR = errnoOf("EINTR");
const EIO = errnoOf("EIO");

/**
 * `java.io.RandomAccessFile` for Node.js: Java's names and semantics, `DataInput`/`DataOutput`
 * byte-compatible with the JDK, plus one buffer ("window") that serves reads and writes so most
 * primitive calls cost no system call at all. With `bufferSize: 0` it behaves exactly as the JDK:
 * one system call per primitive.
 *
 * All I/O goes through a `@rafkit/syscall-state` backend; OS failures throw its Node-shaped errors
 * (`code`, `errno`, `syscall`, `path`). Unflushed writes are visible to this instance's reads and to
 * {@link length}; they reach the OS on {@link flush}, {@link sync}, {@link setLength}, {@link close},
 * when the window moves elsewhere, and after every write call in modes `rws`/`rwd`.
 *
 * @example
 * ```ts
 * import { RandomAccessFile } from "@rafkit/raf";
 * const f = new RandomAccessFile("data.bin", "rw");
 * f.writeInt(42);
 * f.writeUTF("héllo");
 * f.seek(0);
 * f.readInt(); // 42
 * f.readUTF(); // "héllo"
 * f.close();
 * ```
 */
export class RandomAccessFile implements RandomAccessFileApi<"sync"> {
  readonly #w: Window;
  readonly #backend: SyncBackend;
  readonly #order: ByteOrder;
  readonly #path: string;
  readonly #mode: FileMode;
  readonly #latin1: (buf: Uint8Array, from: number, to: number) => string;
  readonly #locks: HeldLocks;

  /**
   * Opens `path` in `mode`: `"r"` (read only), `"rw"` (read/write, created if missing), `"rws"`
   * (every write also syncs content and metadata), `"rwd"` (every write also syncs content).
   * Throws a `TypeError` with Java's message for any other mode, before any I/O; the Node-shaped
   * error of `open` when the OS refuses.
   */
  constructor(path: string | URL, mode: FileMode, options: RandomAccessFileOptions = {}) {
    const plan = planOpen(path, mode, options);
    const backend = plan.backend;
    this.#order = plan.order;
    this.#backend = backend;
    this.#path = plan.path;
    this.#mode = plan.mode;
    const fd = backend.open(plan.path, plan.mode);
    if (fd < 0) throw systemCallError(fd, "open", plan.path);
    if (plan.mode === "r") rejectDirectory(backend, fd, plan.path);
    this.#w = openWindow(plan, fd);
    this.#latin1 = latin1Of(this.#w);
    this.#locks = new HeldLocks(this.#w);
    guard(this, this.#w, backend);
  }

  get path(): string {
    return this.#path;
  }

  get mode(): FileMode {
    return this.#mode;
  }

  get fd(): number {
    return this.#w.closed ? -1 : this.#w.fd;
  }

  get closed(): boolean {
    return this.#w.closed;
  }

  get byteOrder(): ByteOrder {
    return this.#order;
  }

  get bufferSize(): number {
    return this.#w.capacity;
  }

  get backendName(): string {
    return this.#backend.name;
  }

  // ---- the driver: performs the one system call the window asks for ----

  #io(): void {
    const w = this.#w;
    const b = this.#backend;
    if (w.isCall) {
      w.complete(this.#call());
      return;
    }
    w.complete(
      w.request.isWrite
        ? b.pwrite(w.fd, w.request.buffer, w.request.offset, w.request.length, w.request.position)
        : b.pread(w.fd, w.request.buffer, w.request.offset, w.request.length, w.request.position),
    );
  }

  /** The pending system call other than `pread`/`pwrite`: its raw result. */
  #call(): number {
    const w = this.#w;
    const b = this.#backend;
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

  /** Runs a shared operation to completion, making each system call it yields for. */
  #run<T>(op: Op<T>): T {
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
  }

  // The slow paths of primitives (every primitive when unbuffered) are the shared operations `fill`,
  // `room` and `flushAll` driven by plain loops: they have no `finally`, so an error thrown by the
  // system call propagates exactly as when thrown into the generator, minus its cost.

  /** Slow path of a primitive read (`fill`): the index of `n` bytes in the window, consumed; EOFError when short. */
  #fill(n: number): number {
    const w = this.#w;
    const v = w.scratch(n);
    if (v !== undefined) {
      // Unbuffered: the one `pread` the window would plan, made directly.
      const r = this.#preadScratch(v, n);
      if (r === n) {
        w.pointer += n;
        return 0;
      }
      // Anything else (short, end of file, an error, EINTR) was that planned call: the window takes it over.
      w.begin();
      w.planRead(n);
      w.complete(r);
    } else w.begin();
    let s: Step;
    while ((s = w.planRead(n)) === IO) this.#io();
    return w.endPrimitiveRead(n, s);
  }

  /**
   * `pread` of `n` bytes at the pointer into `scratch`. A method of its own on purpose: inlined into
   * `#fill`, the backend's call chain used up V8's inlining budget of the primitive readers, which made
   * buffered reads ~1.5x slower in a process that also reads unbuffered.
   */
  #preadScratch(scratch: Uint8Array, n: number): number {
    return this.#backend.pread(this.#w.fd, scratch, 0, n, this.#w.pointer);
  }

  /** Slow path of a primitive write (`room`): the index in the window where `n` bytes go (then {@link Window.commit}). */
  #room(n: number): number {
    const w = this.#w;
    w.beginWrite();
    while (w.planRoom(n) === IO) this.#io();
    return w.progress.readyIndex;
  }

  /** `flushAll`: writes the dirty range to the file. */
  #flushAll(): void {
    const w = this.#w;
    while (w.planFlush() === IO) this.#io();
  }

  /**
   * A read that {@link Window.bypasses} the window: `pread`s straight into `dst[off…]` at `pos` until
   * `len` bytes or end of file (`some`: after the first that brings any, Java's `read(byte[])`). The same
   * system calls the window would ask for. Returns the bytes read; `advance` moves the pointer over
   * each transfer as it lands, so a failure leaves it after what arrived (as the window does). The
   * window is clean (see {@link Window.bypasses}), so the OS knows the file's true length.
   */
  #preadDirect(
    pos: number,
    dst: Uint8Array,
    off: number,
    len: number,
    some: boolean,
    advance: boolean,
  ): number {
    const w = this.#w;
    const b = this.#backend;
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

  /** A write that {@link Window.bypasses} the window: `pwrite`s all of `src[off…off+len)` at `pos` (see {@link #preadDirect}). */
  #pwriteDirect(pos: number, src: Uint8Array, off: number, len: number, advance: boolean): void {
    const w = this.#w;
    const b = this.#backend;
    let done = 0;
    while (done < len) {
      const r = b.pwrite(w.fd, src, off + done, len - done, pos + done);
      if (r > 0) {
        done += r;
        if (advance) w.pointer += r;
      } else if (r !== -EINTR) throw systemCallError(r === 0 ? -EIO : r, "write", w.path);
    }
  }

  #commit(i: number, n: number): void {
    if (this.#w.commit(i, n)) this.#flushAll();
  }

  /**
   * Slow path of a primitive write (no write run is open at the pointer, or every write takes this
   * path: `r`, `rws`/`rwd`, unbuffered, closed). Kept out of the writers so their hot path stays small.
   */
  #putSlow<W>(p: Primitive<unknown, W>, v: W): void {
    const w = this.#w;
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
      w.planRoom(n);
      w.commit(0, n);
      w.planFlush();
      w.complete(r);
      this.#flushAll();
      return;
    }
    // The writer's `runIndex` already tried the window as it stands: make room (flushing or moving it).
    const i = this.#room(n);
    p.set(w.codec, w.view, i, v);
    this.#commit(i, n);
  }

  /** `pwrite` of `n` bytes at the pointer from `scratch` (see {@link #preadScratch} for why a method of its own). */
  #pwriteScratch(scratch: Uint8Array, n: number): number {
    return this.#backend.pwrite(this.#w.fd, scratch, 0, n, this.#w.rawPointer);
  }

  #checkOpen(): void {
    this.#w.begin();
  }

  /** A positional primitive read: straight from the window when the bytes are there. */
  #getAt<R>(position: number | bigint, p: Primitive<R, unknown>): R {
    const w = this.#w;
    const i = w.takeReadAt(position, p.width);
    if (i >= 0) return p.get(w.codec, w.view, i);
    // `readPrimitive` at `position` (as `at` runs it), without its generators.
    const pos = toPosition(position, "position");
    const saved = w.pointer;
    w.pointer = pos;
    try {
      let j = w.takeRead(p.width);
      if (j < 0) j = this.#fill(p.width);
      return p.get(w.codec, w.view, j);
    } finally {
      w.pointer = saved;
    }
  }

  /** A positional primitive write: straight into the window when there is room. */
  #putAt<W>(position: number | bigint, p: Primitive<unknown, W>, value: W): void {
    const v = p.coerce(value);
    const w = this.#w;
    const i = w.writeIndexAt(position, p.width);
    if (i < 0) {
      // `writePrimitive` at `position` (as `at` runs it), without its generators.
      const pos = toPosition(position, "position");
      const saved = w.pointer;
      w.pointer = pos;
      try {
        let j = w.writeIndex(p.width);
        if (j < 0) j = this.#room(p.width);
        p.set(w.codec, w.view, j, v);
        this.#commit(j, p.width);
      } finally {
        w.pointer = saved;
      }
      return;
    }
    p.set(w.codec, w.view, i, v);
    if (w.commitAt(i, p.width)) this.#flushAll();
  }

  /** Runs `op` at `position` (positional I/O): the file pointer does not move. */
  #at<T>(position: number | bigint, op: Op<T>): T {
    return this.#run(at(this.#w, toPosition(position, "position"), op));
  }

  // ---- DataInput ----

  read(): number;
  read(buf: Uint8Array, off?: number, len?: number): number;
  read(buf?: Uint8Array, off = 0, len?: number): number {
    if (buf === undefined) {
      const w = this.#w;
      const i = w.takeRead(1);
      if (i >= 0) return w.buf[i]!;
      return this.#run(readByte(w));
    }
    const n = len ?? buf.length - off;
    checkFromIndexSize(off, n, buf.length);
    const w = this.#w;
    if (w.bypasses(w.pointer, n))
      return this.#preadDirect(w.pointer, buf, off, n, true, true) || -1;
    return this.#run(readSome(w, buf, off, n));
  }

  readFully(buf: Uint8Array, off = 0, len: number = buf.length - off): void {
    checkFromIndexSize(off, len, buf.length);
    const w = this.#w;
    if (w.bypasses(w.pointer, len)) {
      if (this.#preadDirect(w.pointer, buf, off, len, false, true) < len) throw new EOFError();
      return;
    }
    this.#run(readFully(w, buf, off, len));
  }

  skipBytes(n: number): number {
    return this.#run(skipBytes(this.#w, n));
  }

  readBoolean(): boolean {
    const w = this.#w;
    let i = w.takeRead(1);
    if (i < 0) i = this.#fill(1);
    return w.codec.getBoolean(w.view, i);
  }

  readByte(): number {
    const w = this.#w;
    let i = w.takeRead(1);
    if (i < 0) i = this.#fill(1);
    return w.codec.getInt8(w.view, i);
  }

  readUnsignedByte(): number {
    const w = this.#w;
    let i = w.takeRead(1);
    if (i < 0) i = this.#fill(1);
    return w.codec.getUint8(w.view, i);
  }

  readShort(): number {
    const w = this.#w;
    let i = w.takeRead(2);
    if (i < 0) i = this.#fill(2);
    return w.codec.getInt16(w.view, i);
  }

  readUnsignedShort(): number {
    const w = this.#w;
    let i = w.takeRead(2);
    if (i < 0) i = this.#fill(2);
    return w.codec.getUint16(w.view, i);
  }

  readChar(): string {
    const w = this.#w;
    let i = w.takeRead(2);
    if (i < 0) i = this.#fill(2);
    return w.codec.getChar(w.view, i);
  }

  readInt(): number {
    const w = this.#w;
    let i = w.takeRead(4);
    if (i < 0) i = this.#fill(4);
    return w.codec.getInt32(w.view, i);
  }

  readLong(): bigint {
    const w = this.#w;
    let i = w.takeRead(8);
    if (i < 0) i = this.#fill(8);
    return w.codec.getBigInt64(w.view, i);
  }

  readLongAsNumber(): number {
    const w = this.#w;
    let i = w.takeRead(8);
    if (i < 0) i = this.#fill(8);
    return w.codec.getSafeInt64(w.view, i);
  }

  readFloat(): number {
    const w = this.#w;
    let i = w.takeRead(4);
    if (i < 0) i = this.#fill(4);
    return w.codec.getFloat32(w.view, i);
  }

  readDouble(): number {
    const w = this.#w;
    let i = w.takeRead(8);
    if (i < 0) i = this.#fill(8);
    return w.codec.getFloat64(w.view, i);
  }

  readLine(): string | null {
    return this.#run(readLine(this.#w, this.#latin1));
  }

  readUTF(): string {
    return this.#run(readUTF(this.#w));
  }

  // ---- bulk reads ----

  readShorts(dst: Int16Array | Uint16Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 2);
  }

  readInts(dst: Int32Array | Uint32Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 4);
  }

  readLongs(dst: BigInt64Array | BigUint64Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 8);
  }

  readFloats(dst: Float32Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 4);
  }

  readDoubles(dst: Float64Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 8);
  }

  #readArray(dst: NumericArray, off: number, count: number, width: number): void {
    checkFromIndexSize(off, count, dst.length);
    this.#run(readArray(this.#w, this.#order, dst, off, count, width));
  }

  // ---- DataOutput ----

  write(b: number | Uint8Array, off = 0, len?: number): void {
    if (typeof b === "number") {
      this.writeByte(b);
      return;
    }
    const n = len ?? b.length - off;
    checkFromIndexSize(off, n, b.length);
    const w = this.#w;
    if (!w.readOnly && w.bypasses(w.pointer, n)) this.#pwriteDirect(w.pointer, b, off, n, true);
    else this.#run(writeBytes(w, b, off, n));
  }

  // The primitive writers convert their argument first (`+v`, free for a number): the hot path reads
  // the pointer before encoding and stores it after, so a `valueOf` that moved it in between would
  // lose the write.

  writeBoolean(v: boolean): void {
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(1);
    if (i >= 0) {
      w.codec.setBoolean(w.view, i, v);
      w.rawPointer = p + 1;
    } else this.#putSlow(BOOLEAN, v);
  }

  writeByte(v: number): void {
    v = +v;
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(1);
    if (i >= 0) {
      w.codec.setInt8(w.view, i, v);
      w.rawPointer = p + 1;
    } else this.#putSlow(BYTE, v);
  }

  writeShort(v: number): void {
    v = +v;
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(2);
    if (i >= 0) {
      w.codec.setInt16(w.view, i, v);
      w.rawPointer = p + 2;
    } else this.#putSlow(SHORT, v);
  }

  writeChar(v: string | number): void {
    if (typeof v !== "string") v = +v;
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(2);
    if (i >= 0) {
      w.codec.setChar(w.view, i, v);
      w.rawPointer = p + 2;
    } else this.#putSlow(CHAR, v);
  }

  writeInt(v: number): void {
    v = +v;
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(4);
    if (i >= 0) {
      w.codec.setInt32(w.view, i, v);
      w.rawPointer = p + 4;
    } else this.#putSlow(INT, v);
  }

  writeLong(v: bigint | number): void {
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(8);
    if (i >= 0) {
      if (typeof v === "bigint") w.codec.setBigInt64(w.view, i, v);
      else w.codec.setSafeInt64(w.view, i, v);
      w.rawPointer = p + 8;
    } else this.#putSlow(LONG, v);
  }

  writeFloat(v: number): void {
    v = +v;
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(4);
    if (i >= 0) {
      w.codec.setFloat32(w.view, i, v);
      w.rawPointer = p + 4;
    } else this.#putSlow(FLOAT, v);
  }

  writeDouble(v: number): void {
    v = +v;
    const w = this.#w;
    const p = w.rawPointer;
    const i = w.runIndex(8);
    if (i >= 0) {
      w.codec.setFloat64(w.view, i, v);
      w.rawPointer = p + 8;
    } else this.#putSlow(DOUBLE, v);
  }

  writeBytes(s: string): void {
    const bytes = latin1Bytes(s);
    this.#run(writeBytes(this.#w, bytes, 0, bytes.length));
  }

  writeChars(s: string): void {
    const bytes = charBytes(this.#w.codec, s);
    this.#run(writeBytes(this.#w, bytes, 0, bytes.length));
  }

  writeUTF(s: string): void {
    this.#run(writeUTF(this.#w, s));
  }

  // ---- bulk writes ----

  writeShorts(src: Int16Array | Uint16Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 2);
  }

  writeInts(src: Int32Array | Uint32Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 4);
  }

  writeLongs(src: BigInt64Array | BigUint64Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 8);
  }

  writeFloats(src: Float32Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 4);
  }

  writeDoubles(src: Float64Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 8);
  }

  #writeArray(src: NumericArray, off: number, count: number, width: number): void {
    checkFromIndexSize(off, count, src.length);
    this.#run(writeArray(this.#w, this.#order, src, off, count, width));
  }

  // ---- positional I/O: at an explicit position, the file pointer does not move ----

  readAt(
    position: number | bigint,
    buf: Uint8Array,
    off = 0,
    len: number = buf.length - off,
  ): number {
    checkFromIndexSize(off, len, buf.length);
    const pos = toPosition(position, "position");
    const w = this.#w;
    if (w.bypasses(pos, len)) return this.#preadDirect(pos, buf, off, len, true, false) || -1;
    return this.#run(at(w, pos, readSome(w, buf, off, len)));
  }

  readFullyAt(
    position: number | bigint,
    buf: Uint8Array,
    off = 0,
    len: number = buf.length - off,
  ): void {
    checkFromIndexSize(off, len, buf.length);
    const pos = toPosition(position, "position");
    const w = this.#w;
    if (w.bypasses(pos, len)) {
      if (this.#preadDirect(pos, buf, off, len, false, false) < len) throw new EOFError();
      return;
    }
    this.#run(at(w, pos, readFully(w, buf, off, len)));
  }

  writeAt(
    position: number | bigint,
    buf: Uint8Array,
    off = 0,
    len: number = buf.length - off,
  ): void {
    checkFromIndexSize(off, len, buf.length);
    const pos = toPosition(position, "position");
    const w = this.#w;
    if (!w.readOnly && w.bypasses(pos, len)) this.#pwriteDirect(pos, buf, off, len, false);
    else this.#run(at(w, pos, writeBytes(w, buf, off, len)));
  }

  readBooleanAt(position: number | bigint): boolean {
    return this.#getAt(position, BOOLEAN);
  }

  readByteAt(position: number | bigint): number {
    return this.#getAt(position, BYTE);
  }

  readUnsignedByteAt(position: number | bigint): number {
    return this.#getAt(position, UNSIGNED_BYTE);
  }

  readShortAt(position: number | bigint): number {
    return this.#getAt(position, SHORT);
  }

  readUnsignedShortAt(position: number | bigint): number {
    return this.#getAt(position, UNSIGNED_SHORT);
  }

  readCharAt(position: number | bigint): string {
    return this.#getAt(position, CHAR);
  }

  readIntAt(position: number | bigint): number {
    return this.#getAt(position, INT);
  }

  readLongAt(position: number | bigint): bigint {
    return this.#getAt(position, LONG);
  }

  readLongAsNumberAt(position: number | bigint): number {
    return this.#getAt(position, LONG_AS_NUMBER);
  }

  readFloatAt(position: number | bigint): number {
    return this.#getAt(position, FLOAT);
  }

  readDoubleAt(position: number | bigint): number {
    return this.#getAt(position, DOUBLE);
  }

  readUTFAt(position: number | bigint): string {
    return this.#at(position, readUTF(this.#w));
  }

  writeBooleanAt(position: number | bigint, v: boolean): void {
    this.#putAt(position, BOOLEAN as Primitive<unknown, boolean>, v);
  }

  writeByteAt(position: number | bigint, v: number): void {
    this.#putAt(position, BYTE as Primitive<unknown, number>, v);
  }

  writeShortAt(position: number | bigint, v: number): void {
    this.#putAt(position, SHORT as Primitive<unknown, number>, v);
  }

  writeCharAt(position: number | bigint, v: string | number): void {
    this.#putAt(position, CHAR as Primitive<unknown, string | number>, v);
  }

  writeIntAt(position: number | bigint, v: number): void {
    this.#putAt(position, INT as Primitive<unknown, number>, v);
  }

  writeLongAt(position: number | bigint, v: bigint | number): void {
    this.#putAt(position, LONG as Primitive<unknown, bigint | number>, v);
  }

  writeFloatAt(position: number | bigint, v: number): void {
    this.#putAt(position, FLOAT as Primitive<unknown, number>, v);
  }

  writeDoubleAt(position: number | bigint, v: number): void {
    this.#putAt(position, DOUBLE as Primitive<unknown, number>, v);
  }

  writeUTFAt(position: number | bigint, s: string): void {
    this.#at(position, writeUTF(this.#w, s));
  }

  // ---- position and length ----

  getFilePointer(): number {
    this.#checkOpen();
    return this.#w.pointer;
  }

  seek(pos: number | bigint): void {
    this.#checkOpen();
    this.#w.pointer = toPosition(pos, "seek offset");
  }

  length(): number {
    // The shared `length` operation, minus the generator.
    const w = this.#w;
    w.begin();
    const r = this.#backend.size(w.fd);
    if (r < 0) throw systemCallError(r, "fstat", w.path);
    return w.logicalLength(r);
  }

  setLength(newLength: number | bigint): void {
    this.#run(setLength(this.#w, newLength, this.#path));
  }

  flush(): void {
    // The shared `flush` operation, minus the generator: nothing to allocate on the sync path.
    this.#w.begin();
    this.#flushAll();
  }

  sync(): void {
    this.#run(sync(this.#w, false));
  }

  datasync(): void {
    this.#run(sync(this.#w, true));
  }

  // ---- locks ----

  lock(options: LockOptions = {}): FileLock {
    return this.#lock(options, true) as FileLock;
  }

  tryLock(options: LockOptions = {}): FileLock | null {
    return this.#lock(options, false);
  }

  #lock(options: LockOptions, wait: boolean): FileLock | null {
    this.#checkOpen();
    const range = planLock(options, this.#mode, this.#backend);
    this.#locks.check(range);
    // Without waiting first: only a conflict needs the (rarer, costlier) look at this thread's other holders.
    let granted = lockGranted(
      this.#run(lock(this.#w, lockRequest(range, false))),
      this.#backend,
      this.#path,
    );
    if (!granted && wait) {
      this.#locks.checkThread(range);
      granted = lockGranted(
        this.#run(lock(this.#w, lockRequest(range, true))),
        this.#backend,
        this.#path,
      );
    }
    if (!granted) return null;
    return this.#locks.add(new FileLock(range, this.#locks, (l) => this.#unlock(l)));
  }

  #unlock(held: FileLock): void {
    if (this.#w.closed) return;
    this.#run(unlock(this.#w, lockRequest(held, false)));
    held.released();
  }

  // ---- streams ----

  createReadStream(options: ReadStreamOptions = {}): Readable {
    return createRangeReadStream(this, options);
  }

  createWriteStream(options: WriteStreamOptions = {}): Writable {
    return createRangeWriteStream(this, options);
  }

  close(): void {
    const w = this.#w;
    this.#run(
      close(w, () => {
        this.#locks.closed();
        unguard(w);
      }),
    );
  }

  /** `using f = new RandomAccessFile(…)` closes it at the end of the block. */
  [Symbol.dispose](): void {
    this.close();
  }
}
