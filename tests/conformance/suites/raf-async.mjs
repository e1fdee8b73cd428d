// @rafkit/raf's AsyncRandomAccessFile on both backends, and streams on both classes.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AsyncRandomAccessFile,
  ClosedError,
  EOFError,
  RandomAccessFile,
  SystemCallError,
} from "@rafkit/raf";
import { tempPath, test } from "../harness.mjs";
import { JAVA_PRIMITIVES } from "./raf-sync.mjs";

/** A Writable collecting what it is given, slowly (one macrotask per chunk) to exercise backpressure. */
function collector() {
  const chunks = [];
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk, _enc, done) {
      chunks.push(Buffer.from(chunk));
      setImmediate(done);
    },
  });
  return { sink, bytes: () => Buffer.concat(chunks) };
}

for (const backend of ["native", "node"]) {
  const T = [backend, "async"];
  const open = (p, mode, o = {}) => AsyncRandomAccessFile.open(p, mode, { backend, ...o });

  test(
    `raf-async/${backend}: every primitive writes Java's bytes, not awaited one by one, in call order`,
    T,
    async () => {
      const p = tempPath();
      const f = await open(p, "rw");
      await Promise.all(JAVA_PRIMITIVES.map(([w, v]) => f[w](v)));
      await f.seek(0);
      const back = await Promise.all(JAVA_PRIMITIVES.map(([, , r]) => f[r]()));
      await f.close();
      assert.deepEqual(
        [...fs.readFileSync(p)],
        JAVA_PRIMITIVES.flatMap(([, , , b]) => b),
      );
      back.forEach((got, i) => {
        const v = JAVA_PRIMITIVES[i][1];
        assert.ok(
          Object.is(got, v) || (Number.isNaN(v) && Number.isNaN(got)),
          `${JAVA_PRIMITIVES[i][2]}`,
        );
      });
    },
  );

  test(`raf-async/${backend}: positional I/O and the pointer; readAt is -1 at EOF`, T, async () => {
    const f = await open(tempPath(), "rw");
    await Promise.all([f.writeInt(1), f.writeInt(2), f.writeUTF("three")]);
    await f.writeLongAt(4096, 42n);
    assert.equal(await f.readLongAt(4096), 42n);
    assert.equal(await f.getFilePointer(), 15);
    const buf = new Uint8Array(4);
    assert.equal(await f.readAt(4, buf), 4);
    assert.deepEqual([...buf], [0, 0, 0, 2]);
    assert.equal(await f.readAt(1 << 20, buf), -1);
    assert.equal(await f.length(), 4104);
    await f.close();
  });

  test(
    `raf-async/${backend}: a failure rejects its own promise only; queued operations still run`,
    T,
    async () => {
      const p = tempPath();
      fs.writeFileSync(p, Uint8Array.of(0, 0, 0, 9, 1));
      const f = await open(p, "r");
      await f.seek(2);
      const [a, b, c] = await Promise.allSettled([f.readInt(), f.seek(0), f.readInt()]);
      assert.equal(a.status, "rejected");
      assert.ok(a.reason instanceof EOFError && a.reason.code === "ERR_RAF_EOF");
      assert.equal(b.status, "fulfilled");
      assert.equal(c.value, 9);
      await assert.rejects(f.seek(-1), { code: "ERR_OUT_OF_RANGE" });
      assert.equal(await f.getFilePointer(), 4);
      await f.close();
    },
  );

  test(
    `raf-async/${backend}: hundreds of concurrent positional reads interleaved with writes`,
    T,
    async () => {
      const f = await open(tempPath(), "rw", { bufferSize: 64 });
      await Promise.all(Array.from({ length: 256 }, (_, i) => f.writeIntAt(i * 4, i * 3)));
      const got = await Promise.all(Array.from({ length: 256 }, (_, i) => f.readIntAt(i * 4)));
      assert.deepEqual(
        got,
        Array.from({ length: 256 }, (_, i) => i * 3),
      );
      await f.close();
    },
  );

  test(
    `raf-async/${backend}: open errors reject with SystemCallError; close is idempotent; then ClosedError`,
    T,
    async () => {
      const p = `${tempPath()}.missing`;
      await assert.rejects(
        open(p, "r"),
        (e) => e instanceof SystemCallError && e.code === "ENOENT" && e.path === p,
      );
      await assert.rejects(open(p, "x"), { code: "ERR_INVALID_ARG_VALUE" });
      const f = await open(tempPath(), "rw");
      const pending = f.writeInt(3);
      await Promise.all([f.close(), f.close()]);
      await pending;
      await assert.rejects(f.readInt(), ClosedError);
      const g = await open(tempPath(), "rw");
      await g[Symbol.asyncDispose]();
      assert.equal(g.closed, true);
    },
  );

  test(
    `raf/${backend}: streams over a byte range (end inclusive), both classes, with backpressure`,
    [backend, "streams"],
    async () => {
      const p = tempPath();
      const f = await open(p, "rw");
      await pipeline(
        Readable.from(["hello, ", "streams", "!"]),
        f.createWriteStream({ start: 100 }),
      );
      const { sink, bytes } = collector();
      await pipeline(f.createReadStream({ start: 100, end: 106, highWaterMark: 2 }), sink);
      assert.equal(bytes().toString(), "hello, ");
      assert.equal(await f.length(), 115);
      assert.equal(await f.getFilePointer(), 0);
      await f.close();
      const s = new RandomAccessFile(p, "rw", { backend });
      const big = Buffer.alloc(300_000, 7);
      await pipeline(
        Readable.from([big.subarray(0, 100_000), big.subarray(100_000)]),
        s.createWriteStream({ start: 1000 }),
      );
      const out = collector();
      await pipeline(s.createReadStream({ start: 1000 }), out.sink);
      assert.equal(out.bytes().length, 300_000);
      assert.ok(out.bytes().every((b) => b === 7));
      assert.equal(s.getFilePointer(), 0);
      s.close();
      assert.equal(fs.readFileSync(p).subarray(100, 115).toString(), "hello, streams!");
    },
  );
}
