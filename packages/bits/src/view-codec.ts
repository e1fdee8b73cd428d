import type { PrimitiveAccessors } from "./accessors";
import { BIGINT_VIA_WORDS } from "./bigint-path";
import { checkLargeOffset, notABigInt, notANumber, throwOutOfRange } from "./bounds";
import { type ByteOrder, invalidOrder } from "./codec";
import { CANONICAL_DOUBLE_NAN_HI, CANONICAL_FLOAT_NAN_BITS } from "./float-bits";
import { HI, i32, i64, LO, u64 } from "./scratch";
import { charCode, checkSafeInt64, safeInt64Error } from "./single-byte";

/**
 * The {@link Codec} accessors ({@link PrimitiveAccessors}) for a caller that holds a `DataView` over its own long-lived buffer (an
 * I/O window, a page): the same method set, names and Java semantics (canonical NaN on writes, `boolean`,
 * `char`, safe 64-bit numbers), with no view to find per call, so each access costs what the `DataView`
 * call costs.
 *
 * Offsets are relative to the view, and may pass 2^32 in a view over more than 4 GiB. An access that does
 * not fit the view, or an offset that is not an integer (never truncated as `DataView` would), is an
 * `OutOfRangeError` (`ERR_OUT_OF_RANGE`); an offset that is not a number (a bigint, a symbol, a string, …)
 * is a `TypeError` (`ERR_INVALID_ARG_TYPE`). A failed call writes nothing.
 */
export interface ViewCodec extends PrimitiveAccessors<DataView> {}

/**
 * Called with what a view access threw: the `OutOfRangeError` when `[off, off + width)` is outside the view (its
 * own `RangeError` names neither), or when the view has no bytes at all, where every access is out of range
 * (over a detached buffer, or a length-tracking view that its shrunken buffer left out of bounds: the engine's
 * `TypeError`, read as length 0, as the `Uint8Array` codecs read a detached array; an empty view, whatever the
 * value); a `TypeError` (`ERR_INVALID_ARG_TYPE`) for a view that is not a `DataView`; else the error as it was (a
 * value the setter cannot convert).
 */
function rethrow(error: unknown, view: DataView, off: number, width: number): never {
  if (typeof off !== "number") throw notANumber("Offset", off);
  // By tag, not instanceof: a DataView of another realm is one too.
  if (Object.prototype.toString.call(view) !== "[object DataView]") {
    throw Object.assign(new TypeError("The view must be a DataView"), {
      code: "ERR_INVALID_ARG_TYPE",
    });
  }
  let length: number;
  try {
    length = view.byteLength;
  } catch {
    length = 0;
  }
  // By name: a DataView of another realm throws that realm's RangeError.
  if ((error as { name?: unknown } | null)?.name === "RangeError" || length === 0) {
    throwOutOfRange(off, width, length, "DataView");
  }
  throw error;
}

/**
 * The 64-bit bigint get/set pair of one signedness: two 32-bit words through the scratch word where
 * DataView's own accessors are slow (V8 before 13), else DataView's own, which need no scratch (see
 * bigint-path.ts). One body for both signednesses and both orders: `signed` and `little` are never-assigned
 * parameters, as in `viewCodec`. What the accessors use comes in as parameters too, so they find it in
 * their own closure rather than one further out (BENCHMARKS.md, "The view codec's 64-bit bigint
 * accessors"). A failed set writes nothing either way (a non-bigint throws before any store; DataView
 * checks its range first).
 */
function bigint64Accessors(
  signed: boolean,
  little: boolean,
  viaWords: boolean,
  check64: (view: DataView, off: number) => void,
  writeWords: (view: DataView, off: number, hi: number, lo: number) => void,
) {
  const hiAt = little ? 4 : 0;
  const loAt = little ? 0 : 4;
  if (viaWords) {
    return {
      get(view: DataView, off: number): bigint {
        check64(view, off);
        try {
          i32[LO] = view.getInt32(off + loAt, little);
          i32[HI] = view.getInt32(off + hiAt, little);
        } catch (error) {
          rethrow(error, view, off, 8);
        }
        return signed ? i64[0]! : u64[0]!;
      },
      set(view: DataView, off: number, v: bigint): void {
        check64(view, off);
        // Before anything is written; the store below would convert a string or a boolean.
        if (typeof v !== "bigint") throw notABigInt(v);
        if (signed) i64[0] = v;
        else u64[0] = v;
        writeWords(view, off, i32[HI]!, i32[LO]!);
      },
    };
  }
  return {
    get(view: DataView, off: number): bigint {
      check64(view, off);
      try {
        return signed ? view.getBigInt64(off, little) : view.getBigUint64(off, little);
      } catch (error) {
        return rethrow(error, view, off, 8);
      }
    },
    set(view: DataView, off: number, v: bigint): void {
      check64(view, off);
      // DataView would convert a string or a boolean (`"5"` to 5n).
      if (typeof v !== "bigint") throw notABigInt(v);
      try {
        if (signed) view.setBigInt64(off, v, little);
        else view.setBigUint64(off, v, little);
      } catch (error) {
        rethrow(error, view, off, 8);
      }
    },
  };
}

