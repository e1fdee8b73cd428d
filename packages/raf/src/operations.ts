import {
  type ByteOrder,
  decodeArray,
  encodeArray,
  ModifiedUtf8,
  type NumericArray,
  UTFDataFormatError,
  type ViewCodec,
} from "@rafkit/bits";
import { errnoOf, type LockRequest, systemCallError } from "@rafkit/syscall-state";
import { EOFError, invalidArgType } from "./errors";
import { LOCK_SYSCALL } from "./locks";
import { toCount, toPosition } from "./position";
import type { Primitive } from "./primitives";
import {
  endPrimitiveRead,
  lineResult,
  planLine,
  planRead,
  planReadBytes,
} from "./window/read-planning";
import { EOF, IO, requestCall, type Step, type SystemCall } from "./window/request";
import type { Window } from "./window/window";
import { planFlush, planRoom, planWriteBytes } from "./window/write-planning";

const EINVAL = errnoOf("EINVAL");

/**
 * An operation on a {@link Window}, written once for both drivers: a generator that yields each time
 * the window asks for its pending system call. The driver (sync: `pread`/`pwrite`; async: their
 * `*Async` twins, awaited) performs it, hands the result to `complete`, and resumes the
 * generator; an I/O error is thrown into the generator (so its `finally` blocks run). Most calls
 * finish without yielding at all, served from the window.
 */
export type Op<T> = Generator<void, T, void>;

/** Makes `n` bytes at the pointer readable and consumes them; their index in `buf`. {@link EOFError} when short (what there was is consumed). */
export function* fill(w: Window, n: number): Op<number> {
  w.begin();
  let s: Step;
  while ((s = planRead(w, n)) === IO) yield;
  return endPrimitiveRead(w, n, s);
}

/** Room for `n` bytes at the pointer: their index in `buf` (then `commit`). */
export function* room(w: Window, n: number): Op<number> {
  w.beginWrite();
  while (planRoom(w, n) === IO) yield;
  return w.progress.readyIndex;
}

/** Writes the dirty range to the file. */
export function* flushAll(w: Window): Op<void> {
  while (planFlush(w) === IO) yield;
}

/** Writes the window after a `commit` that asked for it (write-through modes). */
export function* commit(w: Window, i: number, n: number): Op<void> {
  if (w.commit(i, n)) yield* flushAll(w);
}

/** Reads one primitive at the pointer. */
export function* readPrimitive<R>(w: Window, p: Primitive<R, unknown>): Op<R> {
  let i = w.takeRead(p.width);
  if (i < 0) i = yield* fill(w, p.width);
  return p.get(w.codec, w.view, i);
}

/** Writes one primitive at the pointer. */
export function* writePrimitive<W>(w: Window, p: Primitive<unknown, W>, v: W): Op<void> {
  let i = w.writeIndex(p.width);
  if (i < 0) i = yield* room(w, p.width);
  p.set(w.codec, w.view, i, v);
  yield* commit(w, i, p.width);
}

/** `read()`: the next byte, or -1 at end of file. */
export function* readByte(w: Window): Op<number> {
  const i = w.takeRead(1);
  if (i >= 0) return w.buf[i]!;
  w.begin();
  let s: Step;
  while ((s = planRead(w, 1)) === IO) yield;
  if (s === EOF) return -1;
  const at = w.progress.readyIndex;
  w.consume(1);
  return w.buf[at]!;
}

/** Copies `len` bytes at the pointer into `dst[off…]` (`some`: as soon as any arrived). The final step. */
export function* readBytes(
  w: Window,
  dst: Uint8Array,
  off: number,
  len: number,
  some: boolean,
): Op<Step> {
  w.begin();
  let s: Step;
  while ((s = planReadBytes(w, dst, off, len, some)) === IO) yield;
  return s;
}

/** `read(buf, off, len)` (bounds already checked): bytes read, -1 at end of file, 0 only for `len` 0. */
export function* readSome(w: Window, dst: Uint8Array, off: number, len: number): Op<number> {
  w.begin();
  if (len === 0) return 0;
  const s = yield* readBytes(w, dst, off, len, true);
  return s === EOF && w.progress.transferred === 0 ? -1 : w.progress.transferred;
}

/** `readFully(buf, off, len)` (bounds already checked). */
export function* readFully(w: Window, dst: Uint8Array, off: number, len: number): Op<void> {
  if ((yield* readBytes(w, dst, off, len, false)) === EOF) throw new EOFError();
}

/** Writes `len` bytes of `src[off…]` at the pointer (bounds already checked). */
export function* writeBytes(w: Window, src: Uint8Array, off: number, len: number): Op<void> {
  // Writing nothing succeeds even in mode "r", as in Java (no write(2) happens).
  if (len === 0) {
    w.begin();
    return;
  }
  w.beginWrite();
  while (planWriteBytes(w, src, off, len) === IO) yield;
  if (w.writeThrough) yield* flushAll(w);
}

