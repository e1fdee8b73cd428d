import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  BigEndian,
  BigEndianView,
  decodeArray,
  encodeArray,
  LittleEndian,
  LittleEndianView,
  ModifiedUtf8,
  OutOfRangeError,
} from "../src/index";
import { NUMERIC_TYPES, thrown } from "./helpers";

// The rule for every offset, index, count and length the package takes:
// - not a number at all (a bigint, a symbol, a string such as "1", null, undefined, a boolean, an
//   object even with a valueOf) is a TypeError with code ERR_INVALID_ARG_TYPE whose message starts
//   with the argument's name, where DataView would convert "1" to 1 and null to 0 (and throw the
//   engine's own TypeError for a bigint or a symbol);
// - a number that is not a non-negative integer, or that does not fit, is an OutOfRangeError (a
//   RangeError, ERR_OUT_OF_RANGE) naming the value, where DataView would truncate 1.5 to 1 and
//   read NaN as 0;
// - and in both cases nothing is written.

/** Values that are not numbers, each with the `typeof` the message must name. */
const notNumbers: fc.Arbitrary<unknown> = fc.oneof(
  fc.bigInt(),
  fc.constantFrom(0n, 1n, -1n, 2n ** 64n),
  fc.string().map((s) => Symbol(s)),
  fc.constantFrom(Symbol.iterator, Symbol.for("1")),
  fc.string(),
  fc.constantFrom("0", "1", "4", " 2 ", "0x1", "1e0", "", "NaN"),
  fc.constantFrom(null, undefined, true, false),
  fc.nat(16).map((n) => ({ valueOf: () => n })),
  fc.nat(16).map((n) => ({ toString: () => String(n) })),
  fc.nat(16).map((n) => ({ [Symbol.toPrimitive]: () => n })),
  fc.nat(16).map((n) => ({ [Symbol.toPrimitive]: () => BigInt(n) })),
  fc.constant({
    valueOf: () => {
      throw new Error("valueOf must not decide the error");
    },
  }),
  fc.nat(16).map((n) => [n]),
  fc.nat(16).map((n) => new Number(n)),
  fc.constant(() => 1),
);

/** Numbers that are never a valid offset, index, count or length. */
const badNumbers = fc.oneof(
  fc.integer({ min: -(2 ** 40), max: -1 }),
  fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0.5,
    0.5,
    1.5,
    2 ** 53,
    2 ** 64,
    -(2 ** 31),
    -(2 ** 32),
    Number.MIN_VALUE,
  ),
);

/** Numbers that are integers but too large for the 16-byte arrays used below. */
const pastTheEnd = fc.oneof(
  fc.integer({ min: 17, max: 2 ** 32 + 16 }),
  fc.constantFrom(2 ** 31, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER),
);

const typeName = (v: unknown) => (v === null ? "null" : typeof v);

/** Checks that `call` threw the TypeError the rule asks for, naming `what`. */
function expectNotANumber(call: () => unknown, what: string, v: unknown): void {
  const err = thrown(call);
  expect(err, `${what} = ${typeName(v)}`).toBeInstanceOf(TypeError);
  expect((err as { code?: string }).code).toBe("ERR_INVALID_ARG_TYPE");
  expect((err as Error).message.startsWith(`${what} must be a number, got ${typeName(v)}`)).toBe(
    true,
  );
  if (typeof v === "bigint") expect((err as Error).message).toContain(`${v}n`);
}

/** Checks that `call` threw an OutOfRangeError naming the number `v`. */
function expectOutOfRange(call: () => unknown, what: string, v: number): OutOfRangeError {
  const err = thrown(call);
  expect(err, `${what} = ${v}`).toBeInstanceOf(OutOfRangeError);
  const e = err as OutOfRangeError;
  expect(e).toBeInstanceOf(RangeError);
  expect(e.code).toBe("ERR_OUT_OF_RANGE");
  expect(e.message.startsWith(`${what} ${String(v)} `)).toBe(true);
  // An offset is the access's; a count or length is no access: only the message names it.
  if (/offset|index/i.test(what)) expect(Object.is(e.offset, v)).toBe(true);
  else expect([e.offset, e.width, e.length]).toEqual([undefined, undefined, undefined]);
  return e;
}

/** A 16-byte target inside a larger, patterned buffer, and a check that none of it changed. */
function target() {
  const backing = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
  const before = backing.slice();
  const b = backing.subarray(8, 24);
  return { backing, b, unchanged: () => expect(backing).toEqual(before) };
}

