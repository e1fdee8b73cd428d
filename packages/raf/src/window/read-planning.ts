import { EOFError } from "../errors";
import { checkStillInside } from "../typed-arrays";
import { ask, DIRECT_READ, EOF, FILL, READY, requestFlush, type Step } from "./request";
import { MAX_POSITION, type Window } from "./window";

// The read planners: the slow paths of reads, as functions of the window (its hot path,
// `Window.takeRead`, is a method). Each answers READY, EOF, or IO with the one system call to make.

/** `%TypedArray%.prototype.set`, whatever a caller's array overrides. */
const setBytes = (Object.getPrototypeOf(Uint8Array.prototype) as Uint8Array).set;

/**
 * Plans making `n` (at most 8, or at most the capacity) bytes at the pointer readable in `buf`.
 * READY: they are at `buf[progress.readyIndex]`, `progress.readyBytes >= n` bytes in all; the pointer has not moved (see {@link Window.consume}).
 * EOF: only `progress.readyBytes` bytes remained.
 */
export function planRead(w: Window, n: number): Step {
  w.settle();
  const i = w.rawPointer - w.start;
  if (i >= 0 && i + n <= w.valid) {
    w.progress.readyIndex = i;
    w.progress.readyBytes = w.valid - i;
    return READY;
  }
  if (w.progress.endOfFile) {
    w.progress.readyIndex = i;
    w.progress.readyBytes = i >= 0 && i < w.valid ? w.valid - i : 0;
    return EOF;
  }
  const lim = Math.max(n, w.capacity);
  if (i < 0 || i + n > lim) {
    if (w.dirty) return requestFlush(w);
    w.start = w.rawPointer;
    w.valid = 0;
  }
  // Extend the window: the file is authoritative beyond `valid`, so no flush is needed.
  return ask(w, FILL, false, w.buf, w.valid, fillLength(w, lim), w.start + w.valid);
}

/**
 * Ends a primitive read once {@link planRead}`(n)` gave `s` (READY or EOF): the index in `buf` of the
 * `n` bytes, consumed; {@link EOFError} when short (what there was is consumed). Attaches the read
 * cursor after them, so the next primitive reads are hot-path ones.
 */
export function endPrimitiveRead(w: Window, n: number, s: Step): number {
  if (s === EOF) {
    w.consume(w.progress.readyBytes);
    throw new EOFError();
  }
  const at = w.progress.readyIndex;
  w.consume(n);
  w.attachRead();
  return at;
}

/**
 * Plans copying `len` bytes at the pointer into `dst[off…]`, `progress.transferred` so far. With `some`, READY as soon
 * as any byte arrived (Java's `read(byte[])`: at most one system call); otherwise all `len` (`readFully`).
 * Transfers of at least the capacity bypass the window.
 */
export function planReadBytes(
  w: Window,
  dst: Uint8Array,
  off: number,
  len: number,
  some: boolean,
): Step {
  w.settle();
  for (;;) {
    const rem = len - w.progress.transferred;
    if (rem === 0 || (some && w.progress.transferred > 0 && w.progress.osReadMade)) return READY;
    const i = w.rawPointer - w.start;
    if (i >= 0 && i < w.valid) {
      const k = Math.min(w.valid - i, rem);
      // The intrinsic `set`: a subclass's own would be handed a view of the window's memory to keep.
      checkStillInside(dst, off + w.progress.transferred + k);
      setBytes.call(dst, w.buf.subarray(i, i + k), off + w.progress.transferred);
      w.progress.transferred += k;
      w.consume(k);
      continue;
    }
    if (w.progress.endOfFile) return EOF;
    if (some && w.progress.transferred > 0) {
      // The window's part is copied (the pointer is at its end, so no dirty byte lies ahead): one
      // direct read for the rest, as the JDK's single read(2) asks the OS for all `len` bytes.
      return directRead(w, dst, off, rem);
    }
    if (rem >= w.capacity) {
      if (w.dirty) return requestFlush(w);
      return directRead(w, dst, off, rem);
    }
    // The fill extends the window's file part up to its capacity: when that would end before the
    // `rem` bytes do, the window moves to the pointer first, so one fill asks for all of them (a
    // `read` stays short only where the OS read is: at end of file).
    if (i < 0 || i + rem > w.capacity) {
      if (w.dirty) return requestFlush(w);
      w.start = w.rawPointer;
      w.valid = 0;
    }
    return ask(w, FILL, false, w.buf, w.valid, fillLength(w, w.capacity), w.start + w.valid);
  }
}

/** How many bytes a fill extending the window up to `buf[lim]` asks for: none past {@link MAX_POSITION} (an empty read there is end of file). */
function fillLength(w: Window, lim: number): number {
  return Math.min(lim - w.valid, MAX_POSITION - (w.start + w.valid));
}

/** Asks for a read of up to `rem` bytes at the pointer straight into `dst`, none past {@link MAX_POSITION}. */
function directRead(w: Window, dst: Uint8Array, off: number, rem: number): Step {
  const n = Math.min(rem, MAX_POSITION - w.rawPointer);
  return ask(w, DIRECT_READ, false, dst, off + w.progress.transferred, n, w.rawPointer);
}

/**
 * Plans one step of Java's `readLine`: Latin-1 text up to `\n`, `\r` or `\r\n`, consumed.
 * READY or EOF when the line is complete: {@link lineResult} then gives it (`null` only at EOF with no text).
 * In unbuffered mode this reads byte by byte, exactly as the JDK.
 */
export function planLine(
  w: Window,
  text: (buf: Uint8Array, from: number, to: number) => string,
): Step {
  for (;;) {
    const s = planRead(w, 1);
    if (s !== READY) return s;
    const b = w.buf;
    let j = w.progress.readyIndex;
    if (w.progress.lineAfterCR) {
      w.progress.lineAfterCR = false;
      w.consume(b[j] === 0x0a ? 1 : 0);
      return READY;
    }
    const end = j + w.progress.readyBytes;
    while (j < end && b[j] !== 0x0a && b[j] !== 0x0d) j++;
    if (j > w.progress.readyIndex) w.progress.lineText += text(b, w.progress.readyIndex, j);
    if (j === end) {
      w.consume(j - w.progress.readyIndex);
      continue;
    }
    const c = b[j];
    if (c === 0x0d && j + 1 < end) {
      // The byte after `\r` is already here: no need to come back for it.
      w.consume(j - w.progress.readyIndex + (b[j + 1] === 0x0a ? 2 : 1));
      return READY;
    }
    w.consume(j - w.progress.readyIndex + 1);
    if (c === 0x0a) return READY;
    w.progress.lineAfterCR = true;
  }
}

/** The line {@link planLine} completed (given its final step), resetting its state. */
export function lineResult(w: Window, step: Step): string | null {
  const line = w.progress.lineText;
  const terminated = step === READY || w.progress.lineAfterCR;
  w.progress.lineText = "";
  w.progress.lineAfterCR = false;
  return line.length === 0 && !terminated ? null : line;
}