/** Java's `readLine`, decoding each byte with `latin1`. */
export function* readLine(
  w: Window,
  latin1: (buf: Uint8Array, from: number, to: number) => string,
): Op<string | null> {
  w.begin();
  let s: Step;
  while ((s = planLine(w, latin1)) === IO) yield;
  return lineResult(w, s);
}

/** Java's `readUTF`: a big-endian 2-byte length, then modified UTF-8. */
export function* readUTF(w: Window): Op<string> {
  let i = w.takeRead(2);
  if (i < 0) i = yield* fill(w, 2);
  const n = (w.buf[i]! << 8) | w.buf[i + 1]!;
  const j = w.takeRead(n);
  if (j >= 0) return ModifiedUtf8.decode(w.buf, j, n);
  const bytes = new Uint8Array(n);
  yield* readFully(w, bytes, 0, n);
  return ModifiedUtf8.decode(bytes, 0, n);
}

/** The longest string `writeUTF` can write: its 2-byte length prefix caps the encoded bytes. */
const MAX_UTF_LENGTH = 65535;

/** `writeUTF`'s encoded length; {@link UTFDataFormatError} (Java's message) when it exceeds 65535 bytes. */
export function utfLength(s: string): number {
  const n = ModifiedUtf8.encodedLength(s);
  if (n > MAX_UTF_LENGTH) {
    const head = s.slice(0, 8);
    const tail = s.slice(s.length - 8);
    throw new UTFDataFormatError(`encoded string (${head}...${tail}) too long: ${n} bytes`);
  }
  return n;
}

/** Java's `writeUTF`, in one write; nothing is written when the string is too long. */
export function* writeUTF(w: Window, s: string): Op<void> {
  const n = utfLength(s);
  const total = n + 2;
  const i = w.writeIndex(total);
  if (i >= 0) {
    w.buf[i] = n >>> 8;
    w.buf[i + 1] = n;
    ModifiedUtf8.encode(s, w.buf, i + 2);
    yield* commit(w, i, total);
    return;
  }
  const bytes = new Uint8Array(total);
  bytes[0] = n >>> 8;
  bytes[1] = n;
  ModifiedUtf8.encode(s, bytes, 2);
  yield* writeBytes(w, bytes, 0, total);
}

/** Java's `writeBytes`: the low 8 bits of each UTF-16 code unit. */
export function latin1Bytes(s: string): Uint8Array {
  if (typeof s !== "string") throw invalidArgType("s", "a string", s);
  const n = s.length;
  const bytes = new Uint8Array(n);
  for (let k = 0; k < n; k++) bytes[k] = s.charCodeAt(k);
  return bytes;
}

/** Java's `writeChars`: each UTF-16 code unit as 2 bytes in the codec's byte order. */
export function charBytes(c: ViewCodec, s: string): Uint8Array {
  if (typeof s !== "string") throw invalidArgType("s", "a string", s);
  const n = s.length;
  const bytes = new Uint8Array(n * 2);
  const view = new DataView(bytes.buffer);
  for (let k = 0; k < n; k++) c.setUint16(view, k * 2, s.charCodeAt(k));
  return bytes;
}

/** Fills `dst[off … off+count)` with `width`-byte numbers (bounds already checked). */
export function* readArray(
  w: Window,
  order: ByteOrder,
  dst: NumericArray,
  off: number,
  count: number,
  width: number,
): Op<void> {
  const bytes = count * width;
  const i = w.takeRead(bytes);
  if (i >= 0) {
    decodeArray(w.buf, i, dst, off, count, order);
    return;
  }
  w.begin();
  if (bytes === 0) return; // no view of `dst`'s memory, which may be detached
  if (bytes >= w.capacity) {
    // Large: one read straight into `dst`'s own memory, then an in-place byte swap if needed.
    const raw = new Uint8Array(dst.buffer, dst.byteOffset + off * width, bytes);
    yield* readFully(w, raw, 0, bytes);
    decodeArray(raw, 0, dst, off, count, order);
    return;
  }
  for (let k = 0; k < count; ) {
    let s: Step;
    while ((s = planRead(w, width)) === IO) yield;
    if (s === EOF) {
      w.consume(w.progress.readyBytes);
      throw new EOFError();
    }
    const m = Math.min(Math.floor(w.progress.readyBytes / width), count - k);
    decodeArray(w.buf, w.progress.readyIndex, dst, off + k, m, order);
    w.consume(m * width);
    k += m;
  }
}

