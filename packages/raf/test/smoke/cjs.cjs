const assert = require("node:assert/strict");
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { RandomAccessFile, DEFAULT_BUFFER_SIZE } = require("@rafkit/raf");

const dir = mkdtempSync(join(tmpdir(), "rafkit-raf-smoke-"));
try {
  const path = join(dir, "cjs.bin");
  const f = new RandomAccessFile(path, "rw", { byteOrder: "little" });
  assert.equal(f.bufferSize, DEFAULT_BUFFER_SIZE);
  f.writeLong(-2n);
  f.writeLong(42);
  f.setLength(12);
  assert.equal(f.length(), 12);
  f.seek(0n);
  assert.equal(f.readLong(), -2n);
  assert.equal(f.readInt(), 42);
  f.close();
  f.close();
  assert.throws(() => f.readInt(), { code: "ERR_RAF_CLOSED" });
  console.log("cjs ok");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
