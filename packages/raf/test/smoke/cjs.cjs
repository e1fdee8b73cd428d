const assert = require("node:assert/strict");
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { AsyncRandomAccessFile, RandomAccessFile, DEFAULT_BUFFER_SIZE } = require("@rafkit/raf");

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
  const g = new RandomAccessFile(path, "rw", { backend: "node" });
  g.writeIntAt(100, 5);
  assert.equal(g.readIntAt(100), 5);
  assert.equal(g.getFilePointer(), 0);
  assert.throws(() => g.lock(), { code: "ERR_RAF_LOCK_UNSUPPORTED" });
  g.close();
  AsyncRandomAccessFile.open(path, "r")
    .then(async (a) => {
      assert.equal(await a.readIntAt(100), 5);
      await a.close();
      console.log("cjs ok");
    })
    .finally(() => rmSync(dir, { recursive: true, force: true }));
} catch (e) {
  rmSync(dir, { recursive: true, force: true });
  throw e;
}
