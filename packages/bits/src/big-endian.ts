import { throwOutOfRange } from "./bounds";
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
import { renewView, viewOf } from "./view-cache";

// Every accessor: reject a non-integer offset, then let the cached DataView check the range (its
// bounds are the array's). A throw lands in `renewView`, which raises our RangeError or, for a
// resized buffer, retries once with a fresh view. Two-word stores write the far word first, so a
// range failure happens before anything is written.

// Java's writeFloat/writeDouble: NaN goes out as the canonical bits whatever its payload.
function writeFloat32(view: DataView, off: number, v: number): void {
  if (Number.isNaN(v)) view.setInt32(off, CANONICAL_FLOAT_NAN_BITS);
  else view.setFloat32(off, v);
}
function writeFloat64(view: DataView, off: number, v: number): void {
  if (Number.isNaN(v)) {
    view.setInt32(off + 4, 0); // the far word first: a range failure writes nothing
    view.setInt32(off, CANONICAL_DOUBLE_NAN_HI);
  } else {
    view.setFloat64(off, v);
  }
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
export const BigEndian: Codec = Object.freeze({
  order: "big" as const,
  getInt8,
  setInt8,
  getUint8,
  setUint8: setInt8,

  getInt16(b: Uint8Array, off: number): number {
    if (off >>> 0 !== off) throwOutOfRange(off, 2, b.length);
    try {
      return viewOf(b).getInt16(off);
    } catch {
      return renewView(b, off, 2).getInt16(off);
    }
  },
  setInt16(b: Uint8Array, off: number, v: number): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 2, b.length);
    try {
      viewOf(b).setInt16(off, v);
    } catch {
      renewView(b, off, 2).setInt16(off, v);
    }
  },
  getUint16(b: Uint8Array, off: number): number {
    if (off >>> 0 !== off) throwOutOfRange(off, 2, b.length);
    try {
      return viewOf(b).getUint16(off);
    } catch {
      return renewView(b, off, 2).getUint16(off);
    }
  },
  setUint16(b: Uint8Array, off: number, v: number): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 2, b.length);
    try {
      viewOf(b).setUint16(off, v);
    } catch {
      renewView(b, off, 2).setUint16(off, v);
    }
  },

  getInt32(b: Uint8Array, off: number): number {
    if (off >>> 0 !== off) throwOutOfRange(off, 4, b.length);
    try {
      return viewOf(b).getInt32(off);
    } catch {
      return renewView(b, off, 4).getInt32(off);
    }
  },
  setInt32(b: Uint8Array, off: number, v: number): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 4, b.length);
    try {
      viewOf(b).setInt32(off, v);
    } catch {
      renewView(b, off, 4).setInt32(off, v);
    }
  },
  getUint32(b: Uint8Array, off: number): number {
    if (off >>> 0 !== off) throwOutOfRange(off, 4, b.length);
    try {
      return viewOf(b).getUint32(off);
    } catch {
      return renewView(b, off, 4).getUint32(off);
    }
  },
  setUint32(b: Uint8Array, off: number, v: number): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 4, b.length);
    try {
      viewOf(b).setUint32(off, v);
    } catch {
      renewView(b, off, 4).setUint32(off, v);
    }
  },

  getBigInt64(b: Uint8Array, off: number): bigint {
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    let view = viewOf(b);
    try {
      i32[LO] = view.getInt32(off + 4);
    } catch {
      view = renewView(b, off, 8);
      i32[LO] = view.getInt32(off + 4);
    }
    i32[HI] = view.getInt32(off);
    return i64[0]!;
  },
  setBigInt64(b: Uint8Array, off: number, v: bigint): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    i64[0] = v; // a TypeError for a non-bigint, before anything is written
    let view = viewOf(b);
    try {
      view.setInt32(off + 4, i32[LO]!);
    } catch {
      view = renewView(b, off, 8);
      view.setInt32(off + 4, i32[LO]!);
    }
    view.setInt32(off, i32[HI]!);
  },
  getBigUint64(b: Uint8Array, off: number): bigint {
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    let view = viewOf(b);
    try {
      i32[LO] = view.getInt32(off + 4);
    } catch {
      view = renewView(b, off, 8);
      i32[LO] = view.getInt32(off + 4);
    }
    i32[HI] = view.getInt32(off);
    return u64[0]!;
  },
  setBigUint64(b: Uint8Array, off: number, v: bigint): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    u64[0] = v;
    let view = viewOf(b);
    try {
      view.setInt32(off + 4, i32[LO]!);
    } catch {
      view = renewView(b, off, 8);
      view.setInt32(off + 4, i32[LO]!);
    }
    view.setInt32(off, i32[HI]!);
  },

  getFloat32(b: Uint8Array, off: number): number {
    if (off >>> 0 !== off) throwOutOfRange(off, 4, b.length);
    try {
      return viewOf(b).getFloat32(off);
    } catch {
      return renewView(b, off, 4).getFloat32(off);
    }
  },
  setFloat32(b: Uint8Array, off: number, v: number): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 4, b.length);
    try {
      writeFloat32(viewOf(b), off, v);
    } catch {
      writeFloat32(renewView(b, off, 4), off, v);
    }
  },
  getFloat64(b: Uint8Array, off: number): number {
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    try {
      return viewOf(b).getFloat64(off);
    } catch {
      return renewView(b, off, 8).getFloat64(off);
    }
  },
  setFloat64(b: Uint8Array, off: number, v: number): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    try {
      writeFloat64(viewOf(b), off, v);
    } catch {
      writeFloat64(renewView(b, off, 8), off, v);
    }
  },

  getBoolean,
  setBoolean,

  getChar(b: Uint8Array, off: number): string {
    if (off >>> 0 !== off) throwOutOfRange(off, 2, b.length);
    try {
      return String.fromCharCode(viewOf(b).getUint16(off));
    } catch {
      return String.fromCharCode(renewView(b, off, 2).getUint16(off));
    }
  },
  setChar(b: Uint8Array, off: number, c: string | number): void {
    if (off >>> 0 !== off) throwOutOfRange(off, 2, b.length);
    const code = charCode(c);
    try {
      viewOf(b).setUint16(off, code);
    } catch {
      renewView(b, off, 2).setUint16(off, code);
    }
  },

  getSafeInt64(b: Uint8Array, off: number): number {
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    let view = viewOf(b);
    let lo: number;
    try {
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
    if (off >>> 0 !== off) throwOutOfRange(off, 8, b.length);
    checkSafeInt64(v);
    const hi = Math.floor(v / 4294967296);
    const lo = v - hi * 4294967296;
    let view = viewOf(b);
    try {
      view.setUint32(off + 4, lo);
    } catch {
      view = renewView(b, off, 8);
      view.setUint32(off + 4, lo);
    }
    view.setInt32(off, hi);
  },
});
