import { checkLargeOffset, throwOutOfRange } from "./bounds";
import type { Codec } from "./codec";
import { CANONICAL_DOUBLE_NAN_HI, CANONICAL_FLOAT_NAN_BITS } from "./float-bits";
import { HI, i32, i64, LO, u64 } from "./scratch";
import {
  charCode,
  checkSafeInt64,
  getBoolean,
  getInt8,
  getUint8,
  safeInt64Error,
  setBoolean,
  setInt8,
} from "./single-byte";
import { type LastView, lastView, lookup, renewView } from "./view-cache";

// Every accessor: reject an offset that is not a small integer (a negative one then fails in the
// DataView), and let the cached DataView check the range (its bounds are the array's). A throw
// lands in `renewView`, which raises our RangeError (our TypeError for a non-number) or, for a
// resized buffer, retries once with a fresh view. The offset test sits inside the `try` (V8's
// optimised code is the same as with it outside): a bigint or a symbol makes `off | 0` throw the
// engine's TypeError, which the handler replaces. The 64-bit setters convert the value between the
// test and the `try`, so theirs has its own. The cache test `b === last.b` is written out in each
// accessor rather than called: measured, even an inlined call costs a few percent here. Nothing is
// written on failure: the 64-bit integer stores reject negative offsets up front and write the far
// word first; a NaN double checks both ends before writing.

// Java's writeFloat/writeDouble: NaN goes out as the canonical bits whatever its payload. Kept out
// of line so the common (non-NaN) path stays small. The NaN test is `v <= v` on a number: one
// compare and one branch, where `Number.isNaN` compiles to two branches (unordered, then unequal);
// the loop measured is bound by branches, and that one costs 0.1-0.3 ns per set.
function writeNaN32(view: DataView, off: number): void {
  view.setInt32(off, CANONICAL_FLOAT_NAN_BITS);
}
function writeNaN64(view: DataView, off: number): void {
  // Here `off` may be negative (only small integers were checked): test both ends before writing.
  if (off < 0 || off > view.byteLength - 8) throw new RangeError("out of range");
  view.setInt32(off, CANONICAL_DOUBLE_NAN_HI);
  view.setInt32(off + 4, 0);
}
function writeFloat32(view: DataView, off: number, v: number): void {
  if (Number.isNaN(v)) writeNaN32(view, off);
  else view.setFloat32(off, v);
}
function writeFloat64(view: DataView, off: number, v: number): void {
  if (Number.isNaN(v)) writeNaN64(view, off);
  else view.setFloat64(off, v);
}

