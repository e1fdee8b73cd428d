import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  BigEndian,
  BigEndianView,
  type Codec,
  LittleEndian,
  LittleEndianView,
  OutOfRangeError,
  type ViewCodec,
  viewCodecFor,
} from "../src/index";
import {
  anyNaN,
  bigValues,
  counted,
  doubles,
  intValues,
  NUMERIC_TYPES,
  placedBytes,
  resizableBuffer,
  thrown,
} from "./helpers";

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

type Method = (target: unknown, off: number, v?: unknown) => unknown;
const method = (codec: Codec | ViewCodec, name: string): Method => {
  const f = (codec as unknown as Record<string, Method>)[name];
  if (f === undefined) throw new Error(`no ${name}`);
  return f;
};

/** Every accessor pair with its width and the values to write. */
const ACCESSORS: ReadonlyArray<readonly [string, number, fc.Arbitrary<unknown>]> = [
  ...Object.entries(NUMERIC_TYPES).map(
    ([t, width]) =>
      [
        t,
        width,
        t.startsWith("Big") ? bigValues : t.startsWith("Float") ? doubles : intValues,
      ] as const,
  ),
  ["Boolean", 1, fc.boolean()],
  ["Char", 2, fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.string({ minLength: 1 }))],
  ["SafeInt64", 8, fc.maxSafeInteger()],
];

const PAIRS = [
  ["big", BigEndianView, BigEndian],
  ["little", LittleEndianView, LittleEndian],
] as const;

