const assert = require("node:assert/strict");
const bits = require("@rafkit/bits");

const b = new Uint8Array(8);
bits.BigEndian.setSafeInt64(b, 0, -2);
assert.equal(bits.BigEndian.getBigInt64(b, 0), -2n);
assert.equal(bits.LittleEndian.getUint16(Uint8Array.of(1, 2), 0), 0x0201);
assert.equal(bits.doubleToLongBits(1), 0x3ff0000000000000n);
const u = new Uint8Array(4);
assert.equal(bits.ModifiedUtf8.writeUTF("\u0000", u, 0), 4);
assert.deepEqual([...u], [0, 2, 0xc0, 0x80]);
try {
  bits.ModifiedUtf8.decode(Uint8Array.of(0xc3), 0, 1);
  assert.fail("expected a UTFDataFormatError");
} catch (e) {
  assert.ok(e instanceof bits.UTFDataFormatError);
  assert.equal(e.message, "malformed input: partial character at end");
}
const page = new DataView(new ArrayBuffer(16));
bits.viewCodecFor("little").setInt32(page, 1, 0x01020304);
assert.equal(new Uint8Array(page.buffer)[1], 4);
assert.equal(bits.LittleEndianView.getInt32(page, 1), 0x01020304);
assert.throws(() => bits.LittleEndianView.getInt32(page, Symbol("x")), {
  name: "TypeError",
  code: "ERR_INVALID_ARG_TYPE",
  message: "Offset must be a number, got symbol (Symbol(x))",
});
console.log("cjs ok");
