import { describe, expect, test } from "vitest";
import {
  BigEndian,
  BigEndianView,
  decodeArray,
  doubleToRawLongBits,
  floatToIntBits,
  floatToRawIntBits,
  intBitsToFloat,
  LittleEndian,
  LittleEndianView,
} from "../src/index";

// Java: Float.floatToRawIntBits(readFloat()) after writeInt(0x7fbfffff) gives 0x7fbfffff. In
// JavaScript a float32 widened to a number gets its quiet bit set (0x00400000): the payload stays,
// the signalling bit does not. V8's optimised code may skip the widening when the number goes
// straight back into a Float32Array, so a hot loop can see the original bits: these pin the set of
// results each path gives, cold and after V8 optimises it.
const SIGNALLING = [0x7fbfffff, 0x7f800001, 0xff800001, 0x7fa00000] as const;
const quiet = (bits: number) => bits | 0x00400000 | 0;

/** The distinct results of `read` over enough runs for V8 to optimise it. */
function outcomes(read: () => number): number[] {
  const seen: number[] = [];
  for (let i = 0; i < 100_000; i++) {
    const r = read();
    if (!seen.includes(r)) seen.push(r);
  }
  return seen;
}

/** `floatToRawIntBits(codec.getFloat32(target, 0))` from a caller V8 has never run (interpreted). */
function coldRead(codec: { getFloat32(t: never, off: number): number }, target: unknown): number {
  const read = new Function("codec", "target", "raw", "return raw(codec.getFloat32(target, 0));");
  return read(codec, target, floatToRawIntBits);
}

describe("a signalling NaN read as a float", () => {
  for (const bits of SIGNALLING) {
    const hex = bits.toString(16);
    const be = new Uint8Array(4);
    BigEndian.setInt32(be, 0, bits);
    const le = new Uint8Array(4);
    LittleEndian.setInt32(le, 0, bits);

    test(`0x${hex}: getFloat32 comes back quiet, payload kept (hot code may keep the bits)`, () => {
      const beView = new DataView(be.buffer);
      const leView = new DataView(le.buffer);
      for (const [codec, target] of [
        [BigEndian, be],
        [LittleEndian, le],
        [BigEndianView, beView],
        [LittleEndianView, leView],
      ] as const) {
        expect(coldRead(codec, target)).toBe(quiet(bits)); // widened: quiet bit set
        const hot = outcomes(() => floatToRawIntBits(codec.getFloat32(target as never, 0)));
        expect([quiet(bits), bits | 0]).toEqual(expect.arrayContaining(hot));
      }
      expect(floatToRawIntBits(intBitsToFloat(bits))).toBe(quiet(bits));
      // Always a NaN, and Java's floatToIntBits canonicalises it either way.
      expect(Number.isNaN(BigEndian.getFloat32(be, 0))).toBe(true);
      expect(floatToIntBits(BigEndian.getFloat32(be, 0))).toBe(0x7fc00000);
    });

    test(`0x${hex}: getInt32 and decodeArray into a Float32Array keep the bits`, () => {
      expect(outcomes(() => BigEndian.getInt32(be, 0))).toEqual([bits | 0]);
      expect(outcomes(() => LittleEndian.getInt32(le, 0))).toEqual([bits | 0]);
      for (const [bytes, order] of [
        [be, "big"],
        [le, "little"],
      ] as const) {
        const floats = new Float32Array(1);
        decodeArray(bytes, 0, floats, 0, 1, order);
        expect(new Int32Array(floats.buffer)[0]).toBe(bits | 0);
        // Reading the element widens it: the quiet bit appears only then (cold).
        expect(floatToRawIntBits(floats[0]!)).toBe(quiet(bits));
      }
    });
  }
});

test("a signalling double NaN is not widened: getFloat64 keeps its bits", () => {
  const b = new Uint8Array(8);
  for (const codec of [BigEndian, LittleEndian]) {
    codec.setBigInt64(b, 0, 0x7ff0000000000001n);
    expect(outcomes(() => Number(doubleToRawLongBits(codec.getFloat64(b, 0)) & 0xffffn))).toEqual([
      1,
    ]);
    expect(doubleToRawLongBits(codec.getFloat64(b, 0))).toBe(0x7ff0000000000001n);
  }
});
