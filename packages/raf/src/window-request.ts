import type { LockRequest } from "@rafkit/syscall-state";

// What a pending request is for, so `Window.complete` knows how to apply its result.
export const FILL = 1;
export const FLUSH = 2;
export const DIRECT_READ = 3;
export const DIRECT_WRITE = 4;
/** Any other system call ({@link SystemCall}): its raw result goes to `callResult`, never thrown by `complete`. */
export const CALL = 5;

/** The system calls other than `pread`/`pwrite` an operation can ask its driver for (see `Window.requestCall`). */
export type SystemCall = "size" | "truncate" | "sync" | "datasync" | "lock" | "unlock" | "close";

/**
 * The one system call a window's operation waits for (after a plan answered `IO`): the driver makes it
 * and hands its result to `Window.complete`. A `pread`/`pwrite` of `buffer[offset, offset + length)` at
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
