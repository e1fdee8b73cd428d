import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type ByteOrder,
  decodeArray,
  encodeArray,
  type NumericArray,
  OutOfRangeError,
} from "../src/index";
import { dvGet, dvSet, resizableBuffer, thrown } from "./helpers";

type Ctor = {
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): NumericArray;
  BYTES_PER_ELEMENT: number;
};
const TYPES: ReadonlyArray<readonly [string, Ctor]> = [
  ["Int16", Int16Array],
  ["Uint16", Uint16Array],
  ["Int32", Int32Array],
  ["Uint32", Uint32Array],
  ["BigInt64", BigInt64Array],
  ["BigUint64", BigUint64Array],
  ["Float32", Float32Array],
  ["Float64", Float64Array],
];
const ORDERS: ReadonlyArray<ByteOrder> = ["big", "little"];

/** What the arrays' memory is: each kind of buffer a typed array can stand on. */
type Alloc = (byteLength: number) => ArrayBufferLike;
const BUFFERS: ReadonlyArray<readonly [string, Alloc]> = [
  ["ArrayBuffer", (n) => new ArrayBuffer(n)],
  ["SharedArrayBuffer", (n) => new SharedArrayBuffer(n)],
  ["resizable ArrayBuffer", (n) => resizableBuffer(n, 2 * n + 8)],
  [
    "growable SharedArrayBuffer",
    (n) =>
      new (
        SharedArrayBuffer as unknown as new (
          n: number,
          o: { maxByteLength: number },
        ) => SharedArrayBuffer
      )(n, { maxByteLength: 2 * n + 8 }),
  ],
];

/** Bytes at a random byteOffset, a typed array at a random element offset, and a count that fits both. */
function setup(Type: Ctor, alloc: Alloc = (n) => new ArrayBuffer(n)) {
  const w = Type.BYTES_PER_ELEMENT;
  return fc
    .record({
      // Past 64 elements the swap is Buffer#swapN where there is one (src/bulk.ts): both sides of it.
      count: fc.oneof(fc.nat(40), fc.integer({ min: 60, max: 160 })),
      bytePad: fc.nat(11),
      srcOffset: fc.nat(13),
      byteTail: fc.nat(5),
      arrPad: fc.nat(3),
      index: fc.nat(4),
      arrTail: fc.nat(3),
      seed: fc.uint8Array({ minLength: 97, maxLength: 97 }),
    })
    .map((r) => {
      const byteLength = r.srcOffset + r.count * w + r.byteTail;
      const byteBacking = new Uint8Array(alloc(r.bytePad + byteLength));
      for (let i = 0; i < byteBacking.length; i++) byteBacking[i] = r.seed[i % 97]! ^ (i * 7);
      const bytes = byteBacking.subarray(r.bytePad);
      const arrLength = r.index + r.count + r.arrTail;
      const arrBuffer = alloc((r.arrPad + arrLength) * w);
      new Uint8Array(arrBuffer).set(
        Uint8Array.from({ length: arrBuffer.byteLength }, (_, i) => r.seed[(i * 5) % 97]! ^ i),
      );
      const arr = new Type(arrBuffer, r.arrPad * w, arrLength);
      return { ...r, w, byteBacking, bytes, arr };
    });
}

