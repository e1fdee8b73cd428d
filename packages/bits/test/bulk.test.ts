import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type ByteOrder,
  decodeArray,
  encodeArray,
  type NumericArray,
  OutOfRangeError,
} from "../src/index";
import { dvGet, dvSet } from "./helpers";

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

/** Bytes at a random byteOffset, a typed array at a random element offset, and a count that fits both. */
function setup(Type: Ctor) {
  const w = Type.BYTES_PER_ELEMENT;
  return fc
    .record({
      count: fc.nat(40),
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
      const byteBacking = new Uint8Array(r.bytePad + byteLength);
      for (let i = 0; i < byteBacking.length; i++) byteBacking[i] = r.seed[i % 97]! ^ (i * 7);
      const bytes = byteBacking.subarray(r.bytePad);
      const arrLength = r.index + r.count + r.arrTail;
      const arrBuffer = new ArrayBuffer((r.arrPad + arrLength) * w);
      new Uint8Array(arrBuffer).set(
        Uint8Array.from({ length: arrBuffer.byteLength }, (_, i) => r.seed[(i * 5) % 97]! ^ i),
      );
      const arr = new Type(arrBuffer, r.arrPad * w, arrLength);
      return { ...r, w, byteBacking, bytes, arr };
    });
}

describe.each(TYPES)("%sArray bulk codecs", (name, Type) => {
  test.each(ORDERS)(
    "decodeArray (%s) matches a DataView loop and writes only its elements",
    (order) => {
      fc.assert(
        fc.property(setup(Type), ({ bytes, arr, srcOffset, index, count, w }) => {
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
        { numRuns: 150 },
      );
    },
  );

  test.each(ORDERS)(
    "encodeArray (%s) matches a DataView loop and writes only its bytes",
    (order) => {
      const isFloat = name.startsWith("Float");
      fc.assert(
        fc.property(setup(Type), fc.boolean(), (s, sprinkleNaN) => {
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
          expect(byteBacking).toEqual(expected);
        }),
        { numRuns: 150 },
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
