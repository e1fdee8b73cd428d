import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  doubleToLongBits,
  doubleToRawLongBits,
  floatToIntBits,
  floatToRawIntBits,
  intBitsToFloat,
  longBitsToDouble,
} from "../src/index";
import { anyNaN, counted, DOUBLE_NAN_BITS, doubles, FLOAT_NAN_BITS } from "./helpers";

const dv = new DataView(new ArrayBuffer(8));

describe("float bits", () => {
  test("floatToIntBits is the float's bits as a Java int, every NaN canonical", () => {
    fc.assert(
      fc.property(doubles, (x) => {
        dv.setFloat32(0, x);
        const raw = dv.getInt32(0);
        expect(floatToRawIntBits(x)).toBe(raw);
        expect(floatToIntBits(x)).toBe(Number.isNaN(x) ? FLOAT_NAN_BITS : raw);
      }),
    );
  });

  test("intBitsToFloat takes the low 32 bits, signed or unsigned", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), (bits) => {
        dv.setInt32(0, bits);
        expect(intBitsToFloat(bits)).toBe(dv.getFloat32(0));
        if (!Number.isNaN(intBitsToFloat(bits)))
          expect(floatToIntBits(intBitsToFloat(bits))).toBe(bits | 0);
      }),
    );
  });

  test("doubleToLongBits is the double's bits as a Java long, every NaN canonical", () => {
    fc.assert(
      fc.property(doubles, (x) => {
        dv.setFloat64(0, x);
        const raw = dv.getBigInt64(0);
        expect(doubleToRawLongBits(x)).toBe(raw);
        expect(doubleToLongBits(x)).toBe(Number.isNaN(x) ? DOUBLE_NAN_BITS : raw);
      }),
    );
  });

  test("longBitsToDouble takes the bits modulo 2^64", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }), (bits) => {
        dv.setBigUint64(0, BigInt.asUintN(64, bits));
        expect(longBitsToDouble(bits)).toBe(dv.getFloat64(0));
      }),
    );
  });

  test("every NaN, however it arrives, gives the canonical bits; a non-number is converted once", () => {
    fc.assert(
      fc.property(anyNaN, (nan) => {
        const calls = { n: 0 };
        expect(floatToIntBits(nan)).toBe(FLOAT_NAN_BITS);
        expect(doubleToLongBits(nan)).toBe(DOUBLE_NAN_BITS);
        expect(floatToIntBits(counted(nan, calls))).toBe(FLOAT_NAN_BITS);
        expect(doubleToLongBits(counted(nan, calls))).toBe(DOUBLE_NAN_BITS);
        expect(calls.n).toBe(2);
      }),
    );
    expect(floatToIntBits("1" as unknown as number)).toBe(0x3f800000);
  });

  test("Java's constants", () => {
    expect(floatToIntBits(1)).toBe(0x3f800000);
    expect(floatToIntBits(-2)).toBe(-1073741824);
    expect(floatToIntBits(-0)).toBe(-2147483648);
    expect(floatToIntBits(Number.NaN)).toBe(0x7fc00000);
    expect(intBitsToFloat(0x7f800000)).toBe(Number.POSITIVE_INFINITY);
    expect(doubleToLongBits(1)).toBe(0x3ff0000000000000n);
    expect(doubleToLongBits(-0)).toBe(-(2n ** 63n));
    expect(doubleToLongBits(Number.NaN)).toBe(0x7ff8000000000000n);
    expect(longBitsToDouble(1n)).toBe(Number.MIN_VALUE);
    expect(longBitsToDouble(0xfff0000000000000n)).toBe(Number.NEGATIVE_INFINITY);
  });
});