describe.each(TYPES)("%sArray bulk codecs", (name, Type) => {
  const orderAndBuffer = ORDERS.flatMap((order) =>
    BUFFERS.map(([kind, alloc]) => [order, kind, alloc] as const),
  );
  test.each(orderAndBuffer)(
    "decodeArray (%s, over a %s) matches a DataView loop and writes only its elements",
    (order, _kind, alloc) => {
      fc.assert(
        fc.property(setup(Type, alloc), ({ bytes, arr, srcOffset, index, count, w }) => {
          // Floats are compared as raw bits: decoding keeps NaN payloads, which a trip through a
          // JavaScript number may not.
          const copy = arr.slice() as NumericArray;
          const [asName, expected] =
            name === "Float32"
              ? ["Int32", new Int32Array(copy.buffer, copy.byteOffset, copy.length)]
              : name === "Float64"
                ? ["BigInt64", new BigInt64Array(copy.buffer, copy.byteOffset, copy.length)]
                : [name, copy];
          const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          for (let i = 0; i < count; i++) {
            expected[index + i] = dvGet(
              view,
              asName,
              srcOffset + i * w,
              order === "little",
            ) as never;
          }
          decodeArray(bytes, srcOffset, arr, index, count, order);
          // Compare bit patterns so NaN payloads count too.
          expect(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength)).toEqual(
            new Uint8Array(expected.buffer, expected.byteOffset, expected.byteLength),
          );
        }),
        { numRuns: 60 },
      );
    },
  );

  test.each(orderAndBuffer)(
    "encodeArray (%s, over a %s) matches a DataView loop and writes only its bytes",
    (order, _kind, alloc) => {
      const isFloat = name.startsWith("Float");
      fc.assert(
        fc.property(setup(Type, alloc), fc.boolean(), (s, sprinkleNaN) => {
          const { bytes, byteBacking, arr, srcOffset, index, count, w } = s;
          if (isFloat && sprinkleNaN) {
            for (let i = index; i < index + count; i += 3) arr[i] = Number.NaN;
            // A NaN with a payload, which Java still writes canonically.
            if (count > 0 && w === 4)
              new Int32Array(arr.buffer, arr.byteOffset + index * 4, 1)[0] = 0x7f800001;
          }
          const expected = byteBacking.slice();
          const view = new DataView(expected.buffer, bytes.byteOffset, bytes.byteLength);
          for (let i = 0; i < count; i++) {
            const v = arr[index + i]!;
            const at = srcOffset + i * w;
            if (isFloat && Number.isNaN(v)) {
              if (w === 4) view.setInt32(at, 0x7fc00000, order === "little");
              else view.setBigInt64(at, 0x7ff8000000000000n, order === "little");
            } else {
              dvSet(view, name, at, v, order === "little");
            }
          }
          encodeArray(arr, index, count, bytes, srcOffset, order);
          expect(byteBacking.slice()).toEqual(expected);
        }),
        { numRuns: 60 },
      );
    },
  );

  test("decode after encode gives the elements back", () => {
    const w = Type.BYTES_PER_ELEMENT;
    const src = new Type(new ArrayBuffer(8 * w));
    new Uint8Array(src.buffer).set(Uint8Array.from({ length: 8 * w }, (_, i) => (i * 37) & 0x7f));
    for (const order of ORDERS) {
      for (const at of [0, 1, 3]) {
        const bytes = new Uint8Array(at + 8 * w);
        encodeArray(src, 0, 8, bytes, at, order);
        const back = new Type(new ArrayBuffer(8 * w));
        decodeArray(bytes, at, back, 0, 8, order);
        expect(back).toEqual(src);
      }
    }
  });

  test("overlapping source and destination behave like a copy taken first", () => {
    const w = Type.BYTES_PER_ELEMENT;
    for (const order of ORDERS) {
      for (const shift of [-w, -1, 0, 1, w]) {
        const buffer = new ArrayBuffer(24 * w);
        const all = new Uint8Array(buffer);
        for (let i = 0; i < all.length; i++) all[i] = (i * 13) & 0x7f;
        const arr = new Type(buffer, 8 * w, 8);
        const bytes = new Uint8Array(buffer, 8 * w + shift, 8 * w);
        const copyArr = arr.slice() as NumericArray;
        const copyBytes = bytes.slice();

        const expectedBytes = new Uint8Array(8 * w);
        encodeArray(copyArr, 0, 8, expectedBytes, 0, order);
        encodeArray(arr, 0, 8, bytes, 0, order);
        expect(bytes.slice()).toEqual(expectedBytes);

        all.set(copyBytes, 8 * w + shift);
        const expectedArr = new Type(new ArrayBuffer(8 * w));
        decodeArray(copyBytes, 0, expectedArr, 0, 8, order);
        decodeArray(bytes, 0, arr, 0, 8, order);
        expect(arr.slice()).toEqual(expectedArr);
      }
    }
  });

  test("out-of-range arguments throw OutOfRangeError and write nothing", () => {
    const w = Type.BYTES_PER_ELEMENT;
    const bytes = new Uint8Array(4 * w).fill(9);
    const arr = new Type(new ArrayBuffer(4 * w));
    const cases: Array<[number, number, number]> = [
      // [byte offset, index, count]
      [1, 0, 4],
      [0, 1, 4],
      [-1, 0, 1],
      [0, -1, 1],
      [0.5, 0, 1],
      [0, 0.5, 1],
      [0, 0, -1],
      [0, 0, 1.5],
      [0, 0, Number.NaN],
      [4 * w + 1, 0, 0],
      [0, 5, 0],
    ];
    for (const [off, index, count] of cases) {
      for (const order of ORDERS) {
        expect(
          () => decodeArray(bytes, off, arr, index, count, order),
          `${off} ${index} ${count}`,
        ).toThrow(OutOfRangeError);
        expect(() => encodeArray(arr, index, count, bytes, off, order)).toThrow(RangeError);
      }
    }
    expect(bytes).toEqual(new Uint8Array(4 * w).fill(9));
    expect(new Uint8Array(arr.buffer)).toEqual(new Uint8Array(4 * w));
    // Zero elements at the very end is fine.
    decodeArray(bytes, 4 * w, arr, 4, 0, "big");
    encodeArray(arr, 4, 0, bytes, 4 * w, "little");
  });
});

