// @rafkit/raf's RandomAccessFile on both backends: Java's DataOutput bytes for every primitive, DataInput back,
// positional I/O, the buffer window, bulk arrays, files past 4 GiB, and the typed errors.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import {
  ClosedError,
  DEFAULT_BUFFER_SIZE,
  EOFError,
  parseMode,
  RandomAccessFile,
  SystemCallError,
  UTFDataFormatError,
} from "@rafkit/raf";
import { tempPath, test } from "../harness.mjs";

// [writer, value, reader, Java's DataOutputStream bytes]
export const JAVA_PRIMITIVES = [
  ["writeBoolean", true, "readBoolean", [1]],
  ["writeByte", -2, "readByte", [0xfe]],
  ["writeByte", 0xfe, "readUnsignedByte", [0xfe]],
  ["writeShort", -2, "readShort", [0xff, 0xfe]],
  ["writeShort", 0xfeed, "readUnsignedShort", [0xfe, 0xed]],
  ["writeChar", "é", "readChar", [0x00, 0xe9]],
  ["writeInt", 0x01020304, "readInt", [1, 2, 3, 4]],
  ["writeInt", -1, "readInt", [0xff, 0xff, 0xff, 0xff]],
  ["writeLong", -2n, "readLong", [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]],
  ["writeLong", 2 ** 40, "readLongAsNumber", [0, 0, 1, 0, 0, 0, 0, 0]],
  ["writeFloat", 1.5, "readFloat", [0x3f, 0xc0, 0, 0]],
  ["writeFloat", Number.NaN, "readFloat", [0x7f, 0xc0, 0, 0]],
  ["writeDouble", Math.PI, "readDouble", [0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18]],
  ["writeDouble", -0, "readDouble", [0x80, 0, 0, 0, 0, 0, 0, 0]],
  ["writeUTF", "NUL\u0000", "readUTF", [0, 5, 0x4e, 0x55, 0x4c, 0xc0, 0x80]],
  ["writeUTF", "\u{1F600}", "readUTF", [0, 6, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
  ["writeUTF", "héllo", "readUTF", [0, 6, 0x68, 0xc3, 0xa9, 0x6c, 0x6c, 0x6f]],
];

for (const backend of ["native", "node"]) {
  const T = [backend];
  const open = (p, mode, o = {}) => new RandomAccessFile(p, mode, { backend, ...o });

  for (const bufferSize of [DEFAULT_BUFFER_SIZE, 0]) {
    test(
      `raf/${backend}: every primitive writes Java's DataOutput bytes and reads back (bufferSize ${bufferSize})`,
      T,
      () => {
        const p = tempPath();
        const f = open(p, "rw", { bufferSize });
        for (const [w, v] of JAVA_PRIMITIVES) f[w](v);
        f.close();
        const want = JAVA_PRIMITIVES.flatMap(([, , , b]) => b);
        assert.deepEqual([...fs.readFileSync(p)], want);
        const r = open(p, "r", { bufferSize });
        for (const [, v, read] of JAVA_PRIMITIVES) {
          const got = r[read]();
          assert.ok(
            Object.is(got, v) || (Number.isNaN(v) && Number.isNaN(got)),
            `${read}: ${String(got)} vs ${String(v)}`,
          );
        }
        assert.equal(r.read(), -1);
        r.close();
      },
    );
  }

  test(
    `raf/${backend}: byteOrder 'little' reverses numeric primitives but not writeUTF's length`,
    T,
    () => {
      const p = tempPath();
      const f = open(p, "rw", { byteOrder: "little" });
      f.writeInt(0x01020304);
      f.writeShort(0x0102);
      f.writeUTF("A");
      f.close();
      assert.deepEqual([...fs.readFileSync(p)], [4, 3, 2, 1, 2, 1, 0, 1, 0x41]);
    },
  );

  test(
    `raf/${backend}: writeBytes keeps low bytes, writeChars writes UTF-16BE, readLine splits like Java`,
    T,
    () => {
      const p = tempPath();
      const f = open(p, "rw");
      f.writeBytes("é\r\nb\rc\n");
      f.writeChars("é");
      f.seek(0);
      assert.equal(f.readLine(), "é");
      assert.equal(f.readLine(), "b");
      assert.equal(f.readLine(), "c");
      assert.equal(f.readChar(), "é");
      assert.equal(f.readLine(), null);
      f.close();
      assert.deepEqual([...fs.readFileSync(p)], [0xe9, 13, 10, 0x62, 13, 0x63, 10, 0, 0xe9]);
    },
  );

  test(
    `raf/${backend}: EOFError (ERR_RAF_EOF) after consuming what was there; read() is -1`,
    T,
    () => {
      const p = tempPath();
      fs.writeFileSync(p, Uint8Array.of(1, 2, 3));
      const f = open(p, "r");
      f.seek(1);
      assert.throws(
        () => f.readInt(),
        (e) => e instanceof EOFError && e.code === "ERR_RAF_EOF",
      );
      assert.equal(f.getFilePointer(), 3);
      assert.equal(f.read(), -1);
      assert.equal(f.read(new Uint8Array(4)), -1);
      assert.throws(() => f.readFully(new Uint8Array(1)), EOFError);
      f.close();
    },
  );

  test(
    `raf/${backend}: open errors are SystemCallErrors with code, syscall and path; modes are checked first`,
    T,
    () => {
      const p = `${tempPath()}.missing`;
      assert.throws(
        () => open(p, "r"),
        (e) =>
          e instanceof SystemCallError &&
          e.code === "ENOENT" &&
          e.syscall === "open" &&
          e.path === p,
      );
      assert.throws(() => open(p, "x"), {
        name: "TypeError",
        code: "ERR_INVALID_ARG_VALUE",
        message: 'Illegal mode "x" must be one of "r", "rw", "rws", or "rwd"',
      });
      assert.equal(fs.existsSync(p), false);
      assert.throws(() => open(fs.mkdtempSync(`${p}-dir`), "r"), { code: "EISDIR" });
      assert.equal(parseMode("rws"), "rws");
      assert.throws(() => parseMode("w"), TypeError);
    },
  );

  test(
    `raf/${backend}: a closed file throws ClosedError ("Stream Closed"); close is idempotent`,
    T,
    () => {
      const f = open(tempPath(), "rw");
      f.close();
      f.close();
      assert.equal(f.closed, true);
      assert.equal(f.fd, -1);
      assert.throws(
        () => f.readInt(),
        (e) =>
          e instanceof ClosedError && e.code === "ERR_RAF_CLOSED" && e.message === "Stream Closed",
      );
      assert.throws(() => f.writeInt(1), ClosedError);
    },
  );

  test(
    `raf/${backend}: positional I/O never moves the pointer and sees unflushed writes`,
    T,
    () => {
      const p = tempPath();
      const f = open(p, "rw");
      f.writeInt(7);
      f.writeLongAt(100, 42n);
      f.writeUTFAt(200, "at");
      assert.equal(f.getFilePointer(), 4);
      assert.equal(f.readLongAt(100), 42n);
      assert.equal(f.readUTFAt(200), "at");
      assert.equal(f.readIntAt(0), 7);
      const buf = new Uint8Array(4);
      assert.equal(f.readAt(0, buf), 4);
      assert.deepEqual([...buf], [0, 0, 0, 7]);
      assert.equal(f.readAt(10_000, buf), -1);
      assert.throws(() => f.readFullyAt(202, new Uint8Array(8)), EOFError);
      assert.equal(f.getFilePointer(), 4);
      assert.equal(f.length(), 204);
      f.close();
      assert.equal(fs.statSync(p).size, 204);
    },
  );

  test(
    `raf/${backend}: the window holds writes until flush; bufferSize 0 writes through at once`,
    T,
    () => {
      const p = tempPath();
      const f = open(p, "rw");
      f.writeInt(1);
      assert.equal(f.length(), 4, "length counts data not yet flushed");
      assert.equal(fs.statSync(p).size, 0, "not yet written");
      f.flush();
      assert.equal(fs.statSync(p).size, 4);
      f.close();
      const u = open(p, "rw", { bufferSize: 0 });
      u.seek(4);
      u.writeInt(2);
      assert.equal(fs.statSync(p).size, 8);
      assert.equal(u.bufferSize, 0);
      u.sync();
      u.datasync();
      u.close();
    },
  );

  test(`raf/${backend}: bulk typed arrays, both orders, and the counts are checked`, T, () => {
    const p = tempPath();
    const f = open(p, "rw");
    f.writeInts(Int32Array.of(1, -2, 3));
    f.writeDoubles(Float64Array.of(0.5, Number.NaN));
    f.writeLongs(BigInt64Array.of(-1n));
    f.seek(0);
    const ints = new Int32Array(3);
    f.readInts(ints);
    assert.deepEqual([...ints], [1, -2, 3]);
    const ds = new Float64Array(2);
    f.readDoubles(ds);
    assert.equal(ds[0], 0.5);
    assert.ok(Number.isNaN(ds[1]));
    const ls = new BigInt64Array(1);
    f.readLongs(ls);
    assert.equal(ls[0], -1n);
    assert.throws(() => f.readShorts(new Int16Array(1)), EOFError);
    assert.throws(() => f.readInts(ints, 2, 5), { code: "ERR_OUT_OF_RANGE" });
    f.close();
    assert.deepEqual(
      [...fs.readFileSync(p).subarray(0, 12)],
      [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 3],
    );
  });

  test(`raf/${backend}: past 4 GiB: setLength (sparse), seek and read back exactly`, T, () => {
    const p = tempPath();
    const f = open(p, "rw", { byteOrder: "little" });
    f.setLength(5n * 1024n ** 3n);
    f.seek(4.5 * 1024 ** 3);
    f.writeInts(Int32Array.of(1, 2, 3));
    assert.equal(f.length(), 5 * 1024 ** 3);
    f.close();
    const u = open(p, "r", { bufferSize: 0 });
    u.seek(4.5 * 1024 ** 3);
    assert.equal(u.readInt(), 16777216);
    assert.equal(u.readIntAt(4.5 * 1024 ** 3 + 4), 0x02000000);
    u.close();
  });

  test(
    `raf/${backend}: malformed UTF is UTFDataFormatError; bad numeric arguments change nothing`,
    T,
    () => {
      const p = tempPath();
      fs.writeFileSync(p, Uint8Array.of(0, 3, 0x41, 0xc3, 0x41));
      const f = open(p, "rw");
      assert.throws(
        () => f.readUTF(),
        (e) => e instanceof UTFDataFormatError && e.message === "malformed input around byte 3",
      );
      f.seek(0);
      assert.throws(() => f.seek(Number.NaN), { name: "RangeError", code: "ERR_OUT_OF_RANGE" });
      assert.throws(() => f.seek("1"), { name: "TypeError", code: "ERR_INVALID_ARG_TYPE" });
      assert.throws(() => f.setLength(1.5), { code: "ERR_OUT_OF_RANGE" });
      assert.equal(f.getFilePointer(), 0);
      assert.equal(f.length(), 5);
      f.close();
      assert.throws(() => new RandomAccessFile(`${p}\u0000`, "rw", { backend }), {
        code: "ERR_INVALID_ARG_VALUE",
      });
    },
  );

  test(`raf/${backend}: Symbol.dispose closes; accessors report the instance`, T, () => {
    const p = tempPath();
    const f = open(p, "rw");
    assert.equal(f.backendName, backend);
    assert.equal(f.mode, "rw");
    assert.equal(f.path, p);
    assert.equal(f.byteOrder, "big");
    assert.equal(typeof Symbol.dispose, "symbol");
    f.writeInt(5);
    f[Symbol.dispose]();
    assert.equal(f.closed, true);
    assert.equal(fs.statSync(p).size, 4);
  });
}
