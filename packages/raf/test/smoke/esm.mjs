import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "@rafkit/raf";

const dir = mkdtempSync(join(tmpdir(), "rafkit-raf-smoke-"));
try {
  for (const bufferSize of [0, 8192]) {
    const path = join(dir, `esm-${bufferSize}.bin`);
    const f = new RandomAccessFile(path, "rw", { bufferSize });
    f.writeInt(0x01020304);
    f.writeUTF("héllo\0😀");
    f.writeDoubles(Float64Array.of(1.5, Number.NaN));
    f.writeBytes("line\r\n");
    f.seek(0);
    assert.equal(f.readInt(), 0x01020304);
    assert.equal(f.readUTF(), "héllo\0😀");
    const d = new Float64Array(2);
    f.readDoubles(d);
    assert.equal(d[0], 1.5);
    assert.ok(Number.isNaN(d[1]));
    assert.equal(f.readLine(), "line");
    assert.equal(f.read(), -1);
    assert.throws(() => f.readInt(), EOFError);
    f.close();
    assert.deepEqual([...readFileSync(path).subarray(0, 4)], [1, 2, 3, 4]);
  }
  assert.throws(() => new RandomAccessFile(join(dir, "x"), "rx"), /Illegal mode "rx"/);
  assert.throws(() => new RandomAccessFile(join(dir, "missing"), "r"), {
    code: "ENOENT",
    syscall: "open",
  });
  // The async class, positional I/O, a lock and a read stream.
  const apath = join(dir, "async.bin");
  const a = await AsyncRandomAccessFile.open(apath, "rw");
  const [, , pointer] = await Promise.all([a.writeInt(7), a.writeUTF("async"), a.getFilePointer()]);
  assert.equal(pointer, 11);
  assert.equal(await a.readIntAt(0), 7);
  assert.equal(await a.readUTFAt(4), "async");
  await a.writeLongAt(16, 99n);
  const lock = await a.tryLock({ shared: true });
  if (a.backendName === "native") assert.equal(lock.isValid(), true);
  await a.flush();
  const chunks = [];
  await pipeline(a.createReadStream({ start: 16, end: 23 }), async (source) => {
    for await (const c of source) chunks.push(c);
  });
  assert.equal(Buffer.concat(chunks).readBigInt64BE(0), 99n);
  await a[Symbol.asyncDispose]();
  assert.equal(a.closed, true);
  console.log("esm ok");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