describe("bulk codecs reject", () => {
  test("arrays of other types", () => {
    const bytes = new Uint8Array(16);
    for (const bad of [
      new Uint8Array(4),
      new Int8Array(4),
      new DataView(new ArrayBuffer(4)),
      [1, 2],
    ]) {
      expect(() => decodeArray(bytes, 0, bad as unknown as NumericArray, 0, 1, "big")).toThrow(
        TypeError,
      );
      expect(() => encodeArray(bad as unknown as NumericArray, 0, 1, bytes, 0, "big")).toThrow(
        TypeError,
      );
    }
  });

  test("an unknown byte order", () => {
    const bytes = new Uint8Array(16);
    expect(() => decodeArray(bytes, 0, new Int32Array(1), 0, 1, "middle" as ByteOrder)).toThrow(
      TypeError,
    );
    expect(() => encodeArray(new Int32Array(1), 0, 1, bytes, 0, "" as ByteOrder)).toThrow(
      TypeError,
    );
  });
});

// structuredClone (or a postMessage round trip) of a SharedArrayBuffer is a second object over the same
// memory: the buffers are not ===, yet the ranges overlap. Each case: every element type and order, the
// alias's range shifted against the typed array's by a few bytes either way, memory filled with a pattern.
function forEachAliasedPair(
  run: (
    Type: (typeof TYPES)[number][1],
    order: ByteOrder,
    shift: number,
    sab: SharedArrayBuffer,
    alias: SharedArrayBuffer,
  ) => void,
): void {
  for (const [, Type] of TYPES) {
    const w = Type.BYTES_PER_ELEMENT;
    for (const order of ORDERS) {
      for (const shift of [-w - 1, -1, 1, 3, w + 1]) {
        const sab = new SharedArrayBuffer(32 * w);
        const alias = structuredClone(sab);
        const all = new Uint8Array(sab);
        for (let i = 0; i < all.length; i++) all[i] = (i * 29 + 3) & 0xff;
        run(Type, order, shift, sab, alias);
      }
    }
  }
}

