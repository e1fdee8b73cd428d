import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import {
  BigEndian,
  type ByteOrder,
  type Codec,
  codecFor,
  decodeArray,
  encodeArray,
  ModifiedUtf8,
  type NumericArray,
  UTFDataFormatError,
} from "@rafkit/bits";
import {
  type FileMode,
  getBackend,
  type SyncBackend,
  systemCallError,
} from "@rafkit/syscall-state";
import { checkFromIndexSize, EOFError, OffsetRangeError } from "./errors";
import { guard, unguard } from "./leak-guard";
import { parseMode } from "./modes";
import { DEFAULT_BUFFER_SIZE, type RandomAccessFileOptions } from "./options";
import { toPosition } from "./position";
import { EOF, IO, type Step, Window } from "./window";

const EINVAL = constants.errno.EINVAL;
const EISDIR = constants.errno.EISDIR;

/**
 * Java refuses to open a directory even read-only, which `open(2)` allows: one 1-byte `pread` tells.
 * Closes `fd` and throws `EISDIR` (syscall `open`) when it is one.
 */
function rejectDirectory(backend: SyncBackend, fd: number, path: string): void {
  if (backend.pread(fd, new Uint8Array(1), 0, 1, 0) === -EISDIR) {
    backend.close(fd);
    throw systemCallError(-EISDIR, "open", path);
  }
}

/** The longest string `writeUTF` can write: its 2-byte length prefix caps the encoded bytes. */
const MAX_UTF_LENGTH = 65535;

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
export class RandomAccessFile {
  readonly #w: Window;
  readonly #backend: SyncBackend;
  readonly #codec: Codec;
  readonly #order: ByteOrder;
  readonly #path: string;
  readonly #mode: FileMode;
  readonly #latin1: (buf: Uint8Array, from: number, to: number) => string;

