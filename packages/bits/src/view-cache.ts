import { checkRange, notBytes } from "./bounds";

// The codecs read and write through a DataView, which V8 compiles to one (unaligned) load or store,
// where composing bytes by hand takes a bounds check per byte. A view is made once per
// Uint8Array and reused: the last array's view sits in `lastView`, the rest in a WeakMap
// (collected with their arrays). The view spans exactly the array's bytes, so its own bounds check
// is the array's.
//
// The accessors test `b === last.b` themselves (`last` being `lastView`) and call `lookup` only on
// a miss. It is an object, not two module-level `let`s: V8 checks a `let` for its temporal dead
// zone on every read, where a field load needs no check.

/**
 * An array and its view: the last one looked up, or the one before it. A class rather than two
 * object literals: V8 made the second literal of the same shape widen the fields' tracked type to
 * "any", and then checked the view's map on every access (seen in the optimised code; BENCHMARKS.md).
 * Assigned in the constructor, the fields keep their exact types.
 * @internal
 */
export class LastView {
  declare b: Uint8Array;
  declare v: DataView;
  constructor(b: Uint8Array, v: DataView) {
    this.b = b;
    this.v = v;
  }
}

const EMPTY = new Uint8Array(0);
const EMPTY_VIEW = new DataView(new ArrayBuffer(0));

/** The one `LastView`, updated by every `lookup`. @internal */
export const lastView: LastView = new LastView(EMPTY, EMPTY_VIEW);
// The array before it, so code alternating between two arrays (raf's window buffer and a user's)
// finds the other view without a WeakMap lookup (BENCHMARKS.md).
const previous = new LastView(EMPTY, EMPTY_VIEW);
/** A view made for an array, and whether the array's buffer is large (see below). */
class Made {
  declare v: DataView;
  declare large: boolean;
  constructor(v: DataView, large: boolean) {
    this.v = v;
    this.large = large;
  }
}
const views = new WeakMap<Uint8Array, Made>();

// The two slots hold their arrays strongly: one over a large buffer (a small window into a file read
// whole counts: it keeps the whole buffer) is let go of a while after it was cached, or a program that
// decoded one big file and dropped it would keep it alive until two other arrays came by. One more
// lookup per second costs nothing; small buffers are not worth a timer. Whether a buffer is large is
// decided once, when its array's view is made (the `buffer` getter is too slow for every switch
// between two arrays; BENCHMARKS.md); a resizable or growable one counts as large (it may grow
// later, even from another thread, with no access here to notice). The timer is armed whenever an array enters
// the slots from the WeakMap: one moving between the two slots entered that way, so a release is
// pending for it. Sizes never come from a `DataView`, whose getter throws for a detached buffer (and
// for a view that a shrunken resizable buffer left out of bounds): in a timer, that would end the process.
const LARGE = 1 << 20;
const RELEASE_MS = 1000;
let releasing = false;

function forgetLarge(): void {
  releasing = false;
  for (const slot of [lastView, previous]) {
    if (views.get(slot.b)?.large ?? slot.b !== EMPTY) {
      slot.b = EMPTY;
      slot.v = EMPTY_VIEW;
    }
  }
}

/**
 * The DataView over exactly the bytes of `b`, made or found; `b` becomes `lastView` and the array
 * that was there becomes the previous one.
 * @internal
 */
export function lookup(b: Uint8Array): DataView {
  let v: DataView;
  if (b === previous.b) {
    v = previous.v;
  } else {
    let made = views.get(b);
    if (made === undefined) {
      // Once per array: a DataView or an ArrayBuffer in its place would otherwise be read through.
      if (typeof b.length !== "number" || !ArrayBuffer.isView(b)) throw notBytes();
      const buffer = b.buffer;
      const large =
        buffer.byteLength >= LARGE ||
        (buffer as { resizable?: boolean }).resizable === true ||
        (buffer as { growable?: boolean }).growable === true;
      made = new Made(new DataView(buffer, b.byteOffset, b.byteLength), large);
      views.set(b, made);
    }
    v = made.v;
    if (made.large && !releasing) {
      releasing = true;
      // unref: never what keeps Node running (other runtimes' timers have no unref)
      (setTimeout(forgetLarge, RELEASE_MS) as { unref?: () => void }).unref?.();
    }
  }
  previous.b = lastView.b;
  previous.v = lastView.v;
  lastView.b = b;
  lastView.v = v;
  return v;
}

/**
 * Called when an access through the view of `b` threw: throws the `RangeError` if `[off, off + width)`
 * is outside `b` or `off` is not a non-negative integer (the `TypeError` if it is not a number); otherwise the view is stale (the array is
 * length-tracking over a resizable buffer that changed size), so makes a fresh one for the caller to
 * retry with.
 * @internal
 */
export function renewView(b: Uint8Array, off: number, width: number): DataView {
  checkRange(off, width, b.length);
  views.delete(b);
  // Forget the stale view wherever it is remembered, so `lookup` makes a fresh one.
  for (const slot of [previous, lastView]) {
    if (slot.b === b) {
      slot.b = EMPTY;
      slot.v = EMPTY_VIEW;
    }
  }
  return lookup(b);
}
