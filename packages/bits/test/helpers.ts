import fc from "fast-check";
import { BigEndian, type Codec, LittleEndian } from "../src/index";

/** Both codecs with the `littleEndian` flag DataView takes for the same order. */
export const ORDERS: ReadonlyArray<readonly [Codec, boolean]> = [
  [BigEndian, false],
  [LittleEndian, true],
];

/** The DataView types the codecs mirror, with their widths. */
export const NUMERIC_TYPES = {
  Int8: 1,
  Uint8: 1,
  Int16: 2,
  Uint16: 2,
  Int32: 4,
  Uint32: 4,
  Float32: 4,
  Float64: 8,
  BigInt64: 8,
  BigUint64: 8,
} as const;
export type NumericType = keyof typeof NUMERIC_TYPES;

type Getter = (b: Uint8Array, off: number) => unknown;
type Setter = (b: Uint8Array, off: number, v: unknown) => void;

/** `codec.get<T>` as a plain function. */
export function getter(codec: Codec, name: string): Getter {
  const f = (codec as unknown as Record<string, Getter>)[`get${name}`];
  if (f === undefined) throw new Error(`no get${name}`);
  return f;
}
/** `codec.set<T>` as a plain function. */
export function setter(codec: Codec, name: string): Setter {
  const f = (codec as unknown as Record<string, Setter>)[`set${name}`];
  if (f === undefined) throw new Error(`no set${name}`);
  return f;
}
/** `dv.get<T>(off, little)`. */
export function dvGet(dv: DataView, name: string, off: number, little: boolean): unknown {
  return (dv as unknown as Record<string, (o: number, l: boolean) => unknown>)[`get${name}`]!.call(
    dv,
    off,
    little,
  );
}
/** `dv.set<T>(off, v, little)`. */
export function dvSet(dv: DataView, name: string, off: number, v: unknown, little: boolean): void {
  (dv as unknown as Record<string, (o: number, v: unknown, l: boolean) => void>)[
    `set${name}`
  ]!.call(dv, off, v, little);
}

/**
 * A Uint8Array of random bytes that is a subarray (often with a non-zero byteOffset) of a larger
 * buffer, plus an in-range offset for a `width`-byte access.
 */
export function placedBytes(width: number) {
  return fc
    .record({
      pad: fc.nat(9),
      tail: fc.nat(5),
      extra: fc.nat(40),
      seed: fc.uint8Array({ minLength: 64, maxLength: 64 }),
    })
    .chain(({ pad, tail, extra, seed }) => {
      const length = width + extra;
      const backing = new Uint8Array(pad + length + tail);
      for (let i = 0; i < backing.length; i++) backing[i] = seed[i % 64]! ^ (i * 31);
      const b = backing.subarray(pad, pad + length);
      return fc.record({ off: fc.integer({ min: 0, max: length - width }) }).map(({ off }) => ({
        backing,
        b,
        off,
      }));
    });
}

/** Float64 values worth testing: the specials plus anything fast-check makes. */
export const doubles = fc.oneof(
  fc.constantFrom(
    Number.NaN,
    -0,
    0,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    3.4028234663852886e38,
    1.401298464324817e-45,
    1.1754943508222875e-38,
  ),
  fc.double(),
  fc.float(),
);

/** Values for integer setters: in range, out of range, fractional and non-finite (DataView wraps). */
export const intValues = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
  fc.integer({ min: -32768, max: 65535 }),
  fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, 2 ** 32 - 1, -1, 0, 127, 128, 255, 256, 32767, 32768),
  fc.double(),
);

/** bigint values for 64-bit setters, including ones outside both ranges (they wrap). */
export const bigValues = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.constantFrom(0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 2n ** 53n, -(2n ** 53n)),
);

/** Java's canonical NaN bits: what a float/double setter must write for any NaN. */
export const FLOAT_NAN_BITS = 0x7fc00000;
export const DOUBLE_NAN_BITS = 0x7ff8000000000000n;

/** NaNs of every bit pattern, either sign: what a Float64Array or a native call can hand JavaScript. */
export const anyNaN = fc
  .oneof(
    fc.bigInt({ min: 0x7ff0000000000001n, max: 0x7fffffffffffffffn }),
    fc.bigInt({ min: 0xfff0000000000001n, max: 0xffffffffffffffffn }),
  )
  .map((bits) => new Float64Array(new BigUint64Array([bits]).buffer)[0]!);

/** An object whose `valueOf` gives `v` and counts its calls in `calls.n`. */
export function counted(v: unknown, calls: { n: number }): number {
  return {
    valueOf: () => {
      calls.n++;
      return v;
    },
  } as unknown as number;
}

/** Any sequence of UTF-16 code units, lone surrogates included. */
export const anyUnits = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0x7ff }),
      fc.integer({ min: 0x800, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.constant(0),
    ),
    { maxLength: 80 },
  )
  .map((units) => String.fromCharCode(...units));

/** What `call` threw (undefined when it returned), to inspect more than `toThrow` can. */
export function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** A resizable `ArrayBuffer` (ES2024; the compiled library is ES2022). */
export type Resizable = ArrayBuffer & { resize(byteLength: number): void };

/** A resizable `ArrayBuffer` of `byteLength` that can grow to `maxByteLength`. */
export function resizableBuffer(byteLength: number, maxByteLength: number): Resizable {
  const Ctor = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => Resizable;
  return new Ctor(byteLength, { maxByteLength });
}
