// @rafkit/bits: every primitive against the bytes Java's DataOutputStream writes, modified UTF-8 against known byte
// arrays, float bits, bulk codecs and the typed errors.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import {
  BigEndian,
  codecFor,
  decodeArray,
  doubleToLongBits,
  doubleToRawLongBits,
  encodeArray,
  floatToIntBits,
  intBitsToFloat,
  LittleEndian,
  longBitsToDouble,
  ModifiedUtf8,
  OutOfRangeError,
  UTFDataFormatError,
} from "@rafkit/bits";
import { note, runtimeInfo, test } from "../harness.mjs";

const JSC = runtimeInfo().name === "Bun";
if (JSC)
  note(
    "NaN payloads",
    "JavaScriptCore canonicalises a NaN read as a number: raw NaN bits read back as 0x7ff8000000000000",
  );

const T = ["bits"];
const bytes = (...b) => Uint8Array.from(b);

// [setter, getter, value, Java's big-endian bytes]
const PRIMITIVES = [
  ["setInt8", "getInt8", -2, [0xfe]],
  ["setUint8", "getUint8", 0xfe, [0xfe]],
  ["setInt16", "getInt16", -2, [0xff, 0xfe]],
  ["setUint16", "getUint16", 0xfeed, [0xfe, 0xed]],
  ["setInt32", "getInt32", 0x01020304, [1, 2, 3, 4]],
  ["setInt32", "getInt32", -2147483648, [0x80, 0, 0, 0]],
  ["setUint32", "getUint32", 0xdeadbeef, [0xde, 0xad, 0xbe, 0xef]],
  ["setBigInt64", "getBigInt64", -2n, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]],
  ["setBigUint64", "getBigUint64", 0x0102030405060708n, [1, 2, 3, 4, 5, 6, 7, 8]],
  ["setFloat32", "getFloat32", 1.5, [0x3f, 0xc0, 0, 0]],
  ["setFloat32", "getFloat32", Number.NEGATIVE_INFINITY, [0xff, 0x80, 0, 0]],
  ["setFloat64", "getFloat64", Math.PI, [0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18]],
  ["setFloat64", "getFloat64", -0, [0x80, 0, 0, 0, 0, 0, 0, 0]],
  ["setBoolean", "getBoolean", true, [1]],
  ["setBoolean", "getBoolean", false, [0]],
  ["setChar", "getChar", "é", [0x00, 0xe9]],
  ["setChar", "getChar", "\uffff", [0xff, 0xff]],
  ["setSafeInt64", "getSafeInt64", 2 ** 40, [0, 0, 1, 0, 0, 0, 0, 0]],
  ["setSafeInt64", "getSafeInt64", -1, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]],
];

for (const [set, get, value, java] of PRIMITIVES) {
  test(
    `bits: ${set}(${String(value)}) writes Java's bytes in both orders, at an odd offset`,
    T,
    () => {
      const buf = new Uint8Array(java.length + 3);
      BigEndian[set](buf, 3, value);
      assert.deepEqual([...buf.subarray(3)], java);
      assert.equal(
        Object.is(BigEndian[get](buf, 3), value) || BigEndian[get](buf, 3) === value,
        true,
      );
      const le = new Uint8Array(java.length + 1);
      LittleEndian[set](le, 1, value);
      assert.deepEqual([...le.subarray(1)], java.length === 1 ? java : [...java].reverse());
      assert.ok(Object.is(LittleEndian[get](le, 1), value));
    },
  );
}

test(
  "bits: Float32/Float64 setters write Java's canonical NaN; getters keep the bits they find",
  T,
  () => {
    const b = new Uint8Array(8);
    BigEndian.setFloat32(b, 0, Number.NaN);
    assert.deepEqual([...b.subarray(0, 4)], [0x7f, 0xc0, 0, 0]);
    BigEndian.setFloat64(b, 0, Number.NaN);
    assert.deepEqual([...b], [0x7f, 0xf8, 0, 0, 0, 0, 0, 0]);
    const odd = bytes(0x7f, 0xf0, 0, 0, 0, 0, 0, 1); // a signalling NaN payload
    assert.ok(Number.isNaN(BigEndian.getFloat64(odd, 0)));
    // V8 keeps a NaN's payload in a number; JavaScriptCore (Bun) boxes every NaN as its one quiet NaN, so there
    // the raw bits read back canonical. Documented in the README's support matrix.
    const raw = doubleToRawLongBits(BigEndian.getFloat64(odd, 0));
    assert.equal(raw, JSC ? 0x7ff8000000000000n : 0x7ff0000000000001n);
  },
);

test("bits: codecFor picks the order; out-of-range and bigint offsets are typed errors", T, () => {
  assert.equal(codecFor("big"), BigEndian);
  assert.equal(codecFor("little"), LittleEndian);
  const b = new Uint8Array(16);
  assert.throws(
    () => BigEndian.getInt32(b, 13),
    (e) => e instanceof OutOfRangeError && e.code === "ERR_OUT_OF_RANGE",
  );
  assert.throws(() => BigEndian.getInt32(b, 4n), {
    name: "TypeError",
    code: "ERR_INVALID_ARG_TYPE",
  });
  assert.throws(() => BigEndian.getInt32(b, 1.5), { code: "ERR_OUT_OF_RANGE" });
  assert.throws(() => BigEndian.setSafeInt64(b, 0, 2 ** 53), RangeError);
  const before = [...b];
  assert.throws(() => BigEndian.setBigInt64(b, 12, 1n), { code: "ERR_OUT_OF_RANGE" });
  assert.deepEqual([...b], before, "a failed write writes nothing");
});

