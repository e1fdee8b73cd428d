import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BigEndian, codecFor, LittleEndian } from "../src/index";
import {
  anyNaN,
  bigValues,
  counted,
  DOUBLE_NAN_BITS,
  doubles,
  dvGet,
  dvSet,
  FLOAT_NAN_BITS,
  getter,
  intValues,
  NUMERIC_TYPES,
  type NumericType,
  ORDERS,
  placedBytes,
  setter,
} from "./helpers";

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
/** The bits `DataView` itself writes for `x` as a float. */
const floatBitsOf = (x: number) => {
  const d = new DataView(new ArrayBuffer(4));
  d.setFloat32(0, x);
  return d.getInt32(0);
};

function valuesFor(t: NumericType) {
  if (t.startsWith("Big")) return bigValues;
  if (t.startsWith("Float")) return doubles;
  return intValues;
}

describe.each(ORDERS.map(([c, l]) => [c.order, c, l] as const))(
  "%s-endian codec against DataView",
  (_order, codec, little) => {
    test.each(Object.entries(NUMERIC_TYPES))("get%s reads what DataView reads", (t, width) => {
      const get = getter(codec, t);
      fc.assert(
        fc.property(placedBytes(width), ({ b, off }) => {
          expect(get(b, off)).toBe(dvGet(viewOf(b), t, off, little));
        }),
        { numRuns: 300 },
      );
    });

    test.each(Object.entries(NUMERIC_TYPES))(
      "set%s writes what DataView writes (canonical NaN), and only there",
      (t, width) => {
        const set = setter(codec, t);
        fc.assert(
          fc.property(placedBytes(width), valuesFor(t as NumericType), ({ backing, b, off }, v) => {
            const expected = backing.slice();
            const ev = new DataView(expected.buffer, b.byteOffset, b.byteLength);
            if (t === "Float32" && Number.isNaN(v)) ev.setInt32(off, FLOAT_NAN_BITS, little);
            else if (t === "Float64" && Number.isNaN(v))
              ev.setBigInt64(off, DOUBLE_NAN_BITS, little);
            else dvSet(ev, t, off, v, little);
            set(b, off, v);
            expect(backing).toEqual(expected);
          }),
          { numRuns: 300 },
        );
      },
    );

    test("setFloat32/setFloat64 write the canonical NaN for every NaN bit pattern", () => {
      fc.assert(
        fc.property(placedBytes(8), anyNaN, ({ b, off }, nan) => {
          codec.setFloat32(b, off, nan);
          expect(viewOf(b).getInt32(off, little)).toBe(FLOAT_NAN_BITS);
          codec.setFloat64(b, off, nan);
          expect(viewOf(b).getBigInt64(off, little)).toBe(DOUBLE_NAN_BITS);
        }),
      );
    });

    test("setFloat32/setFloat64 convert a non-number argument once, as DataView does", () => {
      const b = new Uint8Array(8);
      const calls = { n: 0 };
      codec.setFloat32(b, 0, counted(1.5, calls));
      codec.setFloat64(b, 0, counted(1.5, calls));
      expect(calls.n).toBe(2);
      expect(codec.getFloat64(b, 0)).toBe(1.5);
      const nan = fc.sample(
        anyNaN.filter((x) => floatBitsOf(x) !== FLOAT_NAN_BITS),
        1,
      )[0]!;
      codec.setFloat32(b, 0, counted(nan, calls));
      expect(viewOf(b).getInt32(0, little)).toBe(FLOAT_NAN_BITS);
      codec.setFloat32(b, 0, "2.5" as unknown as number);
      expect(codec.getFloat32(b, 0)).toBe(2.5);
      expect(() => codec.setFloat64(b, 0, 1n as unknown as number)).toThrow(TypeError);
      // A bad offset is refused before the value is converted.
      expect(() => codec.setFloat64(b, 0.5, counted(1, calls))).toThrow(RangeError);
      expect(calls.n).toBe(3);
    });

    test("getBoolean is Java's != 0 and setBoolean writes 1 or 0", () => {
      fc.assert(
        fc.property(placedBytes(1), fc.boolean(), ({ backing, b, off }, v) => {
          expect(codec.getBoolean(b, off)).toBe(b[off] !== 0);
          const expected = backing.slice();
          expected[b.byteOffset + off] = v ? 1 : 0;
          codec.setBoolean(b, off, v);
          expect(backing).toEqual(expected);
          expect(codec.getBoolean(b, off)).toBe(v);
        }),
      );
    });

    test("getChar reads one UTF-16 code unit; setChar writes a string's first unit or a number's low 16 bits", () => {
      fc.assert(
        fc.property(
          placedBytes(2),
          fc.oneof(
            fc.string({ minLength: 1, unit: "binary" }),
            fc.integer({ min: -1e6, max: 1e6 }),
          ),
          ({ backing, b, off }, c) => {
            const got = codec.getChar(b, off);
            expect(got).toHaveLength(1);
            expect(got.charCodeAt(0)).toBe(viewOf(b).getUint16(off, little));
            const expected = backing.slice();
            new DataView(expected.buffer, b.byteOffset, b.byteLength).setUint16(
              off,
              typeof c === "string" ? c.charCodeAt(0) : c,
              little,
            );
            codec.setChar(b, off, c);
            expect(backing).toEqual(expected);
          },
        ),
      );
    });

    test("getSafeInt64 is Number(getBigInt64) when safe, a RangeError otherwise", () => {
      const near = fc.oneof(
        fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }),
        fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, -(2n ** 53n) + 1n, -(2n ** 53n), 0n, -1n),
        bigValues,
      );
      fc.assert(
        fc.property(placedBytes(8), near, ({ b, off }, v) => {
          viewOf(b).setBigInt64(off, v, little);
          const expected = viewOf(b).getBigInt64(off, little);
          if (
            expected <= BigInt(Number.MAX_SAFE_INTEGER) &&
            expected >= -BigInt(Number.MAX_SAFE_INTEGER)
          ) {
            expect(codec.getSafeInt64(b, off)).toBe(Number(expected));
          } else {
            expect(() => codec.getSafeInt64(b, off)).toThrow(RangeError);
          }
        }),
      );
    });

    test("setSafeInt64 writes a safe integer as a 64-bit one and rejects the rest, writing nothing", () => {
      fc.assert(
        fc.property(
          placedBytes(8),
          fc.oneof(
            fc.maxSafeInteger(),
            fc.constantFrom(2 ** 53, -(2 ** 53), 0.5, Number.NaN, Number.POSITIVE_INFINITY, -0),
            fc.double(),
          ),
          ({ backing, b, off }, v) => {
            const expected = backing.slice();
            if (Number.isSafeInteger(v)) {
              new DataView(expected.buffer, b.byteOffset, b.byteLength).setBigInt64(
                off,
                BigInt(v),
                little,
              );
              codec.setSafeInt64(b, off, v);
              expect(codec.getSafeInt64(b, off)).toBe(v === 0 ? 0 : v);
            } else {
              expect(() => codec.setSafeInt64(b, off, v)).toThrow(RangeError);
            }
            expect(backing).toEqual(expected);
          },
        ),
      );
    });

    test("order and codecFor agree", () => {
      expect(codecFor(codec.order)).toBe(codec);
    });
  },
);

