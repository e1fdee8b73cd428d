import { checkStillInside } from "../typed-arrays";
import { ask, DIRECT_WRITE, READY, requestFlush, type Step } from "./request";
import type { Window } from "./window";

// The write planners: the slow paths of writes, as functions of the window (its hot paths,
// `Window.runIndex`/`writeIndex`/`commit`, are methods). Each answers READY, or IO with the flush or
// the direct write to make.

/** Plans room for `n` bytes at the pointer; READY when `buf[progress.readyIndex]` may take them (then write and {@link Window.commit}). */
export function planRoom(w: Window, n: number): Step {
  w.settle();
  w.checkWriteEnd(n);
  const i = w.rawPointer - w.start;
  const lim = Math.max(n, w.capacity);
  if (i >= 0 && i <= w.valid && i + n <= lim) {
    // Not joining the dirty range: flush it, then come back for the same room (the window stays).
    if (!w.joins(i, i + n)) return requestFlush(w);
    w.progress.readyIndex = i;
    return READY;
  }
  if (w.dirty) return requestFlush(w);
  w.start = w.rawPointer;
  w.valid = 0;
  w.progress.readyIndex = 0;
  return READY;
}

/** Plans writing the dirty range to the file; READY once clean. */
export function planFlush(w: Window): Step {
  w.settle();
  return w.dirty ? requestFlush(w) : READY;
}

/** Plans writing `len` bytes of `src[off…]` at the pointer, `progress.transferred` so far. Transfers of at least the capacity bypass the window, all of them. */
export function planWriteBytes(w: Window, src: Uint8Array, off: number, len: number): Step {
  w.settle();
  // The pointer has moved over what was transferred: the same test on every call, so the first one decides.
  w.checkWriteEnd(len - w.progress.transferred);
  for (;;) {
    const rem = len - w.progress.transferred;
    if (rem === 0) return READY;
    // `len`, not `rem`: after a short direct write the rest goes direct too, so a failure fails this write
    // (as the JDK's) rather than leaving the rest in the window behind a successful answer.
    if (len >= w.capacity) {
      if (w.dirty) return requestFlush(w);
      return ask(w, DIRECT_WRITE, true, src, off + w.progress.transferred, rem, w.rawPointer);
    }
    const i = w.rawPointer - w.start;
    if (i >= 0 && i <= w.valid && i < w.capacity) {
      const k = Math.min(w.capacity - i, rem);
      if (!w.joins(i, i + k)) return requestFlush(w);
      const from = off + w.progress.transferred;
      checkStillInside(src, from + k);
      w.buf.set(src.subarray(from, from + k), i);
      w.progress.transferred += k;
      w.mark(i, i + k);
      w.rawPointer += k;
      continue;
    }
    if (w.dirty) return requestFlush(w);
    w.start = w.rawPointer;
    w.valid = 0;
  }
}
