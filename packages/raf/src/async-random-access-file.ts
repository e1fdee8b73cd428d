import type { Readable, Writable } from "node:stream";
import type { ByteOrder } from "@rafkit/bits";
import { type Backend, type FileMode, systemCallError } from "@rafkit/syscall-state";
import type { RandomAccessFileApi } from "./api";
import { AsyncDriver, DONE } from "./async/driver";
import { AsyncLocking } from "./async/locking";
import {
  type AsyncRandomAccessFileParts,
  AsyncRandomAccessFilePrimitives,
} from "./async/primitive-methods";
import { ClosedError } from "./errors";
import { endHandOff, handed, handOff } from "./hand-off";
import { FORGET_CACHED, IN_TURN } from "./hooks";
import { type Guard, guard, unguard } from "./leak-guard";
import { type AsyncFileLock, HeldLocks, type LockOptions } from "./locks";
import { latin1Of, openWindow, planOpen, rejectDirectoryAsync } from "./open-file";
import {
  charBytes,
  close,
  flush,
  latin1Bytes,
  length,
  readByte,
  readFully,
  readLine,
  readSome,
  readUTF,
  setLength,
  skipBytes,
  sync,
  writeBytes,
  writeUTF,
} from "./operations";
import type { RandomAccessFileOptions } from "./options";
import { rangeLength, toPosition } from "./position";
import {
  createRangeReadStream,
  createRangeWriteStream,
  type ReadStreamOptions,
  type WriteStreamOptions,
} from "./streams";
import { checkedBytes } from "./typed-arrays";
import type { Window } from "./window/window";

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
export class AsyncRandomAccessFile
  extends AsyncRandomAccessFilePrimitives
  implements RandomAccessFileApi<"async">
{
  readonly #w: Window = handed<AsyncRandomAccessFileParts>().w;
  /** The queue, the system calls, and the primitives' hot paths (see `async/driver.ts`). */
  readonly #d: AsyncDriver = handed<AsyncRandomAccessFileParts>().d;
  readonly #backend: Backend;
  readonly #order: ByteOrder;
  readonly #path: string;
  readonly #mode: FileMode;
  readonly #latin1: (buf: Uint8Array, from: number, to: number) => string;
  readonly #locks: HeldLocks;
  /** The leak guard's registration, held only here; given back at close (see `leak-guard.ts`). */
  #guard: Guard | undefined;
  /** `lock`/`tryLock` and the release of what they took (see `async/locking.ts`). */
  readonly #locking: AsyncLocking;

  /** Not for users: use {@link AsyncRandomAccessFile.open} (the token refuses any other caller). */
  constructor(token: symbol, plan: ReturnType<typeof planOpen>, fd: number) {
    if (token !== OPENING)
      throw new TypeError("Use AsyncRandomAccessFile.open(path, mode, options)");
    const w = openWindow(plan, plan.backend, fd);
    // The window and the driver, for this class's fields and the primitive methods' (`hand-off.ts`).
    handOff<AsyncRandomAccessFileParts>({ w, d: new AsyncDriver(w, plan.backend, plan.order) });
    super();
    endHandOff();
    this.#backend = plan.backend;
    this.#order = plan.order;
    this.#path = plan.path;
    this.#mode = plan.mode;
    this.#latin1 = latin1Of(this.#w);
    this.#locks = new HeldLocks(this.#w);
    this.#locking = new AsyncLocking(this.#d, this.#locks, plan.mode, plan.path);
    this.#guard = guard(this.#w, plan.backend);
    this.#locks.anchor = this.#guard;
    this.#d.keepAlive = this.#guard;
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
    if (plan.mode === "r") {
      try {
        await rejectDirectoryAsync(plan.backend, fd, plan.path);
      } catch (error) {
        try {
          await plan.backend.closeAsync(fd);
        } catch {
          // The directory's EISDIR (or the read's own failure) is the error to report, not a close's.
        }
        throw error;
      }
    }
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

  /**
   * @internal Runs `job` in call order with this file's other operations: the hook of the browser entry,
   * whose Web Locks take their turn in this queue as the OS locks do. `job` must not call this instance's
   * queued methods (they would wait behind it).
   */
  protected [IN_TURN]<T>(job: () => Promise<T>): Promise<T> {
    return this.#d.enqueue(job);
  }

  /** @internal The browser entry's: a Web Lock was granted (in its turn, see {@link IN_TURN}). */
  protected [FORGET_CACHED](): void {
    this.#w.discard();
  }

  // ---- DataInput ----

  read(): Promise<number>;
  read(buf: Uint8Array, off?: number, len?: number): Promise<number>;
  read(buf?: Uint8Array, off = 0, len?: number): Promise<number> {
    if (buf === undefined) {
      if (!this.#d.busy) {
        const w = this.#w;
        const i = w.takeRead(1);
        if (i >= 0) return Promise.resolve(w.buf[i]!);
      }
      return this.#d.submit(() => readByte(this.#w));
    }
    return this.#d.submit(() => {
      const bytes = checkedBytes(buf, "buffer");
      const n = rangeLength(off, len, bytes.length);
      return readSome(this.#w, bytes, off, n);
    });
  }

  readFully(buf: Uint8Array, off = 0, len?: number): Promise<void> {
    return this.#d.submit(() => {
      const bytes = checkedBytes(buf, "buffer");
      const n = rangeLength(off, len, bytes.length);
      return readFully(this.#w, bytes, off, n);
    });
  }

  skipBytes(n: number): Promise<number> {
    return this.#d.enqueue(() => this.#d.drive(skipBytes(this.#w, n), false));
  }

  readLine(): Promise<string | null> {
    return this.#d.submit(() => readLine(this.#w, this.#latin1));
  }

  readUTF(): Promise<string> {
    return this.#d.submit(() => readUTF(this.#w));
  }

  // ---- DataOutput ----

  write(b: number | Uint8Array, off = 0, len?: number): Promise<void> {
    if (typeof b === "number") return this.writeByte(b);
    return this.#d.submit(() => {
      const bytes = checkedBytes(b, "buffer");
      const n = rangeLength(off, len, bytes.length);
      return writeBytes(this.#w, bytes, off, n);
    });
  }

  writeBytes(s: string): Promise<void> {
    return this.#d.submit(() => {
      const bytes = latin1Bytes(s);
      return writeBytes(this.#w, bytes, 0, bytes.length);
    });
  }

  writeChars(s: string): Promise<void> {
    return this.#d.submit(() => {
      const bytes = charBytes(this.#w.codec, s);
      return writeBytes(this.#w, bytes, 0, bytes.length);
    });
  }

  writeUTF(s: string): Promise<void> {
    return this.#d.submit(() => writeUTF(this.#w, s));
  }

  // ---- positional I/O: at an explicit position, the file pointer does not move ----

  readAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): Promise<number> {
    return this.#d.at(position, () => {
      const bytes = checkedBytes(buf, "buffer");
      const n = rangeLength(off, len, bytes.length);
      return readSome(this.#w, bytes, off, n);
    });
  }

  readFullyAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): Promise<void> {
    return this.#d.at(position, () => {
      const bytes = checkedBytes(buf, "buffer");
      const n = rangeLength(off, len, bytes.length);
      return readFully(this.#w, bytes, off, n);
    });
  }

  writeAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): Promise<void> {
    return this.#d.at(position, () => {
      const bytes = checkedBytes(buf, "buffer");
      const n = rangeLength(off, len, bytes.length);
      return writeBytes(this.#w, bytes, off, n);
    });
  }

  readUTFAt(position: number | bigint): Promise<string> {
    return this.#d.at(position, () => readUTF(this.#w));
  }

  writeUTFAt(position: number | bigint, s: string): Promise<void> {
    return this.#d.at(position, () => writeUTF(this.#w, s));
  }

  // ---- position and length ----

  getFilePointer(): Promise<number> {
    if (!this.#d.busy) {
      const w = this.#w;
      if (w.closed) return Promise.reject(new ClosedError());
      return Promise.resolve(w.pointer);
    }
    return this.#d.enqueue(async () => {
      this.#w.begin();
      return this.#w.pointer;
    });
  }

  seek(pos: number | bigint): Promise<void> {
    if (!this.#d.busy) {
      try {
        this.#w.begin();
        this.#w.seek(toPosition(pos, "seek offset"));
      } catch (error) {
        return Promise.reject(error);
      }
      return DONE;
    }
    return this.#d.enqueue(async () => {
      this.#w.begin();
      this.#w.seek(toPosition(pos, "seek offset"));
    });
  }

  length(): Promise<number> {
    return this.#d.enqueue(() => this.#d.drive(length(this.#w), false));
  }

  setLength(newLength: number | bigint): Promise<void> {
    return this.#d.enqueue(() => this.#d.drive(setLength(this.#w, newLength, this.#path), false));
  }

  flush(): Promise<void> {
    return this.#d.enqueue(() => this.#d.drive(flush(this.#w), false));
  }

  sync(): Promise<void> {
    return this.#d.enqueue(() => this.#d.drive(sync(this.#w, false), false));
  }

  datasync(): Promise<void> {
    return this.#d.enqueue(() => this.#d.drive(sync(this.#w, true), false));
  }

  // ---- locks ----

  lock(options: LockOptions = {}): Promise<AsyncFileLock> {
    return this.#d.enqueue(() => this.#locking.take(options, true)) as Promise<AsyncFileLock>;
  }

  tryLock(options: LockOptions = {}): Promise<AsyncFileLock | null> {
    return this.#d.enqueue(() => this.#locking.take(options, false));
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
    this.#d.closing();
    const w = this.#w;
    return this.#d.enqueue(() =>
      this.#d.drive(
        close(w, () => {
          this.#locks.closed();
          unguard(this.#guard);
          this.#guard = undefined;
          this.#d.keepAlive = undefined;
          w.release();
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