// Every accessor, with a value its setter accepts and the width it touches.
const ACCESSORS: ReadonlyArray<readonly [string, number, unknown]> = [
  ...Object.entries(NUMERIC_TYPES).map(
    ([t, w]) =>
      [t, w, t.startsWith("Big") ? -3n : t.startsWith("Float") ? Number.NaN : -3] as const,
  ),
  ["Boolean", 1, true],
  ["Char", 2, "é"],
  ["SafeInt64", 8, -(2 ** 40)],
];

type AnyMethod = (target: unknown, off: unknown, v?: unknown) => unknown;
const CODECS = [
  ["BigEndian", BigEndian, false],
  ["LittleEndian", LittleEndian, false],
  ["BigEndianView", BigEndianView, true],
  ["LittleEndianView", LittleEndianView, true],
] as const;

describe.each(CODECS)("%s offsets", (_name, codec, isView) => {
  const m = (name: string) => (codec as unknown as Record<string, AnyMethod>)[name]!;
  const cases = ACCESSORS.flatMap(([t, width, v]) => [
    [`get${t}`, width, undefined] as const,
    [`set${t}`, width, v] as const,
  ]);

  test.each(cases)("%s: a non-number offset is a TypeError, nothing written", (name, _w, v) => {
    fc.assert(
      fc.property(notNumbers, (off) => {
        const { b, unchanged } = target();
        const on = isView ? new DataView(b.buffer, b.byteOffset, b.byteLength) : b;
        expectNotANumber(() => m(name).call(codec, on, off, v), "Offset", off);
        unchanged();
      }),
      { numRuns: 60 },
    );
  });

  test.each(cases)(
    "%s: a bad or too-large number is an OutOfRangeError, nothing written",
    (name, width, v) => {
      fc.assert(
        fc.property(
          fc.oneof(badNumbers, pastTheEnd, fc.integer({ min: 17 - width, max: 16 })),
          (off) => {
            const { b, unchanged } = target();
            const on = isView ? new DataView(b.buffer, b.byteOffset, b.byteLength) : b;
            const e = expectOutOfRange(() => m(name).call(codec, on, off, v), "Offset", off);
            expect(e.width).toBe(width);
            expect(e.length).toBe(16);
            expect(e.message).toContain(`${width}-byte access`);
            expect(e.message).toContain(`${isView ? "DataView" : "Uint8Array"} of length 16`);
            unchanged();
          },
        ),
        { numRuns: 60 },
      );
    },
  );

  test("the same once the accessors run optimised: the bad offset meets code that saw only good ones", () => {
    for (const [t, , v] of ACCESSORS) {
      for (const name of [`get${t}`, `set${t}`]) {
        // A caller of its own per accessor, so each has its own feedback, warmed as a hot loop would.
        const call = new Function("c", "t", "o", "v", `return c.${name}(t, o, v);`) as (
          c: unknown,
          t: unknown,
          o: unknown,
          v: unknown,
        ) => unknown;
        const { b } = target();
        if (name === "getSafeInt64") b.fill(0); // patterned bytes are not safe integers
        const on = isView ? new DataView(b.buffer, b.byteOffset, b.byteLength) : b;
        for (let i = 0; i < 20000; i++) call(codec, on, i & 7, v);
        const written = new Uint8Array(b.buffer).slice();
        for (const off of [3n, Symbol("o"), "3", { valueOf: () => 3 }, null]) {
          expectNotANumber(() => call(codec, on, off, v), "Offset", off);
        }
        expectOutOfRange(() => call(codec, on, 16.5, v), "Offset", 16.5);
        expect(new Uint8Array(b.buffer)).toEqual(written);
      }
    }
  });

  test("-0 is the offset 0, as DataView reads it", () => {
    const { b } = target();
    const on = isView ? new DataView(b.buffer, b.byteOffset, b.byteLength) : b;
    m("setInt32").call(codec, on, -0, 0x01020304);
    expect(m("getInt32").call(codec, on, 0)).toBe(0x01020304);
    expect(m("getBigInt64").call(codec, on, -0)).toBe(m("getBigInt64").call(codec, on, 0));
  });
});