  /**
   * Opens `path` in `mode`: `"r"` (read only), `"rw"` (read/write, created if missing), `"rws"`
   * (every write also syncs content and metadata), `"rwd"` (every write also syncs content).
   * Throws a `TypeError` with Java's message for any other mode, before any I/O; the Node-shaped
   * error of `open` when the OS refuses.
   */
  constructor(path: string | URL, mode: FileMode, options: RandomAccessFileOptions = {}) {
    const m = parseMode(mode);
    const p = typeof path === "string" ? path : fileURLToPath(path);
    const size = options.bufferSize ?? DEFAULT_BUFFER_SIZE;
    if (!Number.isSafeInteger(size) || size < 0 || size > 2 ** 30) {
      throw new OffsetRangeError(`bufferSize must be an integer in [0, 2^30], got ${size}`);
    }
    this.#order = options.byteOrder ?? "big";
    this.#codec = codecFor(this.#order);
    const backend =
      typeof options.backend === "object" ? options.backend : getBackend(options.backend ?? "auto");
    this.#backend = backend;
    this.#path = p;
    this.#mode = m;
    const fd = backend.open(p, m);
    if (fd < 0) throw systemCallError(fd, "open", p);
    if (m === "r") rejectDirectory(backend, fd, p);
    this.#w = new Window(fd, p, size, {
      readOnly: m === "r",
      writeThrough: m === "rws" || m === "rwd",
    });
    const view = Buffer.from(this.#w.buf.buffer, this.#w.buf.byteOffset, this.#w.buf.byteLength);
    this.#latin1 = (_buf, from, to) => view.toString("latin1", from, to);
    guard(this, this.#w, backend);
  }

  /** The path this file was opened with. */
  get path(): string {
    return this.#path;
  }

  /** The mode this file was opened with. */
  get mode(): FileMode {
    return this.#mode;
  }

  /** The OS file descriptor (Java's `getFD()`), or -1 once closed. */
  get fd(): number {
    return this.#w.closed ? -1 : this.#w.fd;
  }

  /** Whether {@link close} has been called. */
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

  /** The name of the syscall-state backend doing the I/O (`"native"`, `"node"`, …). */
  get backendName(): string {
    return this.#backend.name;
  }

  // ---- the driver: performs the one system call the window asks for ----

  #io(): void {
    const w = this.#w;
    const b = this.#backend;
    w.complete(
      w.ioWrite
        ? b.pwrite(w.fd, w.ioBuf, w.ioOff, w.ioLen, w.ioPos)
        : b.pread(w.fd, w.ioBuf, w.ioOff, w.ioLen, w.ioPos),
    );
  }

  /** Slow path of a primitive read: the index of `n` bytes in the window, consumed; EOFError when short. */
  #fill(n: number): number {
    const w = this.#w;
    w.begin();
    let s: Step;
    while ((s = w.planRead(n)) === IO) this.#io();
    if (s === EOF) {
      w.consume(w.avail);
      throw new EOFError();
    }
    const at = w.at;
    w.consume(n);
    return at;
  }

  /** Slow path of a primitive write: the index in the window where `n` bytes go (then {@link Window.commit}). */
  #room(n: number): number {
    const w = this.#w;
    w.beginWrite();
    while (w.planRoom(n) === IO) this.#io();
    return w.at;
  }

  #flushAll(): void {
    const w = this.#w;
    while (w.planFlush() === IO) this.#io();
  }

  #commit(i: number, n: number): void {
    if (this.#w.commit(i, n)) this.#flushAll();
  }

  #readBytes(dst: Uint8Array, off: number, len: number, some: boolean): Step {
    const w = this.#w;
    w.begin();
    let s: Step;
    while ((s = w.planReadBytes(dst, off, len, some)) === IO) this.#io();
    return s;
  }

  #writeBytes(src: Uint8Array, off: number, len: number): void {
    const w = this.#w;
    // Writing nothing succeeds even in mode "r", as in Java (no write(2) happens).
    if (len === 0) {
      w.begin();
      return;
    }
    w.beginWrite();
    while (w.planWriteBytes(src, off, len) === IO) this.#io();
    if (w.writeThrough) this.#flushAll();
  }

  #checkOpen(): void {
    this.#w.begin();
  }

  // ---- DataInput ----

  /**
   * `read()`: the next byte (0–255), or -1 at end of file.
   * `read(buf, off?, len?)`: reads up to `len` bytes into `buf[off…]` and returns how many, or -1 at end
   * of file (never 0 unless `len` is 0); at most one system call. Bad `off`/`len` throw a `RangeError`
   * (`ERR_OUT_OF_RANGE`) before any I/O.
   */
  read(): number;
  read(buf: Uint8Array, off?: number, len?: number): number;
  read(buf?: Uint8Array, off = 0, len?: number): number {
    const w = this.#w;
    if (buf === undefined) {
      const i = w.takeRead(1);
      if (i >= 0) return w.buf[i]!;
      w.begin();
      let s: Step;
      while ((s = w.planRead(1)) === IO) this.#io();
      if (s === EOF) return -1;
      const at = w.at;
      w.consume(1);
      return w.buf[at]!;
    }
    const n = len ?? buf.length - off;
    checkFromIndexSize(off, n, buf.length);
    this.#checkOpen();
    if (n === 0) return 0;
    const s = this.#readBytes(buf, off, n, true);
    return s === EOF && w.done === 0 ? -1 : w.done;
  }

  /** Reads exactly `len` bytes into `buf[off…]`; {@link EOFError} if the file ends first (the bytes that were there are consumed). */
  readFully(buf: Uint8Array, off = 0, len: number = buf.length - off): void {
    checkFromIndexSize(off, len, buf.length);
    if (this.#readBytes(buf, off, len, false) === EOF) throw new EOFError();
  }

  /** Java's `skipBytes`: moves the pointer forward by up to `n` bytes, never past end of file; returns the distance moved. */
  skipBytes(n: number): number {
    this.#checkOpen();
    if (n <= 0) return 0;
    const pos = this.#w.pointer;
    const len = this.length();
    const target = Math.min(pos + n, len);
    this.#w.pointer = target;
    return target - pos;
  }

  /** Reads a byte: true when it is not 0. */
  readBoolean(): boolean {
    const w = this.#w;
    let i = w.takeRead(1);
    if (i < 0) i = this.#fill(1);
    return w.buf[i] !== 0;
  }

  /** Reads a signed byte (-128–127). */
  readByte(): number {
    const w = this.#w;
    let i = w.takeRead(1);
    if (i < 0) i = this.#fill(1);
    return (w.buf[i]! << 24) >> 24;
  }

  /** Reads an unsigned byte (0–255). */
  readUnsignedByte(): number {
    const w = this.#w;
    let i = w.takeRead(1);
    if (i < 0) i = this.#fill(1);
    return w.buf[i]!;
  }

  /** Reads a signed 16-bit integer. */
  readShort(): number {
    const w = this.#w;
    let i = w.takeRead(2);
    if (i < 0) i = this.#fill(2);
    return this.#codec.getInt16(w.buf, i);
  }

  /** Reads an unsigned 16-bit integer. */
  readUnsignedShort(): number {
    const w = this.#w;
    let i = w.takeRead(2);
    if (i < 0) i = this.#fill(2);
    return this.#codec.getUint16(w.buf, i);
  }

  /** Reads a `char`: one UTF-16 code unit, as a one-character string. */
  readChar(): string {
    const w = this.#w;
    let i = w.takeRead(2);
    if (i < 0) i = this.#fill(2);
    return this.#codec.getChar(w.buf, i);
  }

  /** Reads a signed 32-bit integer. */
  readInt(): number {
    const w = this.#w;
    let i = w.takeRead(4);
    if (i < 0) i = this.#fill(4);
    return this.#codec.getInt32(w.buf, i);
  }

  /** Reads a signed 64-bit integer as a `bigint`. */
  readLong(): bigint {
    const w = this.#w;
    let i = w.takeRead(8);
    if (i < 0) i = this.#fill(8);
    return this.#codec.getBigInt64(w.buf, i);
  }

  /**
   * Reads a signed 64-bit integer as a `number`, cheaper than {@link readLong}. Throws a `RangeError`
   * (`ERR_OUT_OF_RANGE`) when it is not a safe integer; its 8 bytes are consumed all the same.
   */
  readLongAsNumber(): number {
    const w = this.#w;
    let i = w.takeRead(8);
    if (i < 0) i = this.#fill(8);
    return this.#codec.getSafeInt64(w.buf, i);
  }

  /** Reads a 32-bit IEEE 754 float. */
  readFloat(): number {
    const w = this.#w;
    let i = w.takeRead(4);
    if (i < 0) i = this.#fill(4);
    return this.#codec.getFloat32(w.buf, i);
  }

  /** Reads a 64-bit IEEE 754 double. */
  readDouble(): number {
    const w = this.#w;
    let i = w.takeRead(8);
    if (i < 0) i = this.#fill(8);
    return this.#codec.getFloat64(w.buf, i);
  }

  /**
   * Java's `readLine`: bytes up to `\n`, `\r` or `\r\n` (consumed, not returned), each byte one
   * Latin-1 character; `null` only at end of file with nothing read.
   */
  readLine(): string | null {
    const w = this.#w;
    w.begin();
    let s: Step;
    while ((s = w.planLine(this.#latin1)) === IO) this.#io();
    return w.lineResult(s);
  }

  /** Reads a string in Java's `writeUTF` format: a big-endian 2-byte length, then modified UTF-8. {@link UTFDataFormatError} when malformed. */
  readUTF(): string {
    const w = this.#w;
    let i = w.takeRead(2);
    if (i < 0) i = this.#fill(2);
    const n = BigEndian.getUint16(w.buf, i);
    const j = w.takeRead(n);
    if (j >= 0) return ModifiedUtf8.decode(w.buf, j, n);
    const bytes = new Uint8Array(n);
    this.readFully(bytes, 0, n);
    return ModifiedUtf8.decode(bytes, 0, n);
  }

  // ---- bulk reads ----

  /**
   * Fills `dst[off … off+count)` with 16-bit integers; {@link EOFError} if the file ends first (the
   * bytes that were there are consumed, and the contents of that range of `dst` are then unspecified).
   */
  readShorts(dst: Int16Array | Uint16Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 2);
  }

  /** Fills `dst[off … off+count)` with 32-bit integers; {@link EOFError} if the file ends first. */
  readInts(dst: Int32Array | Uint32Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 4);
  }

  /** Fills `dst[off … off+count)` with 64-bit integers; {@link EOFError} if the file ends first. */
  readLongs(dst: BigInt64Array | BigUint64Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 8);
  }

  /** Fills `dst[off … off+count)` with floats; {@link EOFError} if the file ends first. */
  readFloats(dst: Float32Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 4);
  }

  /** Fills `dst[off … off+count)` with doubles; {@link EOFError} if the file ends first. */
  readDoubles(dst: Float64Array, off = 0, count: number = dst.length - off): void {
    this.#readArray(dst, off, count, 8);
  }

  #readArray(dst: NumericArray, off: number, count: number, width: number): void {
    checkFromIndexSize(off, count, dst.length);
    const w = this.#w;
    const bytes = count * width;
    const i = w.takeRead(bytes);
    if (i >= 0) {
      decodeArray(w.buf, i, dst, off, count, this.#order);
      return;
    }
    w.begin();
    if (bytes >= w.capacity) {
      // Large: one read straight into `dst`'s own memory, then an in-place byte swap if needed.
      const raw = new Uint8Array(dst.buffer, dst.byteOffset + off * width, bytes);
      if (this.#readBytes(raw, 0, bytes, false) === EOF) throw new EOFError();
      decodeArray(raw, 0, dst, off, count, this.#order);
      return;
    }
    for (let k = 0; k < count; ) {
      let s: Step;
      while ((s = w.planRead(width)) === IO) this.#io();
      if (s === EOF) {
        w.consume(w.avail);
        throw new EOFError();
      }
      const m = Math.min(Math.floor(w.avail / width), count - k);
      decodeArray(w.buf, w.at, dst, off + k, m, this.#order);
      w.consume(m * width);
      k += m;
    }
  }

  // ---- DataOutput ----

  /**
   * `write(byte)`: writes the low 8 bits of a number.
   * `write(buf, off?, len?)`: writes `len` bytes of `buf[off…]`. Bad `off`/`len` throw a `RangeError`
   * (`ERR_OUT_OF_RANGE`) before any I/O.
   */
  write(b: number | Uint8Array, off = 0, len?: number): void {
    if (typeof b === "number") {
      this.writeByte(b);
      return;
    }
    const n = len ?? b.length - off;
    checkFromIndexSize(off, n, b.length);
    this.#writeBytes(b, off, n);
  }

  /** Writes 1 for true, 0 for false. */
  writeBoolean(v: boolean): void {
    const w = this.#w;
    let i = w.writeIndex(1);
    if (i < 0) i = this.#room(1);
    w.buf[i] = v ? 1 : 0;
    this.#commit(i, 1);
  }

  /** Writes the low 8 bits of `v`. */
  writeByte(v: number): void {
    const w = this.#w;
    let i = w.writeIndex(1);
    if (i < 0) i = this.#room(1);
    w.buf[i] = v;
    this.#commit(i, 1);
  }

  /** Writes the low 16 bits of `v`. */
  writeShort(v: number): void {
    const w = this.#w;
    let i = w.writeIndex(2);
    if (i < 0) i = this.#room(2);
    this.#codec.setInt16(w.buf, i, v);
    this.#commit(i, 2);
  }

  /** Writes a `char`: the first code unit of a string, or the low 16 bits of a number. */
  writeChar(v: string | number): void {
    const w = this.#w;
    let i = w.writeIndex(2);
    if (i < 0) i = this.#room(2);
    this.#codec.setChar(w.buf, i, v);
    this.#commit(i, 2);
  }

  /** Writes the low 32 bits of `v`. */
  writeInt(v: number): void {
    const w = this.#w;
    let i = w.writeIndex(4);
    if (i < 0) i = this.#room(4);
    this.#codec.setInt32(w.buf, i, v);
    this.#commit(i, 4);
  }

  /** Writes a 64-bit integer: a `bigint` modulo 2^64, or a safe-integer `number` (a `RangeError` otherwise, nothing written). */
  writeLong(v: bigint | number): void {
    const w = this.#w;
    let i = w.writeIndex(8);
    if (i < 0) i = this.#room(8);
    if (typeof v === "bigint") this.#codec.setBigInt64(w.buf, i, v);
    else this.#codec.setSafeInt64(w.buf, i, v);
    this.#commit(i, 8);
  }

  /** Writes a 32-bit float; NaN as Java's canonical `0x7fc00000`. */
  writeFloat(v: number): void {
    const w = this.#w;
    let i = w.writeIndex(4);
    if (i < 0) i = this.#room(4);
    this.#codec.setFloat32(w.buf, i, v);
    this.#commit(i, 4);
  }

  /** Writes a 64-bit double; NaN as Java's canonical `0x7ff8000000000000`. */
  writeDouble(v: number): void {
    const w = this.#w;
    let i = w.writeIndex(8);
    if (i < 0) i = this.#room(8);
    this.#codec.setFloat64(w.buf, i, v);
    this.#commit(i, 8);
  }

  /** Java's `writeBytes`: the low 8 bits of each UTF-16 code unit of `s`, in one write. */
  writeBytes(s: string): void {
    const n = s.length;
    const bytes = new Uint8Array(n);
    for (let k = 0; k < n; k++) bytes[k] = s.charCodeAt(k);
    this.#writeBytes(bytes, 0, n);
  }

  /** Java's `writeChars`: each UTF-16 code unit of `s` as 2 bytes (in this file's byte order), in one write. */
  writeChars(s: string): void {
    const n = s.length;
    const bytes = new Uint8Array(n * 2);
    for (let k = 0; k < n; k++) this.#codec.setUint16(bytes, k * 2, s.charCodeAt(k));
    this.#writeBytes(bytes, 0, n * 2);
  }

  /**
   * Java's `writeUTF`: a big-endian 2-byte length, then `s` in modified UTF-8, in one write.
   * Throws {@link UTFDataFormatError} and writes nothing when that exceeds 65535 bytes.
   */
  writeUTF(s: string): void {
    const n = ModifiedUtf8.encodedLength(s);
    if (n > MAX_UTF_LENGTH) {
      const head = s.slice(0, 8);
      const tail = s.slice(s.length - 8);
      throw new UTFDataFormatError(`encoded string (${head}...${tail}) too long: ${n} bytes`);
    }
    const w = this.#w;
    const total = n + 2;
    const i = w.writeIndex(total);
    if (i >= 0) {
      BigEndian.setUint16(w.buf, i, n);
      ModifiedUtf8.encode(s, w.buf, i + 2);
      this.#commit(i, total);
      return;
    }
    const bytes = new Uint8Array(total);
    BigEndian.setUint16(bytes, 0, n);
    ModifiedUtf8.encode(s, bytes, 2);
    this.#writeBytes(bytes, 0, total);
  }

  // ---- bulk writes ----

  /** Writes `src[off … off+count)` as 16-bit integers. */
  writeShorts(src: Int16Array | Uint16Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 2);
  }

  /** Writes `src[off … off+count)` as 32-bit integers. */
  writeInts(src: Int32Array | Uint32Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 4);
  }

  /** Writes `src[off … off+count)` as 64-bit integers. */
  writeLongs(src: BigInt64Array | BigUint64Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 8);
  }

  /** Writes `src[off … off+count)` as floats (NaN canonicalised, as Java). */
  writeFloats(src: Float32Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 4);
  }

  /** Writes `src[off … off+count)` as doubles (NaN canonicalised, as Java). */
  writeDoubles(src: Float64Array, off = 0, count: number = src.length - off): void {
    this.#writeArray(src, off, count, 8);
  }

  #writeArray(src: NumericArray, off: number, count: number, width: number): void {
    checkFromIndexSize(off, count, src.length);
    const w = this.#w;
    const bytes = count * width;
    const i = w.writeIndex(bytes);
    if (i >= 0) {
      encodeArray(src, off, count, w.buf, i, this.#order);
      this.#commit(i, bytes);
      return;
    }
    const tmp = new Uint8Array(bytes);
    encodeArray(src, off, count, tmp, 0, this.#order);
    this.#writeBytes(tmp, 0, bytes);
  }

  // ---- position and length ----

  /** The file pointer: where the next read or write happens. */
  getFilePointer(): number {
    this.#checkOpen();
    return this.#w.pointer;
  }

  /**
   * Moves the file pointer (a `number` or `bigint`). Past end of file is allowed and does not grow
   * the file until a write. Negative: a `RangeError` (`ERR_OUT_OF_RANGE`, "Negative seek offset"), and nothing changes.
   */
  seek(pos: number | bigint): void {
    this.#checkOpen();
    this.#w.pointer = toPosition(pos, "seek offset");
  }

  /** The file's length in bytes, counting this instance's unflushed writes. One system call. */
  length(): number {
    this.#checkOpen();
    const r = this.#backend.size(this.#w.fd);
    if (r < 0) throw systemCallError(r, "fstat", this.#path);
    return this.#w.logicalLength(r);
  }

  /**
   * Flushes, then truncates or extends the file; a pointer beyond `newLength` moves to it (Java's rule).
   * A negative length fails as in Java, with `EINVAL` from `ftruncate` (before any I/O).
   */
  setLength(newLength: number | bigint): void {
    this.#checkOpen();
    if (newLength < 0) throw systemCallError(-EINVAL, "ftruncate", this.#path);
    const n = toPosition(newLength, "length");
    this.#flushAll();
    const r = this.#backend.truncate(this.#w.fd, n);
    if (r < 0) throw systemCallError(r, "ftruncate", this.#path);
    this.#w.truncated(n);
  }

  /** Writes this instance's unflushed data to the OS (no `fsync`; see {@link sync}). */
  flush(): void {
    this.#checkOpen();
    this.#flushAll();
  }

  /** Flushes, then `fsync`s: content and metadata reach the device (Java's `getFD().sync()`). */
  sync(): void {
    this.#checkOpen();
    this.#flushAll();
    const r = this.#backend.sync(this.#w.fd);
    if (r < 0) throw systemCallError(r, "fsync", this.#path);
  }

  /** Flushes, then `fdatasync`s: content (and the metadata needed to read it) reach the device. */
  datasync(): void {
    this.#checkOpen();
    this.#flushAll();
    const r = this.#backend.datasync(this.#w.fd);
    if (r < 0) throw systemCallError(r, "fdatasync", this.#path);
  }

  /**
   * Flushes and closes. Idempotent. The descriptor is closed even when the flush fails; that
   * error is then thrown (the unflushed data is lost, as with any failed close).
   */
  close(): void {
    const w = this.#w;
    if (w.closed) return;
    let failure: unknown;
    try {
      this.#flushAll();
    } catch (error) {
      failure = error;
    }
    w.markClosed();
    unguard(w);
    const r = this.#backend.close(w.fd);
    if (failure !== undefined) throw failure;
    if (r < 0) throw systemCallError(r, "close", this.#path);
  }

  /** `using f = new RandomAccessFile(…)` closes it at the end of the block. */
  [Symbol.dispose](): void {
    this.close();
  }
}