describe.each(PAIRS)("%s-endian view codec", (_order, view, codec) => {
  // The Uint8Array codecs are checked against DataView and the JDK; the view codecs must agree with
  // them byte for byte and value for value.
  test.each(ACCESSORS)("get%s reads what the Uint8Array codec reads", (name, width) => {
    const get = method(view, `get${name}`);
    const reference = method(codec, `get${name}`);
    fc.assert(
      fc.property(placedBytes(width), ({ b, off }) => {
        let expected: unknown;
        try {
          expected = reference(b, off);
        } catch (error) {
          expect(() => get(viewOf(b), off)).toThrow((error as Error).message);
          return;
        }
        expect(get(viewOf(b), off)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  test.each(ACCESSORS)("set%s writes what the Uint8Array codec writes", (name, width, values) => {
    const set = method(view, `set${name}`);
    const reference = method(codec, `set${name}`);
    fc.assert(
      fc.property(placedBytes(width), values, ({ backing, b, off }, v) => {
        const expected = backing.slice();
        reference(expected.subarray(b.byteOffset, b.byteOffset + b.length), off, v);
        set(viewOf(b), off, v);
        expect(backing).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  test.each(ACCESSORS)(
    "set%s out of range throws an OutOfRangeError and writes nothing",
    (name, width, values) => {
      const set = method(view, `set${name}`);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 16 }),
          fc.integer({ min: -12, max: 24 }),
          values,
          (length, off, v) => {
            fc.pre(off < 0 || off > length - width);
            const backing = new Uint8Array(length + 16).fill(0xa5);
            const d = new DataView(backing.buffer, 8, length);
            expect(() => set(d, off, v)).toThrow(OutOfRangeError);
            expect(backing.every((x) => x === 0xa5)).toBe(true);
            const err = thrown(() => method(view, `get${name}`)(d, off));
            expect(err).toBeInstanceOf(OutOfRangeError);
            const e = err as OutOfRangeError;
            expect([e.offset, e.width, e.length]).toEqual([off, width, length]);
          },
        ),
        { numRuns: 200 },
      );
    },
  );

  test.each(ACCESSORS)("get%s and set%s reject a fractional offset", (name) => {
    const d = new DataView(new ArrayBuffer(32));
    expect(() => method(view, `get${name}`)(d, 1.5)).toThrow(OutOfRangeError);
    const before = new Uint8Array(d.buffer).slice();
    expect(() =>
      method(view, `set${name}`)(
        d,
        2.5,
        name === "Boolean" ? true : name.startsWith("Big") ? 1n : 1,
      ),
    ).toThrow(OutOfRangeError);
    expect(new Uint8Array(d.buffer)).toEqual(before);
  });

  test("floats store Java's canonical NaN whatever the payload and sign", () => {
    const d = new DataView(new ArrayBuffer(16));
    fc.assert(
      fc.property(anyNaN, fc.integer({ min: 0, max: 8 }), (nan, off) => {
        view.setFloat32(d, off, nan);
        expect(view.getInt32(d, off)).toBe(0x7fc00000);
        view.setFloat64(d, off, nan);
        expect(view.getBigInt64(d, off)).toBe(0x7ff8000000000000n);
      }),
    );
  });

  test("float setters convert a non-number once, and refuse a bad offset before converting", () => {
    const d = new DataView(new ArrayBuffer(16));
    const calls = { n: 0 };
    const nan = new Float64Array(new BigUint64Array([0xfff4000000000001n]).buffer)[0]!;
    view.setFloat32(d, 0, counted(nan, calls));
    expect(view.getInt32(d, 0)).toBe(0x7fc00000);
    view.setFloat64(d, 0, counted(nan, calls));
    expect(view.getBigInt64(d, 0)).toBe(0x7ff8000000000000n);
    view.setFloat64(d, 0, counted(2.5, calls));
    expect(view.getFloat64(d, 0)).toBe(2.5);
    expect(calls.n).toBe(3);
    expect(() => view.setFloat32(d, 0.5, counted(1, calls))).toThrow(OutOfRangeError);
    expect(() => view.setFloat64(d, 0.5, counted(1, calls))).toThrow(OutOfRangeError);
    expect(calls.n).toBe(3);
  });

  test("a 64-bit write that does not fit writes nothing, even when its far half would", () => {
    const backing = new Uint8Array(24).fill(7);
    const d = new DataView(backing.buffer, 8, 8);
    for (const write of [
      () => view.setBigInt64(d, -4, 1n),
      () => view.setBigUint64(d, 4, 1n),
      () => view.setSafeInt64(d, -4, 1),
      () => view.setFloat64(d, -4, Number.NaN),
      () => view.setFloat64(d, 4, Number.NaN),
    ]) {
      expect(write).toThrow(RangeError);
      expect(backing.every((x) => x === 7)).toBe(true);
    }
  });

  test("getSafeInt64 reads back what setSafeInt64 and setBigInt64 wrote", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.nat(8), (v, off) => {
        const d = new DataView(new ArrayBuffer(16));
        view.setSafeInt64(d, off, v);
        expect(view.getSafeInt64(d, off)).toBe(v);
        view.setBigInt64(d, off, BigInt(v));
        expect(view.getSafeInt64(d, off)).toBe(v);
      }),
    );
  });

  test("setSafeInt64 rejects an unsafe number and setBigInt64 a non-bigint, writing nothing", () => {
    const d = new DataView(new ArrayBuffer(8));
    expect(() => view.setSafeInt64(d, 0, 2 ** 53)).toThrow(RangeError);
    expect(() => view.setBigInt64(d, 0, 1 as unknown as bigint)).toThrow(TypeError);
    expect(new Uint8Array(d.buffer).every((x) => x === 0)).toBe(true);
  });

  test("an offset past 2^31 or 2^32 is an OutOfRangeError naming the DataView", () => {
    const d = new DataView(new ArrayBuffer(8));
    expect(() => view.getInt32(d, 2 ** 31)).toThrow(OutOfRangeError);
    expect(() => view.getInt32(d, 2 ** 32)).toThrow(OutOfRangeError);
    expect(() => view.getInt32(d, 2 ** 31)).toThrow(/DataView of length 8$/);
  });

  test("a view with no bytes left is out of range (length 0); a value it cannot convert and a non-view are TypeErrors", () => {
    const buffer = new ArrayBuffer(8);
    const d = new DataView(buffer);
    structuredClone(buffer, { transfer: [buffer] }); // detaches it
    expect(thrown(() => d.getInt32(0))).toBeInstanceOf(TypeError); // the engine's own
    for (const off of [0, 1.5, 2 ** 40]) {
      expect(thrown(() => view.getInt32(d, off))).toMatchObject({
        code: "ERR_OUT_OF_RANGE",
        length: 0,
      });
    }
    expect(thrown(() => view.setFloat64(d, 0, Number.NaN))).toMatchObject({
      code: "ERR_OUT_OF_RANGE",
    });
    expect(thrown(() => view.getInt32({} as DataView, 0))).toMatchObject({
      name: "TypeError",
      code: "ERR_INVALID_ARG_TYPE",
    });
    expect(thrown(() => view.getInt32(new Uint8Array(8) as never, 0))).toMatchObject({
      code: "ERR_INVALID_ARG_TYPE",
    });
    // A length-tracking buffer shrunk under a fixed-length view: out of bounds, no bytes to access.
    const resizable = resizableBuffer(16, 32);
    const fixed = new DataView(resizable, 0, 16);
    resizable.resize(4);
    expect(thrown(() => view.getInt32(fixed, 0))).toMatchObject({
      code: "ERR_OUT_OF_RANGE",
      length: 0,
    });
    // A value the setter cannot convert stays the engine's TypeError.
    expect(
      thrown(() => view.setInt32(new DataView(new ArrayBuffer(8)), 0, 1n as never)),
    ).toBeInstanceOf(TypeError);
  });

  test("is frozen, with the Uint8Array codec's method set and order", () => {
    const names = (c: object) => Object.keys(Object.getPrototypeOf(c)).sort();
    expect(Object.isFrozen(view) && Object.isFrozen(Object.getPrototypeOf(view))).toBe(true);
    expect(names(view)).toEqual(names(codec));
    expect(names(view).length).toBeGreaterThan(25);
    expect(view.order).toBe(codec.order);
    expect(viewCodecFor(view.order)).toBe(view);
  });
});

test("viewCodecFor rejects an unknown order with a TypeError", () => {
  expect(() => viewCodecFor("middle" as "big")).toThrow(TypeError);
});

// A DataView may span more than 4 GiB (an ArrayBuffer of 2^32 + n bytes; the memory is committed only
// where touched). Offsets past 2^32 - 1 were refused as out of range.
const FOUR_GIB = 2 ** 32;
function hugeBuffer(): ArrayBuffer | undefined {
  try {
    return new ArrayBuffer(FOUR_GIB + 64);
  } catch {
    console.warn(
      "[@rafkit/bits] views over 4 GiB SKIPPED: cannot allocate a 4 GiB ArrayBuffer here",
    );
    return undefined;
  }
}

describe.each(PAIRS)(
  "%s-endian view codec over a view of more than 4 GiB",
  (_order, view, codec) => {
    test("every accessor works past offset 2^32 as the Uint8Array codec does, and the end still holds", () => {
      const buffer = hugeBuffer();
      if (buffer === undefined) return;
      const d = new DataView(buffer);
      // A window over the same bytes, at an offset a Uint8Array can have, as the reference.
      const base = FOUR_GIB - 8;
      const window = new Uint8Array(buffer, base, 72);
      const samples: Record<string, unknown> = { Boolean: true, Char: "é", SafeInt64: -(2 ** 40) };
      for (const [name, width] of ACCESSORS) {
        const v =
          samples[name] ??
          (name.startsWith("Big") ? -5n : name.startsWith("Float") ? Number.NaN : -5);
        for (const off of [FOUR_GIB, FOUR_GIB + 3, FOUR_GIB + 64 - width]) {
          const expected = window.slice();
          method(codec, `set${name}`)(expected, off - base, v);
          method(view, `set${name}`)(d, off, v);
          expect(window, `set${name} at 2^32 + ${off - FOUR_GIB}`).toEqual(expected);
          expect(method(view, `get${name}`)(d, off)).toEqual(
            method(codec, `get${name}`)(window, off - base),
          );
        }
        const before = window.slice();
        for (const off of [FOUR_GIB + 64 - width + 1, FOUR_GIB + 64, 2 ** 40]) {
          const err = thrown(() => method(view, `set${name}`)(d, off, v));
          expect(err, `set${name} at ${off}`).toBeInstanceOf(OutOfRangeError);
          expect((err as OutOfRangeError).message).toBe(
            `Offset ${off} is out of range for ${width === 8 ? "an" : "a"} ${width}-byte access to a DataView of length ${FOUR_GIB + 64}`,
          );
          expect(() => method(view, `get${name}`)(d, off)).toThrow(OutOfRangeError);
        }
        expect(window).toEqual(before);
      }
    });
  },
);