describe("bulk codecs over shared, foreign and detached memory", () => {
  test("encodeArray between two SharedArrayBuffer objects over the same memory behaves like a copy taken first", () => {
    // Unaligned, in the non-native order, the elements were read after some of them had been overwritten.
    forEachAliasedPair((Type, order, shift, sab, alias) => {
      const w = Type.BYTES_PER_ELEMENT;
      const src = new Type(sab, 8 * w, 8);
      // NaNs too, so the float canonicalisation reads the source after the copy.
      if (w !== 2 && Type !== BigInt64Array && Type !== BigUint64Array)
        (src as Float32Array)[3] = (src as Float32Array)[5] = Number.NaN;
      const expected = new Uint8Array(8 * w);
      encodeArray(src.slice() as NumericArray, 0, 8, expected, 0, order);
      const dst = new Uint8Array(alias, 8 * w + shift, 8 * w);
      encodeArray(src, 0, 8, dst, 0, order);
      expect(dst.slice(), `${Type.name} ${order} ${shift}`).toEqual(expected);
    });
  });

  test("decodeArray between two SharedArrayBuffer objects over the same memory behaves like a copy taken first", () => {
    forEachAliasedPair((Type, order, shift, sab, alias) => {
      const w = Type.BYTES_PER_ELEMENT;
      const bytes = new Uint8Array(alias, 8 * w + shift, 8 * w);
      const expected = new Type(new ArrayBuffer(8 * w));
      decodeArray(bytes.slice(), 0, expected, 0, 8, order);
      const dst = new Type(sab, 8 * w, 8);
      decodeArray(bytes, 0, dst, 0, 8, order);
      expect(new Uint8Array(dst.slice().buffer)).toEqual(new Uint8Array(expected.buffer));
    });
  });

  test("encodeArray writes Java's canonical NaN from float arrays of another realm too", () => {
    // A vm context's Float32Array is not `instanceof` this realm's: its NaNs went out raw.
    const foreign = runInNewContext(`
      const f = new Float32Array(3);
      new Uint32Array(f.buffer).set([0xffc00001, 0x7f800001, 0x3f800000]);
      const d = new Float64Array(2);
      new BigUint64Array(d.buffer).set([0xfff0000000000001n, 0x7ff8000000000000n]);
      ({ f, d })`) as { f: Float32Array; d: Float64Array };
    expect(foreign.f).not.toBeInstanceOf(Float32Array);
    for (const order of ORDERS) {
      for (const at of [0, 1]) {
        const out = new Uint8Array(at + 12);
        encodeArray(foreign.f, 0, 3, out, at, order);
        const dv = new DataView(out.buffer, at);
        const little = order === "little";
        expect([0, 4, 8].map((o) => dv.getUint32(o, little))).toEqual([
          0x7fc00000, 0x7fc00000, 0x3f800000,
        ]);
        const out64 = new Uint8Array(at + 16);
        encodeArray(foreign.d, 0, 2, out64, at, order);
        const dv64 = new DataView(out64.buffer, at);
        expect([0, 8].map((o) => dv64.getBigUint64(o, little))).toEqual([
          0x7ff8000000000000n,
          0x7ff8000000000000n,
        ]);
      }
    }
  });

  test("a detached buffer on either side is out of range, and the other side is left alone", () => {
    for (const [, Type] of TYPES) {
      const w = Type.BYTES_PER_ELEMENT;
      const detachedBytes = new Uint8Array(4 * w);
      structuredClone(detachedBytes.buffer, { transfer: [detachedBytes.buffer] });
      const detachedArr = new Type(new ArrayBuffer(4 * w));
      structuredClone(detachedArr.buffer, { transfer: [detachedArr.buffer as ArrayBuffer] });
      const bytes = new Uint8Array(4 * w).fill(5);
      const arr = new Type(new ArrayBuffer(4 * w));
      new Uint8Array(arr.buffer).fill(6);
      for (const order of ORDERS) {
        for (const call of [
          () => decodeArray(detachedBytes, 0, arr, 0, 1, order),
          () => decodeArray(bytes, 0, detachedArr, 0, 1, order),
          () => encodeArray(detachedArr, 0, 1, bytes, 0, order),
          () => encodeArray(arr, 0, 1, detachedBytes, 0, order),
        ]) {
          const e = thrown(call);
          expect(e).toBeInstanceOf(OutOfRangeError);
          expect((e as OutOfRangeError).length).toBe(0);
        }
        // Nothing to move: nothing to refuse.
        decodeArray(detachedBytes, 0, detachedArr, 0, 0, order);
        encodeArray(detachedArr, 0, 0, detachedBytes, 0, order);
      }
      expect(bytes.every((x) => x === 5)).toBe(true);
      expect(new Uint8Array(arr.buffer).every((x) => x === 6)).toBe(true);
    }
  });
});