/** Writes `src[off … off+count)` as `width`-byte numbers (bounds already checked). */
export function* writeArray(
  w: Window,
  order: ByteOrder,
  src: NumericArray,
  off: number,
  count: number,
  width: number,
): Op<void> {
  const bytes = count * width;
  const i = w.writeIndex(bytes);
  if (i >= 0) {
    encodeArray(src, off, count, w.buf, i, order);
    yield* commit(w, i, bytes);
    return;
  }
  const tmp = new Uint8Array(bytes);
  encodeArray(src, off, count, tmp, 0, order);
  yield* writeBytes(w, tmp, 0, bytes);
}

/** Runs `op` with the pointer at `position`, restoring it afterwards whatever happens (positional I/O). */
export function* at<T>(w: Window, position: number, op: Op<T>): Op<T> {
  const saved = w.pointer;
  w.pointer = position;
  try {
    return yield* op;
  } finally {
    w.pointer = saved;
  }
}

// ---- the operations that make other system calls: written once, each call a yield ----

/** Makes `call` (see {@link requestCall}) and returns its raw result (`-errno` on failure). */
export function* systemCall(
  w: Window,
  call: SystemCall,
  length = 0,
  lock?: LockRequest,
): Op<number> {
  requestCall(w, call, length, lock);
  yield;
  return w.request.callResult;
}

/** The file's length as this instance sees it: the OS size, counting unflushed writes (no `begin`). */
function* logicalLength(w: Window): Op<number> {
  const r = yield* systemCall(w, "size");
  if (r < 0) throw systemCallError(r, "fstat", w.path);
  return w.logicalLength(r);
}

/** `length()`. */
export function* length(w: Window): Op<number> {
  w.begin();
  return yield* logicalLength(w);
}

/** `flush()`. */
export function* flush(w: Window): Op<void> {
  w.begin();
  yield* flushAll(w);
}

/** Java's `skipBytes`: `n` checked before anything moves; never past end of file; a negative result as Java's `int`. */
export function* skipBytes(w: Window, n: number): Op<number> {
  w.begin();
  toCount(n, "skipBytes count");
  if (n <= 0) return 0;
  const pos = w.pointer;
  const target = Math.min(pos + n, yield* logicalLength(w));
  w.pointer = target;
  const moved = target - pos;
  // Java returns `(int) (newpos - pos)`: from a pointer past end of file, the move back wraps to 32 bits.
  return moved < 0 ? moved | 0 : moved;
}

/** `setLength`: flushes, then `ftruncate`; Java's `EINVAL` for a negative length, before any I/O. */
export function* setLength(w: Window, newLength: number | bigint, path: string): Op<void> {
  w.begin();
  // Java's EINVAL only for a negative integer: anything else fails toPosition's type and range checks.
  const negative =
    typeof newLength === "bigint" ? newLength < 0n : Number.isInteger(newLength) && newLength < 0;
  if (negative) throw systemCallError(-EINVAL, "ftruncate", path);
  const n = toPosition(newLength, "length");
  yield* flushAll(w);
  const r = yield* systemCall(w, "truncate", n);
  if (r < 0) throw systemCallError(r, "ftruncate", path);
  w.truncated(n);
}

/** `sync()` (`fsync`) or `datasync()` (`fdatasync`): flushes first. */
export function* sync(w: Window, data: boolean): Op<void> {
  w.begin();
  yield* flushAll(w);
  const r = yield* systemCall(w, data ? "datasync" : "sync");
  if (r < 0) throw systemCallError(r, data ? "fdatasync" : "fsync", w.path);
}

/**
 * Takes a lock (the range already checked): flushes our pending writes first (a failure then leaves no
 * lock behind), then forgets the window's clean bytes, which the previous holder may have changed.
 * The raw result: 0 when granted, else `-errno` for the caller to interpret.
 */
export function* lock(w: Window, request: LockRequest): Op<number> {
  yield* flushAll(w);
  const r = yield* systemCall(w, "lock", 0, request);
  if (r >= 0) w.discard();
  return r;
}

/** Releases a lock: flushes first, so the next holder sees what was written under it. */
export function* unlock(w: Window, request: LockRequest): Op<void> {
  yield* flushAll(w);
  const r = yield* systemCall(w, "unlock", 0, request);
  if (r < 0) throw systemCallError(r, LOCK_SYSCALL, w.path);
}

/**
 * Flushes and closes; idempotent. The descriptor is closed even when the flush fails (that error is
 * then thrown: the data is lost); `closed` runs once the window is marked closed.
 */
export function* close(w: Window, closed: () => void): Op<void> {
  if (w.closed) return;
  let failure: unknown;
  try {
    yield* flushAll(w);
  } catch (error) {
    failure = error;
  }
  w.markClosed();
  closed();
  const r = yield* systemCall(w, "close");
  if (failure !== undefined) throw failure;
  if (r < 0) throw systemCallError(r, "close", w.path);
}
