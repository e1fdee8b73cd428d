import { checkRange } from "./bounds";

// The codecs read and write through a DataView, which V8 compiles to one (unaligned) load or store;
// composing bytes by hand costs about twice as much. A view is made once per Uint8Array and reused:
// the last array's view sits in `last`, the rest in a WeakMap (collected with their arrays).
// The view spans exactly the array's bytes, so its own bounds check is the array's.

const last: { b: Uint8Array; v: DataView } = {
  b: new Uint8Array(0),
  v: new DataView(new ArrayBuffer(0)),
};
const views = new WeakMap<Uint8Array, DataView>();

function lookup(b: Uint8Array): DataView {
  let v = views.get(b);
  if (v === undefined) {
    v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    views.set(b, v);
  }
  last.b = b;
  last.v = v;
  return v;
}

/** The DataView over exactly the bytes of `b`. @internal */
export function viewOf(b: Uint8Array): DataView {
  return b === last.b ? last.v : lookup(b);
}

/**
 * Called when an access through `viewOf(b)` threw: throws the `RangeError` if `[off, off + width)`
 * is outside `b`; otherwise the view is stale (the array is length-tracking over a resizable buffer
 * that changed size), so makes a fresh one for the caller to retry with.
 * @internal
 */
export function renewView(b: Uint8Array, off: number, width: number): DataView {
  checkRange(off, width, b.length);
  views.delete(b);
  return lookup(b);
}
