import type { LockRequest } from "@rafkit/syscall-state";
import type { Window } from "./window";

/** What a planner tells its driver: the operation can finish now ({@link READY}), needs {@link IO}, or hit {@link EOF}. */
export type Step = 0 | 1 | 2;
/** The operation can complete from the window. */
export const READY: Step = 0;
/** The driver must perform the pending request ({@link Window.request}), pass its result to `complete`, and plan again. */
export const IO: Step = 1;
/** The file ended first; `progress.readyBytes` bytes at `progress.readyIndex` (possibly 0) were all there was. */
export const EOF: Step = 2;

// What a pending request is for, so `complete` (complete.ts) knows how to apply its result.
export const FILL = 1;
export const FLUSH = 2;
export const DIRECT_READ = 3;
export const DIRECT_WRITE = 4;
/** Any other system call ({@link SystemCall}): its raw result goes to `callResult`, never thrown by `complete`. */
export const CALL = 5;

/** The system calls other than `pread`/`pwrite` an operation can ask its driver for (see {@link requestCall}). */
export type SystemCall = "size" | "truncate" | "sync" | "datasync" | "lock" | "unlock" | "close";

/**
 * The one system call a window's operation waits for (after a plan answered `IO`): the driver makes it
 * and hands its result to `complete`. A `pread`/`pwrite` of `buffer[offset, offset + length)` at
 * file `position`, or another {@link SystemCall}.
 */
export class PendingRequest {
  /** What the call is for: {@link FILL}, {@link FLUSH}, {@link DIRECT_READ}, {@link DIRECT_WRITE}, {@link CALL}; 0 when none. */
  purpose = 0;
  /** A `pwrite` (else a `pread`). */
  isWrite = false;
  buffer: Uint8Array;
  offset = 0;
  length = 0;
  position = 0;
  /** A pending {@link CALL}: which one, its length argument (`truncate`), its lock request (`lock`/`unlock`). */
  call: SystemCall = "size";
  truncateTo = 0;
  lock: LockRequest | undefined;
  /** The raw result (or `-errno`) of the last completed {@link CALL}. */
  callResult = 0;

  constructor(buffer: Uint8Array) {
    this.buffer = buffer;
  }
}

/** What the operation now running has done so far; `Window.begin` resets it. */
export class OperationProgress {
  /** After a READY/EOF plan: where the bytes are in the window's `buf`, and how many are there from it. */
  readyIndex = 0;
  readyBytes = 0;
  /** Bytes a byte transfer has moved so far. */
  transferred = 0;
  /** A read met the end of file. */
  endOfFile = false;
  /** A read reached the OS (Java's `read(byte[])` makes at most one). */
  osReadMade = false;
  /**
   * Where the pointer stood when the current write began (see `Window.beginWrite`), until the next
   * operation begins or a flush fails: in `rws`/`rwd`, a write whose own flush the OS refuses for good is
   * done only as far as its bytes reached the file, and the pointer goes back to the end of those (here,
   * if none did), however many flushes of it succeeded before. -1 otherwise.
   */
  writeStart = -1;
  /** `readLine`: the text so far, and whether a `\r` was just consumed. */
  lineText = "";
  lineAfterCR = false;
}

/**
 * Asks the driver for `call` (with `length` for `truncate`, `lock` for `lock`/`unlock`); the operation
 * then yields once, and finds the raw result in `request.callResult`. No retry on `-EINTR` here: the backend
 * retries every call but `close`, which must never be retried.
 */
export function requestCall(w: Window, call: SystemCall, length = 0, lock?: LockRequest): void {
  w.settle();
  w.request.purpose = CALL;
  w.request.call = call;
  w.request.truncateTo = length;
  w.request.lock = lock;
}

/** Asks the driver to write the window's dirty range to the file. */
export function requestFlush(w: Window): Step {
  return ask(w, FLUSH, true, w.buf, w.dirtyFrom, w.dirtyTo - w.dirtyFrom, w.start + w.dirtyFrom);
}

/** Asks the driver for a `pread` (`write` false) or `pwrite` of `buf[off, off + len)` at file `pos`, for `kind`. */
export function ask(
  w: Window,
  kind: number,
  write: boolean,
  buf: Uint8Array,
  off: number,
  len: number,
  pos: number,
): Step {
  const request = w.request;
  request.purpose = kind;
  request.isWrite = write;
  // An exact-length view at offset 0 is what the native backend passes on without a subarray.
  request.buffer = off === 0 && buf === w.buf ? (w.exactViews?.[len] ?? buf) : buf;
  request.offset = off;
  request.length = len;
  request.position = pos;
  return IO;
}
