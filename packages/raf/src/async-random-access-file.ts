import type { Readable, Writable } from "node:stream";
import type { ByteOrder } from "@rafkit/bits";
import {
  type Backend,
  type FileMode,
  type LockRequest,
  systemCallError,
} from "@rafkit/syscall-state";
import type { RandomAccessFileApi } from "./api";
import { ClosedError, checkFromIndexSize } from "./errors";
import { guard, unguard } from "./leak-guard";
import {
  AsyncFileLock,
  HeldLocks,
  LOCK_SYSCALL,
  type LockOptions,
  type LockRange,
  lockGranted,
  lockRequest,
  planLock,
} from "./locks";
import { latin1Of, openWindow, planOpen, rejectDirectoryAsync } from "./open-file";
import {
  at,
  charBytes,
  close,
  flush,
  flushAll,
  latin1Bytes,
  length,
  lock,
  type Op,
  readArray,
  readByte,
  readFully,
  readLine,
  readPrimitive,
  readSome,
  readUTF,
  setLength,
  skipBytes,
  sync,
  writeArray,
  writeBytes,
  writePrimitive,
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
import type { Window } from "./window";

/** The one settled promise every buffered write resolves with: the fast path allocates nothing. */
const DONE: Promise<void> = Promise.resolve();

/** Lets only `AsyncRandomAccessFile.open` construct. */
const OPENING = Symbol("opening");

/**
 * @internal The key of the hook that runs a job in an instance's call order (the browser entry's Web Locks);
 * a symbol, so it stays off the public surface both classes share.
 */
export const IN_TURN: unique symbol = Symbol("rafkit.inTurn");

/**
 * `RandomAccessFile` for servers: the same methods, names and semantics, returning Promises, over the
 * same window and codec core. I/O that reaches the OS runs off the main thread (koffi async calls on
 * the native backend, `node:fs` callbacks on the node one); reads and writes served from the window
 * resolve without any system call.
 *
 * Operations on one instance take effect **in call order**, even when not awaited one by one
 * (`Promise.all([f.readInt(), f.readInt()])` reads two consecutive ints): an internal queue runs one
 * operation at a time. A failed operation rejects its own promise only; the instance stays usable.
 *
 * @example
 * ```ts
 * import { AsyncRandomAccessFile } from "@rafkit/raf";
 * const f = await AsyncRandomAccessFile.open("data.bin", "rw");
 * await f.writeInt(42);
 * await f.seek(0);
 * await f.readInt(); // 42
 * await f.close();
 * ```
 */
export class AsyncRandomAccessFile implements RandomAccessFileApi<"async"> {
  readonly #w: Window;
  readonly #backend: Backend;
  readonly #order: ByteOrder;
  readonly #path: string;
  readonly #mode: FileMode;
  readonly #latin1: (buf: Uint8Array, from: number, to: number) => string;
  readonly #locks: HeldLocks;
  /** An operation is running; later ones wait in {@link #jobs}. */
  #busy = false;
  readonly #jobs: (() => void)[] = [];
  /** Cancels the `lock()` now waiting for another holder, if any. */
  #waiting: AbortController | undefined;
  /** {@link close} has been called (it may still be queued). */
  #closing = false;

  /** @internal Use {@link AsyncRandomAccessFile.open}. */
  constructor(token: symbol, plan: ReturnType<typeof planOpen>, fd: number) {
    if (token !== OPENING)
      throw new TypeError("Use AsyncRandomAccessFile.open(path, mode, options)");
    this.#backend = plan.backend;
    this.#order = plan.order;
    this.#path = plan.path;
    this.#mode = plan.mode;
    this.#w = openWindow(plan, fd);
    this.#latin1 = latin1Of(this.#w);
    this.#locks = new HeldLocks(this.#w);
    guard(this, this.#w, plan.backend);
  }

  /**
   * Opens `path` in `mode` (`"r"`, `"rw"`, `"rws"`, `"rwd"`, as `RandomAccessFile`), with the same
   * options. Rejects with a `TypeError` (Java's message) for any other mode, before any I/O; with the
   * Node-shaped error of `open` when the OS refuses.
   */
  static async open(
    path: string | URL,
    mode: FileMode,
    options: RandomAccessFileOptions = {},
  ): Promise<AsyncRandomAccessFile> {
    const plan = planOpen(path, mode, options);
    const fd = await plan.backend.openAsync(plan.path, plan.mode);
    if (fd < 0) throw systemCallError(fd, "open", plan.path);
    if (plan.mode === "r") await rejectDirectoryAsync(plan.backend, fd, plan.path);
    return new this(OPENING, plan, fd);
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

  // ---- the driver: the queue, and the one system call the window asks for, awaited ----

  /** Runs `job` now if nothing else is running, else after everything called before it. */
  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    if (!this.#busy) {
      this.#busy = true;
      return this.#start(job);
    }
    return new Promise<T>((resolve, reject) => {
      this.#jobs.push(() => {
        this.#start(job).then(resolve, reject);
      });
    });
  }

  /**
   * @internal Runs `job` in call order with this file's other operations: the hook of the browser entry,
   * whose Web Locks take their turn in this queue as the OS locks do. `job` must not call this instance's
   * queued methods (they would wait behind it).
   */
  protected [IN_TURN]<T>(job: () => Promise<T>): Promise<T> {
    return this.#enqueue(job);
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
    if (job === undefined) this.#busy = false;
    else job();
  }

  async #io(): Promise<void> {
    const w = this.#w;
    const b = this.#backend;
    if (w.isCall) {
      w.complete(await this.#call());
      return;
    }
    w.complete(
      await (w.request.isWrite
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
          )),
    );
  }

  /** The pending system call other than `pread`/`pwrite`, off the main thread: its raw result. */
  #call(): Promise<number> {
    const w = this.#w;
    const b = this.#backend;
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

  /** `lockAsync`; a waiting one can be cancelled by {@link close} (it then rejects with `ClosedError`). */
  async #lockCall(fd: number, request: LockRequest): Promise<number> {
    const b = this.#backend;
    if (!request.wait) return b.lockAsync(fd, request);
    // A close() already called would queue behind this wait forever: give up now, as if it had run.
    if (this.#closing) throw new ClosedError();
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
  async #drive<T>(op: Op<T>, started: boolean): Promise<T> {
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
  #submit<T>(make: () => Op<T>): Promise<T> {
    if (this.#busy) return this.#enqueue(() => this.#drive(make(), false));
    let op: Op<T>;
    let r: IteratorResult<void, T>;
    try {
      op = make();
      r = op.next();
    } catch (error) {
      return Promise.reject(error);
    }
    if (r.done === true) return Promise.resolve(r.value);
    this.#busy = true;
    return this.#start(() => this.#drive(op, true));
  }

  /** Hot path of a primitive read: decoded straight from the window when idle and the bytes are there. */
  #get<R>(p: Primitive<R, unknown>): Promise<R> {
    if (!this.#busy) {
      const w = this.#w;
      const i = w.takeRead(p.width);
      if (i >= 0) {
        try {
          return Promise.resolve(p.get(w.codec, w.view, i));
        } catch (error) {
          return Promise.reject(error);
        }
      }
    }
    return this.#submit(() => readPrimitive(this.#w, p));
  }

  /** Hot path of a primitive write: encoded straight into the window when idle and there is room. */
  #put<W>(p: Primitive<unknown, W>, value: W): Promise<void> {
    let v: W;
    try {
      v = p.coerce(value);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#busy) {
      const w = this.#w;
      const at = w.rawPointer;
      const i = w.runIndex(p.width);
      if (i >= 0) {
        try {
          p.set(w.codec, w.view, i, v);
        } catch (error) {
          return Promise.reject(error);
        }
        w.rawPointer = at + p.width;
        return DONE;
      }
    }
    return this.#submit(() => writePrimitive(this.#w, p, v));
  }

  /** Hot path of a positional primitive read: straight from the window when idle and the bytes are there. */
  #getAt<R>(position: number | bigint, p: Primitive<R, unknown>): Promise<R> {
    if (!this.#busy) {
      const w = this.#w;
      const i = w.takeReadAt(position, p.width);
      if (i >= 0) {
        try {
          return Promise.resolve(p.get(w.codec, w.view, i));
        } catch (error) {
          return Promise.reject(error);
        }
      }
    }
    return this.#at(position, () => readPrimitive(this.#w, p));
  }

  /** Hot path of a positional primitive write: straight into the window when idle and there is room. */
  #putAt<W>(position: number | bigint, p: Primitive<unknown, W>, value: W): Promise<void> {
    let v: W;
    try {
      v = p.coerce(value);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#busy) {
      const w = this.#w;
      const i = w.writeIndexAt(position, p.width);
      if (i >= 0) {
        try {
          p.set(w.codec, w.view, i, v);
        } catch (error) {
          return Promise.reject(error);
        }
        return w.commitAt(i, p.width) ? this.#submit(() => flushAll(w)) : DONE;
      }
    }
    return this.#at(position, () => writePrimitive(this.#w, p, v));
  }

  /** Runs the operation at `position` (positional I/O): the file pointer does not move. */
  #at<T>(position: number | bigint, make: () => Op<T>): Promise<T> {
    return this.#submit(() => at(this.#w, toPosition(position, "position"), make()));
  }

  // ---- DataInput ----

  read(): Promise<number>;
  read(buf: Uint8Array, off?: number, len?: number): Promise<number>;
  read(buf?: Uint8Array, off = 0, len?: number): Promise<number> {
    if (buf === undefined) {
      if (!this.#busy) {
        const w = this.#w;
        const i = w.takeRead(1);
        if (i >= 0) return Promise.resolve(w.buf[i]!);
      }
      return this.#submit(() => readByte(this.#w));
    }
    return this.#submit(() => {
      const n = len ?? buf.length - off;
      checkFromIndexSize(off, n, buf.length);
      return readSome(this.#w, buf, off, n);
    });
  }

  readFully(buf: Uint8Array, off = 0, len?: number): Promise<void> {
    return this.#submit(() => {
      const n = len === undefined ? buf.length - off : len;
      checkFromIndexSize(off, n, buf.length);
      return readFully(this.#w, buf, off, n);
    });
  }

  skipBytes(n: number): Promise<number> {
    return this.#enqueue(() => this.#drive(skipBytes(this.#w, n), false));
  }

  readBoolean(): Promise<boolean> {
    return this.#get(BOOLEAN);
  }

  readByte(): Promise<number> {
    return this.#get(BYTE);
  }

  readUnsignedByte(): Promise<number> {
    return this.#get(UNSIGNED_BYTE);
  }

  readShort(): Promise<number> {
    return this.#get(SHORT);
  }

  readUnsignedShort(): Promise<number> {
    return this.#get(UNSIGNED_SHORT);
  }

  readChar(): Promise<string> {
    return this.#get(CHAR);
  }

  readInt(): Promise<number> {
    return this.#get(INT);
  }

  readLong(): Promise<bigint> {
    return this.#get(LONG);
  }

  readLongAsNumber(): Promise<number> {
    return this.#get(LONG_AS_NUMBER);
  }

  readFloat(): Promise<number> {
    return this.#get(FLOAT);
  }

  readDouble(): Promise<number> {
    return this.#get(DOUBLE);
  }

  writeBoolean(v: boolean): Promise<void> {
    return this.#put(BOOLEAN as Primitive<unknown, boolean>, v);
  }

  writeByte(v: number): Promise<void> {
    return this.#put(BYTE as Primitive<unknown, number>, v);
  }

  writeShort(v: number): Promise<void> {
    return this.#put(SHORT as Primitive<unknown, number>, v);
  }

  writeChar(v: string | number): Promise<void> {
    return this.#put(CHAR as Primitive<unknown, string | number>, v);
  }

  writeInt(v: number): Promise<void> {
    return this.#put(INT as Primitive<unknown, number>, v);
  }

  writeLong(v: bigint | number): Promise<void> {
    return this.#put(LONG as Primitive<unknown, bigint | number>, v);
  }

  writeFloat(v: number): Promise<void> {
    return this.#put(FLOAT as Primitive<unknown, number>, v);
  }

  writeDouble(v: number): Promise<void> {
    return this.#put(DOUBLE as Primitive<unknown, number>, v);
  }

  readLine(): Promise<string | null> {
    return this.#submit(() => readLine(this.#w, this.#latin1));
  }

  readUTF(): Promise<string> {
    return this.#submit(() => readUTF(this.#w));
  }

  // ---- DataOutput ----

  write(b: number | Uint8Array, off = 0, len?: number): Promise<void> {
    if (typeof b === "number") return this.writeByte(b);
    return this.#submit(() => {
      const n = len ?? b.length - off;
      checkFromIndexSize(off, n, b.length);
      return writeBytes(this.#w, b, off, n);
    });
  }

  writeBytes(s: string): Promise<void> {
    return this.#submit(() => {
      const bytes = latin1Bytes(s);
      return writeBytes(this.#w, bytes, 0, bytes.length);
    });
  }

  writeChars(s: string): Promise<void> {
    return this.#submit(() => {
      const bytes = charBytes(this.#w.codec, s);
      return writeBytes(this.#w, bytes, 0, bytes.length);
    });
  }

  writeUTF(s: string): Promise<void> {
    return this.#submit(() => writeUTF(this.#w, s));
  }

  // ---- bulk ----

  readShorts(dst: Int16Array | Uint16Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? dst.length - off : count;
      checkFromIndexSize(off, n, dst.length);
      return readArray(this.#w, this.#order, dst, off, n, 2);
    });
  }

  writeShorts(src: Int16Array | Uint16Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? src.length - off : count;
      checkFromIndexSize(off, n, src.length);
      return writeArray(this.#w, this.#order, src, off, n, 2);
    });
  }

  readInts(dst: Int32Array | Uint32Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? dst.length - off : count;
      checkFromIndexSize(off, n, dst.length);
      return readArray(this.#w, this.#order, dst, off, n, 4);
    });
  }

  writeInts(src: Int32Array | Uint32Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? src.length - off : count;
      checkFromIndexSize(off, n, src.length);
      return writeArray(this.#w, this.#order, src, off, n, 4);
    });
  }

  readLongs(dst: BigInt64Array | BigUint64Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? dst.length - off : count;
      checkFromIndexSize(off, n, dst.length);
      return readArray(this.#w, this.#order, dst, off, n, 8);
    });
  }

  writeLongs(src: BigInt64Array | BigUint64Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? src.length - off : count;
      checkFromIndexSize(off, n, src.length);
      return writeArray(this.#w, this.#order, src, off, n, 8);
    });
  }

  readFloats(dst: Float32Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? dst.length - off : count;
      checkFromIndexSize(off, n, dst.length);
      return readArray(this.#w, this.#order, dst, off, n, 4);
    });
  }

  writeFloats(src: Float32Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? src.length - off : count;
      checkFromIndexSize(off, n, src.length);
      return writeArray(this.#w, this.#order, src, off, n, 4);
    });
  }

  readDoubles(dst: Float64Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? dst.length - off : count;
      checkFromIndexSize(off, n, dst.length);
      return readArray(this.#w, this.#order, dst, off, n, 8);
    });
  }

  writeDoubles(src: Float64Array, off = 0, count?: number): Promise<void> {
    return this.#submit(() => {
      const n = count === undefined ? src.length - off : count;
      checkFromIndexSize(off, n, src.length);
      return writeArray(this.#w, this.#order, src, off, n, 8);
    });
  }

  // ---- positional I/O: at an explicit position, the file pointer does not move ----

  readAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): Promise<number> {
    return this.#at(position, () => {
      const n = len === undefined ? buf.length - off : len;
      checkFromIndexSize(off, n, buf.length);
      return readSome(this.#w, buf, off, n);
    });
  }

  readFullyAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): Promise<void> {
    return this.#at(position, () => {
      const n = len === undefined ? buf.length - off : len;
      checkFromIndexSize(off, n, buf.length);
      return readFully(this.#w, buf, off, n);
    });
  }

  writeAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): Promise<void> {
    return this.#at(position, () => {
      const n = len === undefined ? buf.length - off : len;
      checkFromIndexSize(off, n, buf.length);
      return writeBytes(this.#w, buf, off, n);
    });
  }

  readBooleanAt(position: number | bigint): Promise<boolean> {
    return this.#getAt(position, BOOLEAN);
  }

  readByteAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, BYTE);
  }

  readUnsignedByteAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, UNSIGNED_BYTE);
  }

  readShortAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, SHORT);
  }

  readUnsignedShortAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, UNSIGNED_SHORT);
  }

  readCharAt(position: number | bigint): Promise<string> {
    return this.#getAt(position, CHAR);
  }

  readIntAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, INT);
  }

  readLongAt(position: number | bigint): Promise<bigint> {
    return this.#getAt(position, LONG);
  }

  readLongAsNumberAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, LONG_AS_NUMBER);
  }

  readFloatAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, FLOAT);
  }

  readDoubleAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, DOUBLE);
  }

  readUTFAt(position: number | bigint): Promise<string> {
    return this.#at(position, () => readUTF(this.#w));
  }

  writeBooleanAt(position: number | bigint, v: boolean): Promise<void> {
    return this.#putAt(position, BOOLEAN as Primitive<unknown, boolean>, v);
  }

  writeByteAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, BYTE as Primitive<unknown, number>, v);
  }

  writeShortAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, SHORT as Primitive<unknown, number>, v);
  }

  writeCharAt(position: number | bigint, v: string | number): Promise<void> {
    return this.#putAt(position, CHAR as Primitive<unknown, string | number>, v);
  }

  writeIntAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, INT as Primitive<unknown, number>, v);
  }

  writeLongAt(position: number | bigint, v: bigint | number): Promise<void> {
    return this.#putAt(position, LONG as Primitive<unknown, bigint | number>, v);
  }

  writeFloatAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, FLOAT as Primitive<unknown, number>, v);
  }

  writeDoubleAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, DOUBLE as Primitive<unknown, number>, v);
  }

  writeUTFAt(position: number | bigint, s: string): Promise<void> {
    return this.#at(position, () => writeUTF(this.#w, s));
  }

  // ---- position and length ----

  getFilePointer(): Promise<number> {
    if (!this.#busy) {
      const w = this.#w;
      if (w.closed) return Promise.reject(new ClosedError());
      return Promise.resolve(w.pointer);
    }
    return this.#enqueue(async () => {
      this.#w.begin();
      return this.#w.pointer;
    });
  }

  seek(pos: number | bigint): Promise<void> {
    if (!this.#busy) {
      try {
        this.#w.begin();
        this.#w.pointer = toPosition(pos, "seek offset");
      } catch (error) {
        return Promise.reject(error);
      }
      return DONE;
    }
    return this.#enqueue(async () => {
      this.#w.begin();
      this.#w.pointer = toPosition(pos, "seek offset");
    });
  }

  length(): Promise<number> {
    return this.#enqueue(() => this.#drive(length(this.#w), false));
  }

  setLength(newLength: number | bigint): Promise<void> {
    return this.#enqueue(() => this.#drive(setLength(this.#w, newLength, this.#path), false));
  }

  flush(): Promise<void> {
    return this.#enqueue(() => this.#drive(flush(this.#w), false));
  }

  sync(): Promise<void> {
    return this.#enqueue(() => this.#drive(sync(this.#w, false), false));
  }

  datasync(): Promise<void> {
    return this.#enqueue(() => this.#drive(sync(this.#w, true), false));
  }

  // ---- locks ----

  lock(options: LockOptions = {}): Promise<AsyncFileLock> {
    return this.#enqueue(() => this.#lock(options, true)) as Promise<AsyncFileLock>;
  }

  tryLock(options: LockOptions = {}): Promise<AsyncFileLock | null> {
    return this.#enqueue(() => this.#lock(options, false));
  }

  async #lock(options: LockOptions, wait: boolean): Promise<AsyncFileLock | null> {
    const w = this.#w;
    w.begin();
    const range = planLock(options, this.#mode, this.#backend);
    this.#locks.check(range);
    if (!wait) return this.#tryLockNow(range);
    // In the thread's registry from before the OS call: the backend takes the lock synchronously (its
    // first attempt) or on a timer, and this promise settles turns later; a sync lock() of another
    // instance run meanwhile would otherwise wait forever for a holder it cannot see.
    const record = this.#locks.reserve(range);
    let granted = false;
    try {
      const r = await this.#drive(lock(w, lockRequest(range, wait)), false);
      granted = lockGranted(r, this.#backend, this.#path);
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
  async #tryLockNow(range: LockRange): Promise<AsyncFileLock | null> {
    const w = this.#w;
    // Flushed first, as the shared `lock` operation does (a failure: no attempt, nothing recorded).
    const flushing = flushAll(w);
    if (flushing.next().done !== true) await this.#drive(flushing, true);
    const r = this.#backend.lock(w.fd, lockRequest(range, false));
    if (!lockGranted(r, this.#backend, this.#path)) return null;
    w.discard();
    return this.#locks.add(new AsyncFileLock(range, this.#locks, (l) => this.#unlock(l)));
  }

  #unlock(held: AsyncFileLock): Promise<void> {
    return this.#enqueue(async () => {
      const w = this.#w;
      if (w.closed || !held.isValid()) return;
      // Flushed first, so the next holder sees what was written under the lock (a failure keeps it held).
      // Nothing to flush: no await, so the lock goes during release() itself, as the sync class's.
      const flushing = flushAll(w);
      if (flushing.next().done !== true) await this.#drive(flushing, true);
      // F_UNLCK never waits: made here, in the same turn as the thread's record drops the lock, so no sync
      // lock() can run in between and take a lock that is gone for one still held (see `HeldLocks`).
      const { position, length } = lockRequest(held, false);
      const r = this.#backend.unlock(w.fd, position, length);
      if (r < 0) throw systemCallError(r, LOCK_SYSCALL, w.path);
      held.released();
    });
  }

  // ---- streams ----

  createReadStream(options: ReadStreamOptions = {}): Readable {
    return createRangeReadStream(this, options);
  }

  createWriteStream(options: WriteStreamOptions = {}): Writable {
    return createRangeWriteStream(this, options);
  }

  // ---- closing ----

  close(): Promise<void> {
    // Cancel a lock() still waiting for another holder: the close queued behind it could never run.
    this.#closing = true;
    this.#waiting?.abort();
    const w = this.#w;
    return this.#enqueue(() =>
      this.#drive(
        close(w, () => {
          this.#locks.closed();
          unguard(w);
        }),
        false,
      ),
    );
  }

  /** `await using f = await AsyncRandomAccessFile.open(…)` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
