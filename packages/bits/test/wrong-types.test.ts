import { describe, expect, test } from "vitest";
import { makeBigEndian } from "../src/big-endian";
import {
  BigEndian,
  BigEndianView,
  codecFor,
  decodeArray,
  encodeArray,
  LittleEndian,
  LittleEndianView,
  longBitsToDouble,
  ModifiedUtf8,
} from "../src/index";
import { makeLittleEndian } from "../src/little-endian";
import { thrown } from "./helpers";

// Arguments of the wrong type where the types say a Uint8Array, a bigint or a string: JavaScript callers
// pass them. Each is a TypeError with code ERR_INVALID_ARG_TYPE, and nothing is written.

const invalidType = { name: "TypeError", code: "ERR_INVALID_ARG_TYPE" };
type Any = Record<string, (...args: unknown[]) => unknown>;

/** Both codecs, on both 64-bit bigint paths. */
const CODECS = [
  ["BigEndian", BigEndian],
  ["LittleEndian", LittleEndian],
  ["BigEndian (words)", makeBigEndian(true)],
  ["LittleEndian (words)", makeLittleEndian(true)],
  ["BigEndian (DataView)", makeBigEndian(false)],
  ["LittleEndian (DataView)", makeLittleEndian(false)],
] as const;

describe.each(CODECS)("%s", (_name, codec) => {
  const c = codec as unknown as Any;

  test("bytes that are an ArrayBuffer or a DataView: every accessor refuses them, writing nothing", () => {
    for (const name of [
      "Int8",
      "Uint8",
      "Boolean",
      "Int16",
      "Char",
      "Int32",
      "Float64",
      "BigInt64",
      "SafeInt64",
    ]) {
      const buffer = new ArrayBuffer(16);
      for (const bytes of [buffer, new DataView(buffer)]) {
        expect(thrown(() => c[`get${name}`]!(bytes, 0))).toMatchObject(invalidType);
        const value = name.startsWith("Big") ? 7n : name === "Boolean" ? true : 7;
        expect(thrown(() => c[`set${name}`]!(bytes, 0, value))).toMatchObject(invalidType);
        expect(new Uint8Array(buffer)).toEqual(new Uint8Array(16));
        expect(Object.keys(bytes)).toEqual([]); // no property set in place of a byte
      }
    }
  });

  test("a 64-bit bigint setter refuses what is not a bigint (a string, a boolean, a number)", () => {
    for (const name of ["setBigInt64", "setBigUint64"]) {
      for (const v of ["123", "1.5", "abc", true, 1, null, undefined, {}]) {
        const b = new Uint8Array(8);
        expect(thrown(() => c[name]!(b, 0, v))).toMatchObject(invalidType);
        expect(b).toEqual(new Uint8Array(8));
      }
    }
  });

  test("setSafeInt64 and setBigInt64 over a detached buffer never seen before are out of range", () => {
    for (const [name, v] of [
      ["setSafeInt64", 1],
      ["setBigInt64", 1n],
      ["setBigUint64", 1n],
      ["getBigInt64", undefined],
      ["getSafeInt64", undefined],
    ] as const) {
      const buffer = new ArrayBuffer(16);
      const b = new Uint8Array(buffer);
      structuredClone(buffer, { transfer: [buffer] });
      expect(thrown(() => c[name]!(b, 0, v))).toMatchObject({
        code: "ERR_OUT_OF_RANGE",
        length: 0,
      });
    }
  });

  test("an object offset to a single-byte getter is a TypeError before it becomes a property key", () => {
    const b = new Uint8Array(4);
    const hostile = {
      toString() {
        throw new Error("toString must not run");
      },
    };
    for (const name of ["getInt8", "getUint8", "getBoolean"]) {
      for (const off of [Object.create(null), hostile, {}]) {
        expect(thrown(() => c[name]!(b, off))).toMatchObject(invalidType);
      }
    }
  });

  test("setChar refuses what is neither a number nor a string", () => {
    for (const v of [null, undefined, 5n, {}, true, Symbol("x")]) {
      const b = new Uint8Array(2);
      expect(thrown(() => c["setChar"]!(b, 0, v))).toMatchObject(invalidType);
      expect(b).toEqual(new Uint8Array(2));
    }
  });
});

