import assert from "node:assert/strict";
import {
  BigEndian,
  BigEndianView,
  codecFor,
  decodeArray,
  doubleToLongBits,
  encodeArray,
  floatToIntBits,
  intBitsToFloat,
  LittleEndian,
  longBitsToDouble,
  ModifiedUtf8,
  OutOfRangeError,
  UTFDataFormatError,
} from "@rafkit/bits";

const b = new Uint8Array(16);
BigEndian.setInt32(b, 1, 0x01020304);
assert.deepEqual([...b.subarray(0, 6)], [0, 1, 2, 3, 4, 0]);
assert.equal(LittleEndian.getInt32(b, 1), 0x04030201);
assert.equal(codecFor("big"), BigEndian);
BigEndian.setFloat64(b, 8, Number.NaN);
assert.equal(BigEndian.getBigInt64(b, 8), doubleToLongBits(Number.NaN));
assert.throws(() => BigEndian.getInt32(b, 13), OutOfRangeError);

assert.equal(floatToIntBits(Number.NaN), 0x7fc00000);
assert.equal(intBitsToFloat(0x3f800000), 1);
assert.equal(longBitsToDouble(0x3ff0000000000000n), 1);

const ints = new Int32Array(2);
decodeArray(Uint8Array.of(0, 0, 0, 1, 0, 0, 0, 2), 0, ints, 0, 2, "big");
assert.deepEqual([...ints], [1, 2]);
const out = new Uint8Array(8);
encodeArray(ints, 0, 2, out, 0, "little");
assert.deepEqual([...out], [1, 0, 0, 0, 2, 0, 0, 0]);

const s = "a\u0000é😀";
const u = new Uint8Array(ModifiedUtf8.encodedLength(s));
ModifiedUtf8.encode(s, u, 0);
assert.equal(ModifiedUtf8.decode(u, 0, u.length), s);
assert.throws(() => ModifiedUtf8.decode(Uint8Array.of(0x80), 0, 1), UTFDataFormatError);
const page = new DataView(new ArrayBuffer(16));
BigEndianView.setFloat64(page, 3, Number.NaN);
assert.equal(BigEndianView.getBigInt64(page, 3), 0x7ff8000000000000n);
assert.throws(() => BigEndianView.getInt32(page, 1.5), OutOfRangeError);
assert.throws(() => BigEndian.setInt32(b, 4n, 1), {
  name: "TypeError",
  code: "ERR_INVALID_ARG_TYPE",
  message: "Offset must be a number, got bigint (4n)",
});
console.log("esm ok");