// Built by a function of `little` so both orders share one body; a never-assigned parameter is a
// constant to the optimiser, so each accessor compiles to the one DataView call it needs.
/** @internal Exported for the tests that hold both 64-bit bigint paths (`viaWords`) to one behaviour. */
export function viewCodec(order: ByteOrder, little: boolean, viaWords: boolean): ViewCodec {
  // Indices of the high and low words of a 64-bit value in the view.
  const hiAt = little ? 4 : 0;
  const loAt = little ? 0 : 4;

  // An offset that is not a small integer takes the cold check (large offsets of views over 2 GiB
  // pass); DataView would truncate a fraction. The 64-bit accessors split into two 32-bit halves, so
  // they reject a negative offset up front (else the far half could land in range) and write the far
  // half first: its bounds check then covers the whole access before a byte changes. The `try` is
  // free: a bigint or a symbol makes the test itself throw the engine's TypeError, which `rethrow`
  // replaces with ours.
  function check(view: DataView, off: number, width: number): void {
    try {
      if ((off | 0) !== off) checkLargeOffset(off, width, view.byteLength, "DataView");
    } catch (error) {
      rethrow(error, view, off, width);
    }
  }
  function check64(view: DataView, off: number): void {
    try {
      if (off >>> 0 !== off) checkLargeOffset(off, 8, view.byteLength, "DataView");
    } catch (error) {
      rethrow(error, view, off, 8);
    }
  }

  // The 64-bit bigint accessors, one pair per signedness (see bigint64Accessors).
  const int64 = bigint64Accessors(true, little, viaWords, check64, writeWords);
  const uint64 = bigint64Accessors(false, little, viaWords, check64, writeWords);

  const methods = Object.freeze({
    order,
    getInt8(view: DataView, off: number): number {
      check(view, off, 1);
      try {
        return view.getInt8(off);
      } catch (error) {
        return rethrow(error, view, off, 1);
      }
    },
    setInt8(view: DataView, off: number, v: number): void {
      check(view, off, 1);
      try {
        view.setUint8(off, v);
      } catch (error) {
        rethrow(error, view, off, 1);
      }
    },
    getUint8(view: DataView, off: number): number {
      check(view, off, 1);
      try {
        return view.getUint8(off);
      } catch (error) {
        return rethrow(error, view, off, 1);
      }
    },
    setUint8(view: DataView, off: number, v: number): void {
      check(view, off, 1);
      try {
        view.setUint8(off, v);
      } catch (error) {
        rethrow(error, view, off, 1);
      }
    },
    getInt16(view: DataView, off: number): number {
      check(view, off, 2);
      try {
        return view.getInt16(off, little);
      } catch (error) {
        return rethrow(error, view, off, 2);
      }
    },
    setInt16(view: DataView, off: number, v: number): void {
      check(view, off, 2);
      try {
        view.setUint16(off, v, little);
      } catch (error) {
        rethrow(error, view, off, 2);
      }
    },
    getUint16(view: DataView, off: number): number {
      check(view, off, 2);
      try {
        return view.getUint16(off, little);
      } catch (error) {
        return rethrow(error, view, off, 2);
      }
    },
    setUint16(view: DataView, off: number, v: number): void {
      check(view, off, 2);
      try {
        view.setUint16(off, v, little);
      } catch (error) {
        rethrow(error, view, off, 2);
      }
    },
    getInt32(view: DataView, off: number): number {
      check(view, off, 4);
      try {
        return view.getInt32(off, little);
      } catch (error) {
        return rethrow(error, view, off, 4);
      }
    },
    setInt32(view: DataView, off: number, v: number): void {
      check(view, off, 4);
      try {
        view.setUint32(off, v, little);
      } catch (error) {
        rethrow(error, view, off, 4);
      }
    },
    getUint32(view: DataView, off: number): number {
      check(view, off, 4);
      try {
        return view.getUint32(off, little);
      } catch (error) {
        return rethrow(error, view, off, 4);
      }
    },
    setUint32(view: DataView, off: number, v: number): void {
      check(view, off, 4);
      try {
        view.setUint32(off, v, little);
      } catch (error) {
        rethrow(error, view, off, 4);
      }
    },
    getBigInt64: int64.get,
    setBigInt64: int64.set,
    getBigUint64: uint64.get,
    setBigUint64: uint64.set,
    getFloat32(view: DataView, off: number): number {
      check(view, off, 4);
      try {
        return view.getFloat32(off, little);
      } catch (error) {
        return rethrow(error, view, off, 4);
      }
    },
    setFloat32(view: DataView, off: number, v: number): void {
      check(view, off, 4);
      v = +v; // once; then `v <= v` is the one-branch NaN test (see big-endian.ts)
      try {
        // biome-ignore lint/suspicious/noSelfCompare: the one-branch NaN test
        if (v <= v) view.setFloat32(off, v, little);
        else view.setUint32(off, CANONICAL_FLOAT_NAN_BITS, little);
      } catch (error) {
        rethrow(error, view, off, 4);
      }
    },
    getFloat64(view: DataView, off: number): number {
      check(view, off, 8);
      try {
        return view.getFloat64(off, little);
      } catch (error) {
        return rethrow(error, view, off, 8);
      }
    },
    setFloat64(view: DataView, off: number, v: number): void {
      check(view, off, 8);
      v = +v;
      try {
        // biome-ignore lint/suspicious/noSelfCompare: the one-branch NaN test
        if (v <= v) {
          view.setFloat64(off, v, little);
        } else {
          check64(view, off);
          writeWords(view, off, CANONICAL_DOUBLE_NAN_HI, 0);
        }
      } catch (error) {
        rethrow(error, view, off, 8);
      }
    },
    getBoolean(view: DataView, off: number): boolean {
      check(view, off, 1);
      try {
        return view.getUint8(off) !== 0;
      } catch (error) {
        return rethrow(error, view, off, 1);
      }
    },
    setBoolean(view: DataView, off: number, v: boolean): void {
      check(view, off, 1);
      try {
        view.setUint8(off, v ? 1 : 0);
      } catch (error) {
        rethrow(error, view, off, 1);
      }
    },
    getChar(view: DataView, off: number): string {
      check(view, off, 2);
      try {
        return String.fromCharCode(view.getUint16(off, little));
      } catch (error) {
        return rethrow(error, view, off, 2);
      }
    },
    setChar(view: DataView, off: number, c: string | number): void {
      check(view, off, 2);
      try {
        view.setUint16(off, charCode(c), little);
      } catch (error) {
        rethrow(error, view, off, 2);
      }
    },
    getSafeInt64(view: DataView, off: number): number {
      check64(view, off);
      let lo: number;
      let hi: number;
      try {
        lo = view.getUint32(off + loAt, little);
        hi = view.getInt32(off + hiAt, little);
      } catch (error) {
        return rethrow(error, view, off, 8);
      }
      const v = hi * 4294967296 + lo;
      // Rounding is monotonic and 2^53 is representable, so an unsafe value never rounds into range.
      if (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) {
        throw safeInt64Error(hi, lo, off);
      }
      return v;
    },
    setSafeInt64(view: DataView, off: number, v: number): void {
      check64(view, off);
      checkSafeInt64(v);
      const hi = Math.floor(v / 4294967296);
      writeWords(view, off, hi, v - hi * 4294967296);
    },
  });
  // An empty object over `methods` as its prototype: see the Uint8Array codecs (big-endian.ts).
  return Object.freeze(Object.create(methods) as typeof methods);

  // The far word first, so its bounds check guards the whole access.
  function writeWords(view: DataView, off: number, hi: number, lo: number): void {
    try {
      if (little) view.setUint32(off + 4, hi, true);
      else view.setUint32(off + 4, lo);
    } catch (error) {
      rethrow(error, view, off, 8);
    }
    if (little) view.setUint32(off, lo, true);
    else view.setUint32(off, hi);
  }
}

/**
 * Big-endian accessors on a `DataView` you hold: Java's `DataInput`/`DataOutput` byte order.
 *
 * @example
 * ```ts
 * const page = new DataView(new ArrayBuffer(4096));
 * BigEndianView.setInt32(page, 16, 42);
 * BigEndianView.getInt32(page, 16); // 42
 * ```
 */
export const BigEndianView: ViewCodec = /* @__PURE__ */ viewCodec("big", false, BIGINT_VIA_WORDS);

/**
 * Little-endian accessors on a `DataView` you hold.
 *
 * @example
 * ```ts
 * const page = new DataView(new ArrayBuffer(8));
 * LittleEndianView.setUint16(page, 0, 0x0201); // bytes 01 02
 * ```
 */
export const LittleEndianView: ViewCodec = /* @__PURE__ */ viewCodec(
  "little",
  true,
  BIGINT_VIA_WORDS,
);

/**
 * The {@link ViewCodec} for a byte order.
 *
 * @example
 * ```ts
 * viewCodecFor("little") === LittleEndianView; // true
 * ```
 */
export function viewCodecFor(order: ByteOrder): ViewCodec {
  if (order === "big") return BigEndianView;
  if (order === "little") return LittleEndianView;
  throw invalidOrder(order);
}