describe.each([
  ["BigEndianView", BigEndianView],
  ["LittleEndianView", LittleEndianView],
] as const)("%s", (_name, view) => {
  test("a 64-bit bigint setter refuses what is not a bigint", () => {
    for (const name of ["setBigInt64", "setBigUint64"]) {
      for (const v of ["123", true, 1]) {
        const d = new DataView(new ArrayBuffer(8));
        expect(thrown(() => (view as unknown as Any)[name]!(d, 0, v))).toMatchObject(invalidType);
        expect(new Uint8Array(d.buffer)).toEqual(new Uint8Array(8));
      }
    }
  });
});

describe("the other entry points", () => {
  test("ModifiedUtf8 with an ArrayBuffer or a DataView for its bytes", () => {
    const buffer = new ArrayBuffer(16);
    for (const bytes of [buffer, new DataView(buffer)] as never[]) {
      expect(thrown(() => ModifiedUtf8.encode("héllo", bytes, 0))).toMatchObject(invalidType);
      expect(thrown(() => ModifiedUtf8.writeUTF("héllo", bytes, 0))).toMatchObject(invalidType);
      expect(thrown(() => ModifiedUtf8.decode(bytes, 0, 5))).toMatchObject(invalidType);
      expect(thrown(() => ModifiedUtf8.decode(bytes, 1000, 5))).toMatchObject(invalidType);
    }
    expect(new Uint8Array(buffer)).toEqual(new Uint8Array(16));
  });

  test("bulk codecs: bytes that are not a Uint8Array, and a Float16Array, write nothing", () => {
    const buffer = new ArrayBuffer(16);
    for (const bytes of [buffer, new DataView(buffer), new Int32Array(4)] as never[]) {
      expect(
        thrown(() => encodeArray(new Int32Array([1, 2, 3]), 0, 3, bytes, 1, "big")),
      ).toMatchObject(invalidType);
      expect(thrown(() => decodeArray(bytes, 0, new Int32Array(3), 0, 3, "big"))).toMatchObject(
        invalidType,
      );
    }
    expect(new Uint8Array(buffer)).toEqual(new Uint8Array(16));
    const Float16 = (globalThis as { Float16Array?: new (n: number) => unknown }).Float16Array;
    if (Float16 !== undefined) {
      const d = new Float16(1);
      expect(
        thrown(() => decodeArray(Uint8Array.of(0x3c, 0), 0, d as never, 0, 1, "big")),
      ).toMatchObject(invalidType);
    }
    // Node's Buffer is a Uint8Array.
    const out = Buffer.alloc(4);
    encodeArray(new Int32Array([0x01020304]), 0, 1, out, 0, "big");
    expect([...out]).toEqual([1, 2, 3, 4]);
  });

  test("longBitsToDouble refuses what is not a bigint", () => {
    for (const v of ["5", "x", true, 5]) {
      expect(thrown(() => longBitsToDouble(v as never))).toMatchObject(invalidType);
    }
  });

  test("an order that cannot be made a string is still told", () => {
    for (const order of [Object.create(null), Symbol("x"), 5n]) {
      expect(thrown(() => codecFor(order))).toMatchObject({
        name: "TypeError",
        code: "ERR_INVALID_ARG_VALUE",
      });
      expect(
        thrown(() => decodeArray(new Uint8Array(4), 0, new Int32Array(1), 0, 1, order)),
      ).toMatchObject({
        code: "ERR_INVALID_ARG_VALUE",
      });
    }
  });

  test("a bad count is not an access: its error has no offset, width or length", () => {
    const e = thrown(() => ModifiedUtf8.decode(new Uint8Array(16), 0, -1)) as Record<
      string,
      unknown
    >;
    expect(e).toMatchObject({
      code: "ERR_OUT_OF_RANGE",
      offset: undefined,
      width: undefined,
      length: undefined,
    });
  });
});
