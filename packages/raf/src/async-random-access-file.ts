import type { Readable, Writable } from "node:stream";
import type { ByteOrder } from "@rafkit/bits";
import {
  type Backend,
  type FileMode,
  type LockRequest,
  systemCallError,
} from "@rafkit/syscall-state";
import { ClosedError, checkFromIndexSize } from "./errors";
import { guard, unguard } from "./leak-guard";
import {
  AsyncFileLock,
  HeldLocks,
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
export class AsyncRandomAccessFile {
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

  /** The path this file was opened with. */
  get path(): string {
    return this.#path;
  }

  /** The mode this file was opened with. */
  get mode(): FileMode {
    return this.#mode;
  }

  /** The OS file descriptor, or -1 once closed. Its file offset is unspecified (see `RandomAccessFile.fd`). */
  get fd(): number {
    return this.#w.closed ? -1 : this.#w.fd;
  }

  /** Whether the file has been closed (by a {@link close} that has run, not merely been called). */
  get closed(): boolean {
    return this.#w.closed;
  }

  /** The byte order of numeric primitives and bulk arrays. */
  get byteOrder(): ByteOrder {
    return this.#order;
  }

  /** The window size in bytes (0 = unbuffered). */
  get bufferSize(): number {
    return this.#w.capacity;
  }

  /** The name of the syscall-state backend doing the I/O. */
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
  protected inTurn<T>(job: () => Promise<T>): Promise<T> {
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
      await (w.ioWrite
        ? b.pwriteAsync(w.fd, w.ioBuf, w.ioOff, w.ioLen, w.ioPos)
        : b.preadAsync(w.fd, w.ioBuf, w.ioOff, w.ioLen, w.ioPos)),
    );
  }

  /** The pending system call other than `pread`/`pwrite`, off the main thread: its raw result. */
  #call(): Promise<number> {
    const w = this.#w;
    const b = this.#backend;
    const fd = w.fd;
    switch (w.call) {
      case "size":
        return b.sizeAsync(fd);
      case "truncate":
        return b.truncateAsync(fd, w.callLength);
      case "sync":
        return b.syncAsync(fd);
      case "datasync":
        return b.datasyncAsync(fd);
      case "lock":
        return this.#lockCall(fd, w.callLock!);
      case "unlock":
        // F_UNLCK never waits: a synchronous call.
        return Promise.resolve(b.unlock(fd, w.callLock!.position, w.callLock!.length));
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
      const at = w.pos;
      const i = w.runIndex(p.width);
      if (i >= 0) {
        try {
          p.set(w.codec, w.view, i, v);
        } catch (error) {
          return Promise.reject(error);
        }
        w.pos = at + p.width;
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

  /**
   * `read()`: the next byte (0–255), or -1 at end of file.
   * `read(buf, off?, len?)`: reads up to `len` bytes into `buf[off…]`: how many, or -1 at end of file
   * (never 0 unless `len` is 0); at most one system call.
   */
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

  /** Reads exactly `len` bytes into `buf[off…]`; rejects with {@link EOFError} if the file ends first. */
  readFully(buf: Uint8Array, off = 0, len: number = buf.length - off): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, len, buf.length);
      return readFully(this.#w, buf, off, len);
    });
  }

  /** Java's `skipBytes`: moves the pointer forward by up to `n` bytes, never past end of file. `n` must be an integer (else a `RangeError`). */
  skipBytes(n: number): Promise<number> {
    return this.#enqueue(() => this.#drive(skipBytes(this.#w, n), false));
  }

  /** Reads a byte: true when it is not 0. */
  readBoolean(): Promise<boolean> {
    return this.#get(BOOLEAN);
  }

  /** Reads a signed byte (-128–127). */
  readByte(): Promise<number> {
    return this.#get(BYTE);
  }

  /** Reads an unsigned byte (0–255). */
  readUnsignedByte(): Promise<number> {
    return this.#get(UNSIGNED_BYTE);
  }

  /** Reads a signed 16-bit integer. */
  readShort(): Promise<number> {
    return this.#get(SHORT);
  }

  /** Reads an unsigned 16-bit integer. */
  readUnsignedShort(): Promise<number> {
    return this.#get(UNSIGNED_SHORT);
  }

  /** Reads a `char`: one UTF-16 code unit, as a one-character string. */
  readChar(): Promise<string> {
    return this.#get(CHAR);
  }

  /** Reads a signed 32-bit integer. */
  readInt(): Promise<number> {
    return this.#get(INT);
  }

  /** Reads a signed 64-bit integer as a `bigint`. */
  readLong(): Promise<bigint> {
    return this.#get(LONG);
  }

  /** Reads a signed 64-bit integer as a `number`; rejects with a `RangeError` when it is not safe (its 8 bytes are consumed). */
  readLongAsNumber(): Promise<number> {
    return this.#get(LONG_AS_NUMBER);
  }

  /** Reads a 32-bit IEEE 754 float. */
  readFloat(): Promise<number> {
    return this.#get(FLOAT);
  }

  /** Reads a 64-bit IEEE 754 double. */
  readDouble(): Promise<number> {
    return this.#get(DOUBLE);
  }

  /** Writes 1 for true, 0 for false. */
  writeBoolean(v: boolean): Promise<void> {
    return this.#put(BOOLEAN as Primitive<unknown, boolean>, v);
  }

  /** Writes the low 8 bits of `v`. */
  writeByte(v: number): Promise<void> {
    return this.#put(BYTE as Primitive<unknown, number>, v);
  }

  /** Writes the low 16 bits of `v`. */
  writeShort(v: number): Promise<void> {
    return this.#put(SHORT as Primitive<unknown, number>, v);
  }

  /** Writes a `char`: the first code unit of a string, or the low 16 bits of a number. */
  writeChar(v: string | number): Promise<void> {
    return this.#put(CHAR as Primitive<unknown, string | number>, v);
  }

  /** Writes the low 32 bits of `v`. */
  writeInt(v: number): Promise<void> {
    return this.#put(INT as Primitive<unknown, number>, v);
  }

  /** Writes a 64-bit integer: a `bigint` modulo 2^64, or a safe-integer `number`. */
  writeLong(v: bigint | number): Promise<void> {
    return this.#put(LONG as Primitive<unknown, bigint | number>, v);
  }

  /** Writes a 32-bit float; NaN as Java's canonical NaN. */
  writeFloat(v: number): Promise<void> {
    return this.#put(FLOAT as Primitive<unknown, number>, v);
  }

  /** Writes a 64-bit double; NaN as Java's canonical NaN. */
  writeDouble(v: number): Promise<void> {
    return this.#put(DOUBLE as Primitive<unknown, number>, v);
  }

  /** Java's `readLine`: bytes up to `\n`, `\r` or `\r\n`, each one Latin-1 character; `null` only at end of file. */
  readLine(): Promise<string | null> {
    return this.#submit(() => readLine(this.#w, this.#latin1));
  }

  /** Reads a string in Java's `writeUTF` format; rejects with `UTFDataFormatError` when malformed. */
  readUTF(): Promise<string> {
    return this.#submit(() => readUTF(this.#w));
  }

  // ---- DataOutput ----

  /** `write(byte)`: the low 8 bits of a number. `write(buf, off?, len?)`: `len` bytes of `buf[off…]`. */
  write(b: number | Uint8Array, off = 0, len?: number): Promise<void> {
    if (typeof b === "number") return this.writeByte(b);
    return this.#submit(() => {
      const n = len ?? b.length - off;
      checkFromIndexSize(off, n, b.length);
      return writeBytes(this.#w, b, off, n);
    });
  }

  /** Java's `writeBytes`: the low 8 bits of each UTF-16 code unit of `s`, in one write. */
  writeBytes(s: string): Promise<void> {
    return this.#submit(() => {
      const bytes = latin1Bytes(s);
      return writeBytes(this.#w, bytes, 0, bytes.length);
    });
  }

  /** Java's `writeChars`: each UTF-16 code unit of `s` as 2 bytes (in this file's byte order), in one write. */
  writeChars(s: string): Promise<void> {
    return this.#submit(() => {
      const bytes = charBytes(this.#w.codec, s);
      return writeBytes(this.#w, bytes, 0, bytes.length);
    });
  }

  /** Java's `writeUTF`; rejects with `UTFDataFormatError`, writing nothing, beyond 65535 encoded bytes. */
  writeUTF(s: string): Promise<void> {
    return this.#submit(() => writeUTF(this.#w, s));
  }

  // ---- bulk ----

  /** Fills `dst[off … off+count)` with 16-bit integers; rejects with {@link EOFError} if the file ends first. */
  readShorts(
    dst: Int16Array | Uint16Array,
    off = 0,
    count: number = dst.length - off,
  ): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, dst.length);
      return readArray(this.#w, this.#order, dst, off, count, 2);
    });
  }

  /** Writes `src[off … off+count)` as 16-bit integers. */
  writeShorts(
    src: Int16Array | Uint16Array,
    off = 0,
    count: number = src.length - off,
  ): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, src.length);
      return writeArray(this.#w, this.#order, src, off, count, 2);
    });
  }

  /** Fills `dst[off … off+count)` with 32-bit integers; rejects with {@link EOFError} if the file ends first. */
  readInts(
    dst: Int32Array | Uint32Array,
    off = 0,
    count: number = dst.length - off,
  ): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, dst.length);
      return readArray(this.#w, this.#order, dst, off, count, 4);
    });
  }

  /** Writes `src[off … off+count)` as 32-bit integers. */
  writeInts(
    src: Int32Array | Uint32Array,
    off = 0,
    count: number = src.length - off,
  ): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, src.length);
      return writeArray(this.#w, this.#order, src, off, count, 4);
    });
  }

  /** Fills `dst[off … off+count)` with 64-bit integers; rejects with {@link EOFError} if the file ends first. */
  readLongs(
    dst: BigInt64Array | BigUint64Array,
    off = 0,
    count: number = dst.length - off,
  ): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, dst.length);
      return readArray(this.#w, this.#order, dst, off, count, 8);
    });
  }

  /** Writes `src[off … off+count)` as 64-bit integers. */
  writeLongs(
    src: BigInt64Array | BigUint64Array,
    off = 0,
    count: number = src.length - off,
  ): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, src.length);
      return writeArray(this.#w, this.#order, src, off, count, 8);
    });
  }

  /** Fills `dst[off … off+count)` with floats; rejects with {@link EOFError} if the file ends first. */
  readFloats(dst: Float32Array, off = 0, count: number = dst.length - off): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, dst.length);
      return readArray(this.#w, this.#order, dst, off, count, 4);
    });
  }

  /** Writes `src[off … off+count)` as floats. */
  writeFloats(src: Float32Array, off = 0, count: number = src.length - off): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, src.length);
      return writeArray(this.#w, this.#order, src, off, count, 4);
    });
  }

  /** Fills `dst[off … off+count)` with doubles; rejects with {@link EOFError} if the file ends first. */
  readDoubles(dst: Float64Array, off = 0, count: number = dst.length - off): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, dst.length);
      return readArray(this.#w, this.#order, dst, off, count, 8);
    });
  }

  /** Writes `src[off … off+count)` as doubles. */
  writeDoubles(src: Float64Array, off = 0, count: number = src.length - off): Promise<void> {
    return this.#submit(() => {
      checkFromIndexSize(off, count, src.length);
      return writeArray(this.#w, this.#order, src, off, count, 8);
    });
  }

  // ---- positional I/O: at an explicit position, the file pointer does not move ----

  /** Reads up to `len` bytes at `position` into `buf[off…]`: the bytes read, or -1 at end of file. Sees unflushed writes. */
  readAt(
    position: number | bigint,
    buf: Uint8Array,
    off = 0,
    len: number = buf.length - off,
  ): Promise<number> {
    return this.#at(position, () => {
      checkFromIndexSize(off, len, buf.length);
      return readSome(this.#w, buf, off, len);
    });
  }

  /** Reads exactly `len` bytes at `position` into `buf[off…]`; rejects with {@link EOFError} if the file ends first. */
  readFullyAt(
    position: number | bigint,
    buf: Uint8Array,
    off = 0,
    len: number = buf.length - off,
  ): Promise<void> {
    return this.#at(position, () => {
      checkFromIndexSize(off, len, buf.length);
      return readFully(this.#w, buf, off, len);
    });
  }

  /** Writes `len` bytes of `buf[off…]` at `position` (buffered like any write). */
  writeAt(
    position: number | bigint,
    buf: Uint8Array,
    off = 0,
    len: number = buf.length - off,
  ): Promise<void> {
    return this.#at(position, () => {
      checkFromIndexSize(off, len, buf.length);
      return writeBytes(this.#w, buf, off, len);
    });
  }

  /** `readBoolean` at `position`; the pointer does not move. */
  readBooleanAt(position: number | bigint): Promise<boolean> {
    return this.#getAt(position, BOOLEAN);
  }

  /** `readByte` at `position`; the pointer does not move. */
  readByteAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, BYTE);
  }

  /** `readUnsignedByte` at `position`; the pointer does not move. */
  readUnsignedByteAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, UNSIGNED_BYTE);
  }

  /** `readShort` at `position`; the pointer does not move. */
  readShortAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, SHORT);
  }

  /** `readUnsignedShort` at `position`; the pointer does not move. */
  readUnsignedShortAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, UNSIGNED_SHORT);
  }

  /** `readChar` at `position`; the pointer does not move. */
  readCharAt(position: number | bigint): Promise<string> {
    return this.#getAt(position, CHAR);
  }

  /** `readInt` at `position`; the pointer does not move. */
  readIntAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, INT);
  }

  /** `readLong` at `position`; the pointer does not move. */
  readLongAt(position: number | bigint): Promise<bigint> {
    return this.#getAt(position, LONG);
  }

  /** `readLongAsNumber` at `position`; the pointer does not move. */
  readLongAsNumberAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, LONG_AS_NUMBER);
  }

  /** `readFloat` at `position`; the pointer does not move. */
  readFloatAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, FLOAT);
  }

  /** `readDouble` at `position`; the pointer does not move. */
  readDoubleAt(position: number | bigint): Promise<number> {
    return this.#getAt(position, DOUBLE);
  }

  /** `readUTF` at `position`; the pointer does not move. */
  readUTFAt(position: number | bigint): Promise<string> {
    return this.#at(position, () => readUTF(this.#w));
  }

  /** `writeBoolean` at `position`; the pointer does not move. */
  writeBooleanAt(position: number | bigint, v: boolean): Promise<void> {
    return this.#putAt(position, BOOLEAN as Primitive<unknown, boolean>, v);
  }

  /** `writeByte` at `position`; the pointer does not move. */
  writeByteAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, BYTE as Primitive<unknown, number>, v);
  }

  /** `writeShort` at `position`; the pointer does not move. */
  writeShortAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, SHORT as Primitive<unknown, number>, v);
  }

  /** `writeChar` at `position`; the pointer does not move. */
  writeCharAt(position: number | bigint, v: string | number): Promise<void> {
    return this.#putAt(position, CHAR as Primitive<unknown, string | number>, v);
  }

  /** `writeInt` at `position`; the pointer does not move. */
  writeIntAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, INT as Primitive<unknown, number>, v);
  }

  /** `writeLong` at `position`; the pointer does not move. */
  writeLongAt(position: number | bigint, v: bigint | number): Promise<void> {
    return this.#putAt(position, LONG as Primitive<unknown, bigint | number>, v);
  }

  /** `writeFloat` at `position`; the pointer does not move. */
  writeFloatAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, FLOAT as Primitive<unknown, number>, v);
  }

  /** `writeDouble` at `position`; the pointer does not move. */
  writeDoubleAt(position: number | bigint, v: number): Promise<void> {
    return this.#putAt(position, DOUBLE as Primitive<unknown, number>, v);
  }

  /** `writeUTF` at `position` (nothing written when too long); the pointer does not move. */
  writeUTFAt(position: number | bigint, s: string): Promise<void> {
    return this.#at(position, () => writeUTF(this.#w, s));
  }

  // ---- position and length ----

  /** The file pointer, once every operation called before has taken effect. */
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

  /** Moves the file pointer (a `number` or `bigint`); a negative one rejects (`RangeError`) and changes nothing. */
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

  /** The file's length in bytes, counting this instance's unflushed writes. */
  length(): Promise<number> {
    return this.#enqueue(() => this.#drive(length(this.#w), false));
  }

  /** Flushes, then truncates or extends the file; a pointer beyond `newLength` moves to it. */
  setLength(newLength: number | bigint): Promise<void> {
    return this.#enqueue(() => this.#drive(setLength(this.#w, newLength, this.#path), false));
  }

  /** Writes this instance's unflushed data to the OS (no `fsync`; see {@link sync}). */
  flush(): Promise<void> {
    return this.#enqueue(() => this.#drive(flush(this.#w), false));
  }

  /** Flushes, then `fsync`s. */
  sync(): Promise<void> {
    return this.#enqueue(() => this.#drive(sync(this.#w, false), false));
  }

  /** Flushes, then `fdatasync`s. */
  datasync(): Promise<void> {
    return this.#enqueue(() => this.#drive(sync(this.#w, true), false));
  }

  // ---- locks ----

  /**
   * Takes an advisory lock on a range (Java's `FileChannel.lock`), waiting while another holder
   * conflicts, without blocking the event loop or holding a libuv pool thread: the wait polls the
   * non-blocking lock on timers (1 ms backing off to 50 ms), so it is not fair (a blocking waiter
   * elsewhere may go first) and may notice a release up to 50 ms late. Operations called after it run
   * once it is granted; {@link close} cancels it (it then rejects with `ClosedError`). Exclusive by default; a file opened `"r"` may only take
   * shared locks (`LockModeError`). Overlapping a lock this instance holds: `OverlappingFileLockError`.
   * Unlike the sync `lock()`, it waits for a conflicting lock held in this same thread through another
   * instance of the file too: the thread stays free, so that holder can still release it. From the
   * call until it settles without a lock, it counts as held for a sync `lock()` in this thread (the OS
   * may grant it before the promise settles; Java likewise counts a thread still waiting).
   * The `node` backend has no locks: `LockUnsupportedError`. {@link close} releases them all.
   */
  lock(options: LockOptions = {}): Promise<AsyncFileLock> {
    return this.#enqueue(() => this.#lock(options, true)) as Promise<AsyncFileLock>;
  }

  /**
   * {@link lock} without waiting: `null` when another holder has a conflicting lock. For a sync `lock()` in
   * this thread it counts exactly while the OS holds the lock: from the call itself when nothing needs
   * flushing, and never when refused.
   */
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
      if (r < 0) throw systemCallError(r, "fcntl", w.path);
      held.released();
    });
  }

  // ---- streams ----

  /**
   * A `Readable` over the bytes `[start, end]` (`end` inclusive, as `fs.createReadStream`; default: to
   * end of file), read with positional reads: the file pointer does not move, and the file stays open
   * when the stream ends. Respects backpressure.
   */
  createReadStream(options: ReadStreamOptions = {}): Readable {
    return createRangeReadStream(this, options);
  }

  /**
   * A `Writable` writing at `start` onwards (default 0) with positional writes, flushed when the stream
   * finishes; the file pointer does not move, and the file stays open. Respects backpressure.
   */
  createWriteStream(options: WriteStreamOptions = {}): Writable {
    return createRangeWriteStream(this, options);
  }

  // ---- closing ----

  /**
   * Flushes and closes, after every operation called before it. Idempotent. The descriptor is closed
   * even when the flush fails; that error is then the rejection (the unflushed data is lost).
   * A {@link lock} still waiting for another holder (now, or when its turn comes) is cancelled: it
   * rejects with `ClosedError` and takes no lock, so the close behind it can run.
   */
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