// Built by a function so that `last` is a parameter: the bundler turns module-level `const`s into
// `var`s, and V8 re-reads a `var` from the module context on every access (measured: a quarter of
// a nanosecond per call), while a never-assigned parameter is a constant to the optimiser.
function bigEndian(last: LastView): Codec {
  const methods = Object.freeze({
    order: "big" as const,
    getInt8,
    setInt8,
    getUint8,
    setUint8: setInt8,

    getInt16(b: Uint8Array, off: number): number {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 2, b.length);
        return (b === last.b ? last.v : lookup(b)).getInt16(off);
      } catch {
        return renewView(b, off, 2).getInt16(off);
      }
    },
    setInt16(b: Uint8Array, off: number, v: number): void {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 2, b.length);
        (b === last.b ? last.v : lookup(b)).setInt16(off, v);
      } catch {
        renewView(b, off, 2).setInt16(off, v);
      }
    },
    getUint16(b: Uint8Array, off: number): number {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 2, b.length);
        return (b === last.b ? last.v : lookup(b)).getUint16(off);
      } catch {
        return renewView(b, off, 2).getUint16(off);
      }
    },
    setUint16(b: Uint8Array, off: number, v: number): void {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 2, b.length);
        (b === last.b ? last.v : lookup(b)).setUint16(off, v);
      } catch {
        renewView(b, off, 2).setUint16(off, v);
      }
    },

    getInt32(b: Uint8Array, off: number): number {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 4, b.length);
        return (b === last.b ? last.v : lookup(b)).getInt32(off);
      } catch {
        return renewView(b, off, 4).getInt32(off);
      }
    },
    setInt32(b: Uint8Array, off: number, v: number): void {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 4, b.length);
        (b === last.b ? last.v : lookup(b)).setInt32(off, v);
      } catch {
        renewView(b, off, 4).setInt32(off, v);
      }
    },
    getUint32(b: Uint8Array, off: number): number {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 4, b.length);
        return (b === last.b ? last.v : lookup(b)).getUint32(off);
      } catch {
        return renewView(b, off, 4).getUint32(off);
      }
    },
    setUint32(b: Uint8Array, off: number, v: number): void {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 4, b.length);
        (b === last.b ? last.v : lookup(b)).setUint32(off, v);
      } catch {
        renewView(b, off, 4).setUint32(off, v);
      }
    },

    getBigInt64(b: Uint8Array, off: number): bigint {
      let view: DataView;
      try {
        if (off >>> 0 !== off) checkLargeOffset(off, 8, b.length);
        view = b === last.b ? last.v : lookup(b);
        i32[LO] = view.getInt32(off + 4);
      } catch {
        view = renewView(b, off, 8);
        i32[LO] = view.getInt32(off + 4);
      }
      i32[HI] = view.getInt32(off);
      return i64[0]!;
    },
    setBigInt64(b: Uint8Array, off: number, v: bigint): void {
      try {
        if (off >>> 0 !== off) checkLargeOffset(off, 8, b.length);
      } catch {
        throwOutOfRange(off, 8, b.length); // the TypeError for a bigint or a symbol
      }
      i64[0] = v; // a TypeError for a non-bigint, before anything is written
      let view = b === last.b ? last.v : lookup(b);
      try {
        view.setInt32(off + 4, i32[LO]!);
      } catch {
        view = renewView(b, off, 8);
        view.setInt32(off + 4, i32[LO]!);
      }
      view.setInt32(off, i32[HI]!);
    },
    getBigUint64(b: Uint8Array, off: number): bigint {
      let view: DataView;
      try {
        if (off >>> 0 !== off) checkLargeOffset(off, 8, b.length);
        view = b === last.b ? last.v : lookup(b);
        i32[LO] = view.getInt32(off + 4);
      } catch {
        view = renewView(b, off, 8);
        i32[LO] = view.getInt32(off + 4);
      }
      i32[HI] = view.getInt32(off);
      return u64[0]!;
    },
    setBigUint64(b: Uint8Array, off: number, v: bigint): void {
      try {
        if (off >>> 0 !== off) checkLargeOffset(off, 8, b.length);
      } catch {
        throwOutOfRange(off, 8, b.length); // the TypeError for a bigint or a symbol
      }
      u64[0] = v;
      let view = b === last.b ? last.v : lookup(b);
      try {
        view.setInt32(off + 4, i32[LO]!);
      } catch {
        view = renewView(b, off, 8);
        view.setInt32(off + 4, i32[LO]!);
      }
      view.setInt32(off, i32[HI]!);
    },

    getFloat32(b: Uint8Array, off: number): number {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 4, b.length);
        return (b === last.b ? last.v : lookup(b)).getFloat32(off);
      } catch {
        return renewView(b, off, 4).getFloat32(off);
      }
    },
    setFloat32(b: Uint8Array, off: number, v: number): void {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 4, b.length);
        v = +v; // once, as the DataView would; from here `v <= v` is false only for NaN
        const view = b === last.b ? last.v : lookup(b);
        // biome-ignore lint/suspicious/noSelfCompare: the one-branch NaN test (see the top)
        if (v <= v) view.setFloat32(off, v);
        else writeNaN32(view, off);
      } catch {
        writeFloat32(renewView(b, off, 4), off, v);
      }
    },
    getFloat64(b: Uint8Array, off: number): number {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 8, b.length);
        return (b === last.b ? last.v : lookup(b)).getFloat64(off);
      } catch {
        return renewView(b, off, 8).getFloat64(off);
      }
    },
    setFloat64(b: Uint8Array, off: number, v: number): void {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 8, b.length);
        v = +v; // once, as the DataView would; from here `v <= v` is false only for NaN
        const view = b === last.b ? last.v : lookup(b);
        // biome-ignore lint/suspicious/noSelfCompare: the one-branch NaN test (see the top)
        if (v <= v) view.setFloat64(off, v);
        else writeNaN64(view, off);
      } catch {
        writeFloat64(renewView(b, off, 8), off, v);
      }
    },

    getBoolean,
    setBoolean,

    getChar(b: Uint8Array, off: number): string {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 2, b.length);
        return String.fromCharCode((b === last.b ? last.v : lookup(b)).getUint16(off));
      } catch {
        return String.fromCharCode(renewView(b, off, 2).getUint16(off));
      }
    },
    setChar(b: Uint8Array, off: number, c: string | number): void {
      try {
        if ((off | 0) !== off) checkLargeOffset(off, 2, b.length);
        const code = charCode(c);
        (b === last.b ? last.v : lookup(b)).setUint16(off, code);
      } catch {
        renewView(b, off, 2).setUint16(off, charCode(c));
      }
    },

    getSafeInt64(b: Uint8Array, off: number): number {
      let view: DataView;
      let lo: number;
      try {
        if (off >>> 0 !== off) checkLargeOffset(off, 8, b.length);
        view = b === last.b ? last.v : lookup(b);
        lo = view.getUint32(off + 4);
      } catch {
        view = renewView(b, off, 8);
        lo = view.getUint32(off + 4);
      }
      const hi = view.getInt32(off);
      const v = hi * 4294967296 + lo;
      // Rounding is monotonic and 2^53 is representable, so an unsafe value never rounds into range.
      if (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) {
        throw safeInt64Error(hi, lo, off);
      }
      return v;
    },
    setSafeInt64(b: Uint8Array, off: number, v: number): void {
      try {
        if (off >>> 0 !== off) checkLargeOffset(off, 8, b.length);
      } catch {
        throwOutOfRange(off, 8, b.length); // the TypeError for a bigint or a symbol
      }
      checkSafeInt64(v);
      const hi = Math.floor(v / 4294967296);
      const lo = v - hi * 4294967296;
      let view = b === last.b ? last.v : lookup(b);
      try {
        view.setUint32(off + 4, lo);
      } catch {
        view = renewView(b, off, 8);
        view.setUint32(off + 4, lo);
      }
      view.setInt32(off, hi);
    },
  });
  // The codec is an empty object over `methods` as its prototype: a method then loads as a constant
  // of the (stable) prototype, where an own property of a codec held in a variable is loaded and
  // compared against the expected function on every call (measured: 0.2-0.4 ns per call).
  return Object.freeze(Object.create(methods) as typeof methods);
}

/**
 * The big-endian codec: Java's `DataInput`/`DataOutput` byte order, and the network's.
 *
 * @example
 * ```ts
 * const b = new Uint8Array(8);
 * BigEndian.setInt32(b, 1, 0x01020304); // b = [0, 1, 2, 3, 4, 0, 0, 0]
 * BigEndian.getInt32(b, 1); // 0x01020304
 * ```
 */
export const BigEndian: Codec = /* @__PURE__ */ bigEndian(lastView);