describe("codecs", () => {
  test("have identical method sets", () => {
    // The methods live on each codec's (frozen) prototype.
    const names = (c: object) => Object.keys(Object.getPrototypeOf(c)).sort();
    expect(names(BigEndian)).toEqual(names(LittleEndian));
    expect(names(BigEndian)).toEqual(expect.arrayContaining(["getInt32", "setFloat64", "getChar"]));
    expect(Object.isFrozen(BigEndian) && Object.isFrozen(Object.getPrototypeOf(BigEndian))).toBe(
      true,
    );
    expect(BigEndian.order).toBe("big");
    expect(LittleEndian.order).toBe("little");
  });

  test("are frozen", () => {
    expect(Object.isFrozen(BigEndian)).toBe(true);
    expect(Object.isFrozen(LittleEndian)).toBe(true);
  });

  test("work on Node Buffers, whose bytes sit inside a shared pool", () => {
    const buf = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(BigEndian.getInt32(buf, 1)).toBe(buf.readInt32BE(1));
    expect(LittleEndian.getFloat64(buf, 1)).toBe(buf.readDoubleLE(1));
    BigEndian.setUint16(buf, 7, 0xabcd);
    expect(buf.readUInt16BE(7)).toBe(0xabcd);
  });

  test("alternating between many arrays gives each its own bytes", () => {
    const arrays = Array.from({ length: 5 }, (_, i) => Uint8Array.of(i, i, i, i, 9, 9, 9, 9));
    for (let round = 0; round < 3; round++) {
      for (const [i, a] of arrays.entries()) {
        expect(BigEndian.getInt32(a, 0)).toBe(i * 0x01010101);
        expect(LittleEndian.getFloat32(a, 4)).toBe(new DataView(a.buffer).getFloat32(4, true));
      }
    }
  });

  test("codecFor rejects an unknown order with a TypeError", () => {
    expect(() => codecFor("middle" as "big")).toThrow(TypeError);
  });
});