test("bits: Java's float/double bit conversions", T, () => {
  assert.equal(floatToIntBits(-0), -0x80000000);
  assert.equal(floatToIntBits(Number.NaN), 0x7fc00000);
  assert.equal(floatToIntBits(1), 0x3f800000);
  assert.equal(doubleToLongBits(1), 0x3ff0000000000000n);
  assert.equal(doubleToLongBits(Number.NaN), 0x7ff8000000000000n);
  assert.equal(intBitsToFloat(0x40490fdb), 3.1415927410125732);
  assert.equal(longBitsToDouble(0x400921fb54442d18n), Math.PI);
  assert.equal(longBitsToDouble(-0x8000000000000000n), -0);
});

// [string, Java's writeUTF body]
const UTF = [
  ["", []],
  ["A", [0x41]],
  ["\u0000", [0xc0, 0x80]],
  ["é", [0xc3, 0xa9]],
  ["中", [0xe4, 0xb8, 0xad]],
  ["\u{1F600}", [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
  ["\ud800", [0xed, 0xa0, 0x80]],
  ["\u07ff\u0800", [0xdf, 0xbf, 0xe0, 0xa0, 0x80]],
];

for (const [s, java] of UTF) {
  test(
    `bits: modified UTF-8 of ${JSON.stringify(s)} is Java's ${java.length} bytes and decodes back`,
    T,
    () => {
      assert.equal(ModifiedUtf8.encodedLength(s), java.length);
      const body = new Uint8Array(java.length + 1);
      assert.equal(ModifiedUtf8.encode(s, body, 1), java.length);
      assert.deepEqual([...body.subarray(1)], java);
      assert.equal(ModifiedUtf8.decode(body, 1, java.length), s);
      const record = new Uint8Array(java.length + 2);
      ModifiedUtf8.writeUTF(s, record, 0);
      assert.deepEqual([...record], [java.length >> 8, java.length & 0xff, ...java]);
    },
  );
}

test("bits: malformed modified UTF-8 throws UTFDataFormatError with the JDK's messages", T, () => {
  assert.throws(
    () => ModifiedUtf8.decode(bytes(0x41, 0xc3, 0x41), 0, 3),
    (e) =>
      e instanceof UTFDataFormatError &&
      e.code === "ERR_UTF_DATA_FORMAT" &&
      e.message === "malformed input around byte 3",
  );
  assert.throws(() => ModifiedUtf8.decode(bytes(0x41, 0xe4, 0xb8), 0, 3), {
    message: "malformed input: partial character at end",
  });
  assert.throws(() => ModifiedUtf8.decode(bytes(0x80), 0, 1), {
    message: "malformed input around byte 0",
  });
  assert.throws(
    () => ModifiedUtf8.writeUTF("中".repeat(21846), new Uint8Array(70000), 0),
    UTFDataFormatError,
  );
});

test(
  "bits: bulk decodeArray/encodeArray for every element type, both orders, odd offsets",
  T,
  () => {
    const file = bytes(0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0x7f, 0xff, 0xff, 0xff);
    const ints = new Int32Array(3);
    decodeArray(file, 0, ints, 0, 3, "big");
    assert.deepEqual([...ints], [1, -2, 2147483647]);
    const out = new Uint8Array(9);
    encodeArray(new Float32Array([1.5, Number.NaN]), 0, 2, out, 1, "big");
    assert.deepEqual([...out], [0, 63, 192, 0, 0, 127, 192, 0, 0]);
    for (const Ctor of [
      Int16Array,
      Uint16Array,
      Int32Array,
      Uint32Array,
      Float32Array,
      Float64Array,
      BigInt64Array,
      BigUint64Array,
    ]) {
      const big = Ctor === BigInt64Array || Ctor === BigUint64Array;
      const src = Ctor.from([1, 2, 250], (v) => (big ? BigInt(v) : v));
      for (const order of ["big", "little"]) {
        const enc = new Uint8Array(src.byteLength + 3);
        encodeArray(src, 0, 3, enc, 3, order);
        const codec = codecFor(order);
        const w = Ctor.BYTES_PER_ELEMENT;
        const getter = {
          Int16Array: "getInt16",
          Uint16Array: "getUint16",
          Int32Array: "getInt32",
          Uint32Array: "getUint32",
          Float32Array: "getFloat32",
          Float64Array: "getFloat64",
          BigInt64Array: "getBigInt64",
          BigUint64Array: "getBigUint64",
        }[Ctor.name];
        assert.equal(codec[getter](enc, 3 + 2 * w), src[2], `${Ctor.name} ${order}`);
        const back = new Ctor(3);
        decodeArray(enc, 3, back, 0, 3, order);
        assert.deepEqual([...back], [...src]);
      }
    }
  },
);

test("bits: the CommonJS build loads through require and shares behaviour", T, () => {
  const require = createRequire(import.meta.url);
  const cjs = require("@rafkit/bits");
  const b = new Uint8Array(4);
  cjs.BigEndian.setInt32(b, 0, 0x01020304);
  assert.deepEqual([...b], [1, 2, 3, 4]);
  assert.equal(cjs.ModifiedUtf8.encodedLength("\u0000"), 2);
});
