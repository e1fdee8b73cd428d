import type { Readable, Writable } from "node:stream";
import type { ByteOrder } from "@rafkit/bits";
import {
  allocateDirect,
  type FileMode,
  type SyncBackend,
  systemCallError,
} from "@rafkit/syscall-state";
import type { RandomAccessFileApi } from "./api";
import { EOFError } from "./errors";
import { endHandOff, handed, handOff } from "./hand-off";
import { FORGET_CACHED } from "./hooks";
import { type Guard, guard, unguard } from "./leak-guard";
import { FileLock, HeldLocks, type LockOptions, lockGranted, lockRequest, planLock } from "./locks";
import { closeQuietly, latin1Of, openWindow, planOpen, rejectDirectory } from "./open-file";
import {
  at,
  charBytes,
  close,
  latin1Bytes,
  lock,
  readByte,
  readFully,
  readLine,
  readSome,
  readUTF,
  setLength,
  skipBytes,
  sync,
  unlock,
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
import { SyncDriver } from "./sync/driver";
import { type RandomAccessFileParts, RandomAccessFilePrimitives } from "./sync/primitive-methods";
import { checkedBytes } from "./typed-arrays";
import { UNBUFFERED_MEMORY, type Window } from "./window/window";

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
export class RandomAccessFile
  extends RandomAccessFilePrimitives
  implements RandomAccessFileApi<"sync">
{
  readonly #w: Window = handed<RandomAccessFileParts>().w;
  /** Makes the system calls, and runs the slow paths (see `sync/driver.ts`). */
  readonly #io: SyncDriver = handed<RandomAccessFileParts>().io;
  readonly #backend: SyncBackend;
  readonly #order: ByteOrder;
  readonly #path: string;
  readonly #mode: FileMode;
  readonly #latin1: (buf: Uint8Array, from: number, to: number) => string;
  readonly #locks: HeldLocks;
  /** The leak guard's registration, held only here; given back at close (see `leak-guard.ts`). */
  #guard: Guard | undefined;

  /**
   * Opens `path` in `mode`: `"r"` (read only), `"rw"` (read/write, created if missing), `"rws"`
   * (every write also syncs content and metadata), `"rwd"` (every write also syncs content).
   * Throws a `TypeError` with Java's message for any other mode, before any I/O; the Node-shaped
   * error of `open` when the OS refuses.
   */
  constructor(path: string | URL, mode: FileMode, options: RandomAccessFileOptions = {}) {
    const plan = planOpen(path, mode, options);
    const backend = plan.backend;
    // Unbuffered, each primitive is one system call on the window's memory: a direct buffer where the
    // backend has one, so the call passes an address rather than a typed array (BENCHMARKS.md).
    const direct = plan.bufferSize === 0 ? allocateDirect(backend, UNBUFFERED_MEMORY) : undefined;
    const fd = backend.open(plan.path, plan.mode);
    if (fd < 0) throw systemCallError(fd, "open", plan.path);
    const w = openWindow(plan, backend, fd, direct?.bytes.buffer);
    if (plan.mode === "r") {
      try {
        rejectDirectory(backend, w);
      } catch (error) {
        closeQuietly(backend, fd);
        throw error;
      }
    }
    // Else the window holds nothing yet: a read cursor over its no bytes lets the first write (or a `seek`'s)
    // start its run in the write method itself, with no call to the slow path (BENCHMARKS.md).
    else w.attachRead();
    // The window and the driver, for this class's fields and the primitive methods' (`hand-off.ts`).
    handOff<RandomAccessFileParts>({ w, io: new SyncDriver(w, backend, plan.order, direct) });
    super();
    endHandOff();
    this.#order = plan.order;
    this.#backend = backend;
    this.#path = plan.path;
    this.#mode = plan.mode;
    this.#latin1 = latin1Of(this.#w);
    this.#locks = new HeldLocks(this.#w);
    this.#guard = guard(this.#w, backend);
    this.#locks.anchor = this.#guard;
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

  // ---- DataInput ----

  read(): number;
  read(buf: Uint8Array, off?: number, len?: number): number;
  read(buf?: Uint8Array, off = 0, len?: number): number {
    if (buf === undefined) {
      const w = this.#w;
      const i = w.takeRead(1);
      if (i >= 0) return w.buf[i]!;
      return this.#io.run(readByte(w));
    }
    const bytes = checkedBytes(buf, "buffer");
    const n = rangeLength(off, len, bytes.length);
    const w = this.#w;
    if (w.bypasses(w.pointer, n))
      return this.#io.preadDirect(w.pointer, bytes, off, n, true, true) || -1;
    return this.#io.run(readSome(w, bytes, off, n));
  }

  readFully(buf: Uint8Array, off = 0, len?: number): void {
    const bytes = checkedBytes(buf, "buffer");
    const n = rangeLength(off, len, bytes.length);
    const w = this.#w;
    if (w.bypasses(w.pointer, n)) {
      if (this.#io.preadDirect(w.pointer, bytes, off, n, false, true) < n) throw new EOFError();
      return;
    }
    this.#io.run(readFully(w, bytes, off, n));
  }

  skipBytes(n: number): number {
    return this.#io.run(skipBytes(this.#w, n));
  }

  readLine(): string | null {
    return this.#io.run(readLine(this.#w, this.#latin1));
  }

  readUTF(): string {
    return this.#io.run(readUTF(this.#w));
  }

  // ---- DataOutput ----

  write(b: number | Uint8Array, off = 0, len?: number): void {
    if (typeof b === "number") {
      this.writeByte(b);
      return;
    }
    const bytes = checkedBytes(b, "buffer");
    const n = rangeLength(off, len, bytes.length);
    const w = this.#w;
    if (!w.readOnly && w.bypasses(w.pointer, n))
      this.#io.pwriteDirect(w.pointer, bytes, off, n, true);
    else this.#io.run(writeBytes(w, bytes, off, n));
  }

  writeBytes(s: string): void {
    const bytes = latin1Bytes(s);
    this.#io.run(writeBytes(this.#w, bytes, 0, bytes.length));
  }

  writeChars(s: string): void {
    const bytes = charBytes(this.#w.codec, s);
    this.#io.run(writeBytes(this.#w, bytes, 0, bytes.length));
  }

  writeUTF(s: string): void {
    this.#io.run(writeUTF(this.#w, s));
  }

  // ---- positional I/O: at an explicit position, the file pointer does not move ----

  readAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): number {
    const bytes = checkedBytes(buf, "buffer");
    const n = rangeLength(off, len, bytes.length);
    const pos = toPosition(position, "position");
    const w = this.#w;
    if (w.bypasses(pos, n)) return this.#io.preadDirect(pos, bytes, off, n, true, false) || -1;
    return this.#io.run(at(w, pos, readSome(w, bytes, off, n)));
  }

  readFullyAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): void {
    const bytes = checkedBytes(buf, "buffer");
    const n = rangeLength(off, len, bytes.length);
    const pos = toPosition(position, "position");
    const w = this.#w;
    if (w.bypasses(pos, n)) {
      if (this.#io.preadDirect(pos, bytes, off, n, false, false) < n) throw new EOFError();
      return;
    }
    this.#io.run(at(w, pos, readFully(w, bytes, off, n)));
  }

  writeAt(position: number | bigint, buf: Uint8Array, off = 0, len?: number): void {
    const bytes = checkedBytes(buf, "buffer");
    const n = rangeLength(off, len, bytes.length);
    const pos = toPosition(position, "position");
    const w = this.#w;
    if (!w.readOnly && w.bypasses(pos, n)) this.#io.pwriteDirect(pos, bytes, off, n, false);
    else this.#io.run(at(w, pos, writeBytes(w, bytes, off, n)));
  }

  readUTFAt(position: number | bigint): string {
    return this.#io.at(position, readUTF(this.#w));
  }

  writeUTFAt(position: number | bigint, s: string): void {
    this.#io.at(position, writeUTF(this.#w, s));
  }

  // ---- position and length ----

  getFilePointer(): number {
    this.#w.checkOpen();
    return this.#w.pointer;
  }

  seek(pos: number | bigint): void {
    this.#w.checkOpen();
    this.#w.seek(toPosition(pos, "seek offset"));
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
    this.#io.run(setLength(this.#w, newLength, this.#path));
  }

  flush(): void {
    // The shared `flush` operation, minus the generator: nothing to allocate on the sync path.
    this.#w.checkOpen();
    this.#io.flushAll();
  }

  sync(): void {
    this.#io.run(sync(this.#w, false));
  }

  datasync(): void {
    this.#io.run(sync(this.#w, true));
  }

  // ---- locks ----

  lock(options: LockOptions = {}): FileLock {
    return this.#lock(options, true) as FileLock;
  }

  tryLock(options: LockOptions = {}): FileLock | null {
    return this.#lock(options, false);
  }

  #lock(options: LockOptions, wait: boolean): FileLock | null {
    this.#w.begin();
    const range = planLock(options, this.#mode, this.#backend);
    this.#locks.check(range);
    // Without waiting first: only a conflict needs the (rarer, costlier) look at this thread's other holders.
    let granted = lockGranted(
      this.#io.run(lock(this.#w, lockRequest(range, false))),
      this.#backend,
      this.#path,
    );
    if (!granted && wait) {
      this.#locks.checkThread(range);
      granted = lockGranted(
        this.#io.run(lock(this.#w, lockRequest(range, true))),
        this.#backend,
        this.#path,
      );
    }
    if (!granted) return null;
    return this.#locks.add(new FileLock(range, this.#locks, (l) => this.#unlock(l)));
  }

  /** @internal The browser entry's: a Web Lock was granted, after a flush. */
  protected [FORGET_CACHED](): void {
    this.#w.discard();
  }

  #unlock(held: FileLock): void {
    if (this.#w.closed) return;
    this.#io.run(unlock(this.#w, lockRequest(held, false)));
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
    // Called by user code in the middle of another operation (a typed array subclass's getter), which may
    // still hold the window's memory: the memory is then left to the GC, not handed to the next file.
    const nested = this.#io.running;
    this.#io.run(
      close(w, () => {
        this.#locks.closed();
        unguard(this.#guard);
        this.#guard = undefined;
        if (!nested) w.release();
      }),
    );
  }

  /** `using f = new RandomAccessFile(…)` closes it at the end of the block. */
  [Symbol.dispose](): void {
    this.close();
  }
}
