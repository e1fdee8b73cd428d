import { describe, expect, test } from "vitest";
import { BigEndian, type Codec, decodeArray, LittleEndian, OutOfRangeError } from "../src/index";
import { thrown } from "./helpers";

// Every setter, with a value it accepts, and the width it touches.
const SETTERS: ReadonlyArray<readonly [string, number, unknown]> = [
  ["Int8", 1, 1],
  ["Uint8", 1, 1],
  ["Int16", 2, 1],
  ["Uint16", 2, 1],
  ["Int32", 4, 1],
  ["Uint32", 4, 1],
  ["BigInt64", 8, 1n],
  ["BigUint64", 8, 1n],
  ["Float32", 4, 1.5],
  ["Float64", 8, 1.5],
  ["Boolean", 1, true],
  ["Char", 2, "x"],
  ["SafeInt64", 8, 12345],
];

type Any = Record<string, (b: Uint8Array, off: number, v?: unknown) => unknown>;

describe.each([BigEndian, LittleEndian].map((c) => [c.order, c] as const))(
  "%s-endian range checks",
  (_order, codec: Codec) => {
    const c = codec as unknown as Any;
    test.each(SETTERS)(
      "get%s and set%s reject every offset outside the array",
      (name, width, v) => {
        const backing = Uint8Array.from({ length: 16 }, (_, i) => i + 100);
        const b = backing.subarray(3, 13); // length 10, non-zero byteOffset
        const before = backing.slice();
        const bad = [
          -1,
          b.length - width + 1,
          b.length,
          1.5,
          Number.NaN,
          2 ** 32,
          -(2 ** 32),
          Infinity,
        ];
        for (const off of bad) {
          for (const call of [() => c[`get${name}`]!(b, off), () => c[`set${name}`]!(b, off, v)]) {
            const err = thrown(call);
            expect(err, `${name} at ${off}`).toBeInstanceOf(RangeError);
            expect(err).toBeInstanceOf(OutOfRangeError);
            const e = err as OutOfRangeError;
            expect(e.code).toBe("ERR_OUT_OF_RANGE");
            expect(e.message).toContain(String(off));
            expect(e.message).toContain(`${width}-byte`);
            expect(e.message).toContain(`length ${b.length}`);
            expect([e.offset, e.width, e.length]).toEqual([off, width, b.length]);
          }
        }
        // Not a number: a TypeError, as Node's Buffer methods throw (DataView would take "1" as 1 and null as 0).
        const notNumbers = ["1", null, undefined, {}, true];
        for (const off of notNumbers as unknown as number[]) {
          for (const call of [() => c[`get${name}`]!(b, off), () => c[`set${name}`]!(b, off, v)]) {
            const err = thrown(call);
            expect(err, `${name} at ${String(off)}`).toBeInstanceOf(TypeError);
            expect((err as { code?: string }).code).toBe("ERR_INVALID_ARG_TYPE");
            expect((err as Error).message).toMatch(/^Offset must be a number, got /);
          }
        }
        expect(backing).toEqual(before);
        // The last in-range offset works and stays inside the subarray.
        c[`set${name}`]!(b, b.length - width, v);
        expect(backing.subarray(0, 3)).toEqual(before.subarray(0, 3));
        expect(backing.subarray(13)).toEqual(before.subarray(13));
        expect(() => c[`get${name}`]!(b, b.length - width)).not.toThrow();
      },
    );

    test("a failed 64-bit or double write touches no byte", () => {
      const b = new Uint8Array(12).fill(7);
      for (const [name, width, v] of [
        ["BigInt64", 8, -1n],
        ["BigUint64", 8, 2n ** 64n - 1n],
        ["Float64", 8, Number.NaN],
        ["Float64", 8, -1.5],
        ["SafeInt64", 8, -1],
        ["Float32", 4, Number.NaN],
      ] as const) {
        // Negative offsets too: for them the near word is the one out of range.
        const end = b.length - width;
        for (const off of [end + 1, end + 2, end + 3, b.length - 1, -1, -3, -4]) {
          expect(() => c[`set${name}`]!(b, off, v)).toThrow(RangeError);
        }
      }
      expect(b).toEqual(new Uint8Array(12).fill(7));
    });

    test("wrong value types throw before anything is written", () => {
      const b = new Uint8Array(8).fill(7);
      expect(() => codec.setBigInt64(b, 0, 1 as unknown as bigint)).toThrow(TypeError);
      expect(() => codec.setBigUint64(b, 0, 1 as unknown as bigint)).toThrow(TypeError);
      expect(() => codec.setInt32(b, 0, 1n as unknown as number)).toThrow(TypeError);
      expect(() => codec.setChar(b, 0, "")).toThrow(TypeError);
      expect(() => codec.setSafeInt64(b, 0, 2 ** 53)).toThrow(/not a safe integer/);
      expect(b).toEqual(new Uint8Array(8).fill(7));
    });

    test("setSafeInt64 of a non-number is a TypeError naming its type (a bigint read as 'Value 1 is not a safe integer')", () => {
      const b = new Uint8Array(8).fill(7);
      for (const [v, shown] of [
        [1n, "bigint (1n)"],
        ["5", 'string ("5")'],
        [null, "null"],
      ] as const) {
        const err = thrown(() => codec.setSafeInt64(b, 0, v as unknown as number));
        expect(err).toBeInstanceOf(TypeError);
        expect((err as { code?: string }).code).toBe("ERR_INVALID_ARG_TYPE");
        expect((err as Error).message).toBe(`Value must be a number, got ${shown}`);
      }
      expect(b).toEqual(new Uint8Array(8).fill(7));
    });

    test("an unsafe 64-bit value names itself and its offset, as an OutOfRangeError", () => {
      const b = new Uint8Array(8);
      codec.setBigInt64(b, 0, 2n ** 53n);
      expect(() => codec.getSafeInt64(b, 0)).toThrow(
        "64-bit value 9007199254740992 at offset 0 is not a safe integer",
      );
      // `instanceof OutOfRangeError` catches every ERR_OUT_OF_RANGE of the package (these were plain RangeErrors).
      expect(thrown(() => codec.getSafeInt64(b, 0))).toBeInstanceOf(OutOfRangeError);
      expect(thrown(() => codec.setSafeInt64(b, 0, 2 ** 53))).toBeInstanceOf(OutOfRangeError);
      codec.setBigInt64(b, 0, -(2n ** 63n));
      expect(() => codec.getSafeInt64(b, 0)).toThrow(/-9223372036854775808/);
    });

    test("a detached buffer has no bytes left", () => {
      const b = new Uint8Array(8);
      codec.getInt32(b, 0); // cache a view of it
      structuredClone(b.buffer, { transfer: [b.buffer] });
      expect(() => codec.getInt32(b, 0)).toThrow(RangeError);
      expect(() => codec.setFloat64(b, 0, 1)).toThrow(RangeError);
      expect(() => codec.getUint8(b, 0)).toThrow(RangeError);
    });

    test("alternating arrays each keep their own view, also when one was resized meanwhile", () => {
      type Resizable = ArrayBuffer & { resize(n: number): void };
      const ResizableBuffer = ArrayBuffer as unknown as new (
        n: number,
        o: { maxByteLength: number },
      ) => Resizable;
      const buffer = new ResizableBuffer(8, { maxByteLength: 64 });
      const tracking = new Uint8Array(buffer);
      const other = new Uint8Array(new ArrayBuffer(16), 4, 8);
      for (let i = 0; i < 4; i++) {
        codec.setInt32(tracking, 4, i);
        codec.setInt32(other, 4, -i - 1);
        expect(codec.getInt32(tracking, 4)).toBe(i);
        expect(codec.getInt32(other, 4)).toBe(-i - 1);
      }
      // `tracking` is now the previous array, its remembered view 8 bytes long.
      buffer.resize(32);
      codec.setInt32(tracking, 28, 99);
      expect(codec.getInt32(other, 4)).toBe(-4);
      expect(codec.getInt32(tracking, 28)).toBe(99);
      expect(new DataView(buffer).getInt32(28, codec.order === "little")).toBe(99);
      expect(() => codec.getInt32(other, 5)).toThrow(RangeError);
    });

    test("a length-tracking array over a growable SharedArrayBuffer follows its size", () => {
      const Growable = SharedArrayBuffer as unknown as new (
        n: number,
        o: { maxByteLength: number },
      ) => SharedArrayBuffer & { grow(n: number): void };
      const sab = new Growable(8, { maxByteLength: 64 });
      const b = new Uint8Array(sab, 2); // tracks the buffer's length, from byte 2
      codec.setInt32(b, 2, 42);
      expect(() => codec.setInt32(b, 4, 1)).toThrow(OutOfRangeError);
      sab.grow(40);
      codec.setFloat64(b, 30, -2.5);
      codec.setBigInt64(b, 22, -3n);
      expect(codec.getFloat64(b, 30)).toBe(-2.5);
      expect(codec.getBigInt64(b, 22)).toBe(-3n);
      expect(codec.getInt32(b, 2)).toBe(42);
      expect(() => codec.getInt32(b, 35)).toThrow(OutOfRangeError);
      expect(new DataView(sab).getFloat64(32, codec.order === "little")).toBe(-2.5);
    });

    test("a length-tracking array over a resizable buffer follows the buffer's size", () => {
      // ES2024 resizable buffers (in Node 20; not yet in this project's TypeScript lib).
      type Resizable = ArrayBuffer & { resize(n: number): void };
      const ResizableBuffer = ArrayBuffer as unknown as new (
        n: number,
        o: { maxByteLength: number },
      ) => Resizable;
      const buffer = new ResizableBuffer(8, { maxByteLength: 64 });
      const b = new Uint8Array(buffer); // tracks the buffer's length
      codec.setInt32(b, 4, 42);
      buffer.resize(32);
      codec.setFloat64(b, 24, 2.5);
      expect(codec.getFloat64(b, 24)).toBe(2.5);
      expect(codec.getInt32(b, 4)).toBe(42);
      buffer.resize(6);
      expect(() => codec.getInt32(b, 4)).toThrow(RangeError);
      expect(() => codec.setInt16(b, 5, 1)).toThrow(RangeError);
      codec.setInt16(b, 4, 7);
      expect(codec.getInt16(b, 4)).toBe(7);
      // Growing again: the first write past the old end renews the stale view, NaN or not.
      const dv = new DataView(buffer);
      for (const [width, v, hi] of [
        [4, -1.5, 0xbfc00000],
        [4, Number.NaN, 0x7fc00000],
        [8, -1.5, 0xbff80000],
        [8, Number.NaN, 0x7ff80000],
      ] as const) {
        buffer.resize(6);
        codec.getInt16(b, 4); // cache the small view
        buffer.resize(48);
        const off = 40;
        b.fill(0xff, off);
        if (width === 4) codec.setFloat32(b, off, v);
        else codec.setFloat64(b, off, v);
        expect(
          dv.getInt32(codec.order === "little" ? off + width - 4 : off, codec.order === "little"),
        ).toBe(hi | 0);
        if (width === 8) {
          expect(
            dv.getInt32(codec.order === "little" ? off : off + 4, codec.order === "little"),
          ).toBe(0);
        }
      }
    });
  },
);

test("a bad count is an OutOfRangeError with no offset, width or length (it held the count as its offset)", () => {
  for (const count of [-1, 1.5]) {
    const err = thrown(() => decodeArray(new Uint8Array(8), 0, new Int32Array(2), 0, count, "big"));
    expect(err).toBeInstanceOf(OutOfRangeError);
    expect(err).toMatchObject({
      message: `Count ${count} is not a non-negative integer`,
      offset: undefined,
      width: undefined,
      length: undefined,
    });
  }
});
