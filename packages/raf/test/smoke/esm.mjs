import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EOFError, RandomAccessFile } from "@rafkit/raf";

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
  console.log("esm ok");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