describe("bulk array codecs", () => {
  const ARRAYS = [
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    BigInt64Array,
    Float32Array,
    Float64Array,
  ];
  // [argument name in messages, which argument of decodeArray/encodeArray]
  const ARGS = [
    ["Offset", "offset"],
    ["Destination index", "index"],
    ["Count", "count"],
  ] as const;

  function run(
    kind: "decode" | "encode",
    arg: "offset" | "index" | "count",
    bad: unknown,
    Type: (typeof ARRAYS)[number],
  ) {
    const { b, unchanged } = target();
    const arr = new Type(4);
    if (arr instanceof BigInt64Array) arr.set([1n, -2n, 3n, -4n]);
    else arr.set([1, -2, 3, -4]);
    const arrBefore = new Uint8Array(arr.buffer).slice();
    const offset = arg === "offset" ? bad : 0;
    const index = arg === "index" ? bad : 0;
    const count = arg === "count" ? bad : 1;
    const call =
      kind === "decode"
        ? () => decodeArray(b, offset as number, arr, index as number, count as number, "big")
        : () => encodeArray(arr, index as number, count as number, b, offset as number, "little");
    return {
      call,
      unchanged: () => {
        unchanged();
        expect(new Uint8Array(arr.buffer)).toEqual(arrBefore);
      },
    };
  }

  for (const kind of ["decode", "encode"] as const) {
    for (const [what, arg] of ARGS) {
      const name = arg === "index" && kind === "encode" ? "Source index" : what;
      test(`${kind}Array: a non-number ${name.toLowerCase()} is a TypeError naming it`, () => {
        fc.assert(
          fc.property(notNumbers, fc.constantFrom(...ARRAYS), (bad, Type) => {
            const r = run(kind, arg, bad, Type);
            expectNotANumber(r.call, name, bad);
            r.unchanged();
          }),
          { numRuns: 150 },
        );
      });
      test(`${kind}Array: a bad ${name.toLowerCase()} is an OutOfRangeError naming it`, () => {
        fc.assert(
          fc.property(fc.oneof(badNumbers, pastTheEnd), fc.constantFrom(...ARRAYS), (bad, Type) => {
            const r = run(kind, arg, bad, Type);
            if (arg === "count" && Number.isSafeInteger(bad) && bad >= 0) {
              // A count too large for the bytes: the byte range is what does not fit.
              const e = expectOutOfRange(r.call, "Offset", 0);
              expect(e.width).toBe(bad * Type.BYTES_PER_ELEMENT);
              expect(e.message).toContain(`${bad * Type.BYTES_PER_ELEMENT}-byte access`);
            } else {
              expectOutOfRange(r.call, name, bad);
            }
            r.unchanged();
          }),
          { numRuns: 150 },
        );
      });
    }
  }
});

describe("ModifiedUtf8", () => {
  const calls = {
    "decode offset": [
      "Offset",
      (b: Uint8Array, x: unknown) => ModifiedUtf8.decode(b, x as number, 1),
    ],
    "decode length": [
      "Length",
      (b: Uint8Array, x: unknown) => ModifiedUtf8.decode(b, 0, x as number),
    ],
    "encode offset": [
      "Offset",
      (b: Uint8Array, x: unknown) => ModifiedUtf8.encode("aé", b, x as number),
    ],
    "writeUTF offset": [
      "Offset",
      (b: Uint8Array, x: unknown) => ModifiedUtf8.writeUTF("aé", b, x as number),
    ],
  } as const;

  test.each(Object.entries(calls))(
    "%s: a non-number is a TypeError naming it",
    (_k, [what, call]) => {
      fc.assert(
        fc.property(notNumbers, (bad) => {
          const { b, unchanged } = target();
          expectNotANumber(() => call(b, bad), what, bad);
          unchanged();
        }),
        { numRuns: 150 },
      );
    },
  );

  test.each(Object.entries(calls))(
    "%s: a bad number is an OutOfRangeError naming it",
    (_k, [what, call]) => {
      fc.assert(
        fc.property(fc.oneof(badNumbers, pastTheEnd), (bad) => {
          const { b, unchanged } = target();
          if (what === "Length" && Number.isSafeInteger(bad) && bad >= 0) {
            const e = expectOutOfRange(() => call(b, bad), "Offset", 0);
            expect(e.width).toBe(bad);
          } else {
            expectOutOfRange(() => call(b, bad), what, bad);
          }
          unchanged();
        }),
        { numRuns: 150 },
      );
    },
  );
});
