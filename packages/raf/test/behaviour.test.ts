import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { errnoOf, getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();

/** A file holding `bytes`, opened with `options`. */
function withBytes(bytes: ArrayLike<number>, options = {}, mode: "r" | "rw" = "rw") {
  const p = tmp("f.bin");
  writeFileSync(p, Uint8Array.from(bytes));
  return { path: p, f: new RandomAccessFile(p, mode, options) };
}

const latin1 = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

// Every behaviour holds buffered (default), tiny-buffered and unbuffered (the JDK's own path).
describe.each([{ bufferSize: 0 }, { bufferSize: 3 }, {}])("Java behaviour %o", (options) => {
  test("readLine splits on \\n, \\r and \\r\\n, decodes Latin-1, and returns null only at EOF", () => {
    const { f } = withBytes(
      [...latin1("a\nb\rc\r\nd\n\n\r\r\n\xe9\xff"), 0, ...latin1("\rx")],
      options,
    );
    const lines: (string | null)[] = [];
    for (let k = 0; k < 10; k++) lines.push(f.readLine());
    expect(lines).toEqual(["a", "b", "c", "d", "", "", "", "\xe9\xff\0", "x", null]);
    f.close();
  });

  test("readLine: a final \\r at EOF ends the line; an empty file gives null", () => {
    const { f } = withBytes(latin1("z\r"), options);
    expect(f.readLine()).toBe("z");
    expect(f.getFilePointer()).toBe(2);
    expect(f.readLine()).toBeNull();
    f.close();
    const empty = withBytes([], options).f;
    expect(empty.readLine()).toBeNull();
    empty.close();
  });

  test("readLine after \\r leaves a following non-\\n byte unread", () => {
    const { f } = withBytes(latin1("a\rb"), options);
    expect(f.readLine()).toBe("a");
    expect(f.getFilePointer()).toBe(2);
    expect(f.read()).toBe(0x62);
    f.close();
  });

  test("setLength truncates (clamping the pointer), extends with zeros (keeping it), and counts unflushed data", () => {
    const { path, f } = withBytes([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], options);
    f.seek(8);
    f.setLength(4);
    expect(f.getFilePointer()).toBe(4);
    expect(f.length()).toBe(4);
    f.setLength(12);
    expect(f.getFilePointer()).toBe(4);
    expect(f.length()).toBe(12);
    f.seek(20);
    f.setLength(15); // pointer beyond the new length, even when growing: moves to it
    expect(f.getFilePointer()).toBe(15);
    f.seek(1);
    f.writeShort(0x0a0b);
    f.setLength(2); // cuts the write in half
    f.seek(0);
    expect([f.read(), f.read(), f.read()]).toEqual([1, 0x0a, -1]);
    f.close();
    expect([...readFileSync(path)]).toEqual([1, 0x0a]);
  });

  test("setLength(negative) fails with EINVAL like Java's, before any I/O", () => {
    const { f } = withBytes([1, 2], options);
    expect(() => f.setLength(-1)).toThrow(
      expect.objectContaining({ code: "EINVAL", syscall: "ftruncate" }),
    );
    expect(f.length()).toBe(2);
    f.close();
  });

  test("skipBytes never passes EOF, returns 0 for n <= 0, and (as Java) moves back to EOF when past it", () => {
    const { f } = withBytes(new Uint8Array(10), options);
    f.seek(3);
    expect(f.skipBytes(4)).toBe(4);
    expect(f.skipBytes(100)).toBe(3);
    expect(f.getFilePointer()).toBe(10);
    expect(f.skipBytes(0)).toBe(0);
    expect(f.skipBytes(-5)).toBe(0);
    f.seek(20);
    expect(f.skipBytes(5)).toBe(-10);
    expect(f.getFilePointer()).toBe(10);
    f.close();
  });

  test("EOF: read() and read(buf) give -1 (never 0), readFully and readInt throw EOFError after consuming what was there", () => {
    const { f } = withBytes([1, 2, 3, 4, 5, 6], options);
    const buf = new Uint8Array(4);
    f.seek(6);
    expect(f.read()).toBe(-1);
    expect(f.read(buf)).toBe(-1);
    expect(f.read(buf, 0, 0)).toBe(0);
    f.seek(4);
    const err = (() => {
      try {
        f.readInt();
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(EOFError);
    expect(err).toMatchObject({ name: "EOFError", code: "ERR_RAF_EOF" });
    expect(f.getFilePointer()).toBe(6);
    f.seek(2);
    expect(() => f.readFully(new Uint8Array(8))).toThrow(EOFError);
    expect(f.getFilePointer()).toBe(6);
    f.seek(0);
    expect(f.read(buf, 1, 3)).toBeGreaterThan(0);
    f.seek(100);
    expect(f.read()).toBe(-1);
    expect(() => f.readByte()).toThrow(EOFError);
    expect(f.getFilePointer()).toBe(100);
    f.close();
  });

  test("seek past EOF does not grow the file; a write there does, with zeros between", () => {
    const { path, f } = withBytes([7], options);
    f.seek(5);
    expect(f.length()).toBe(1);
    f.writeByte(9);
    expect(f.length()).toBe(6);
    f.close();
    expect([...readFileSync(path)]).toEqual([7, 0, 0, 0, 0, 9]);
  });

  test("negative seek throws RangeError and changes nothing; bigint positions work", () => {
    const { f } = withBytes([1, 2, 3], options);
    f.seek(2);
    expect(() => f.seek(-1)).toThrow(
      expect.objectContaining({ code: "ERR_OUT_OF_RANGE", message: "Negative seek offset" }),
    );
    expect(() => f.seek(-1n)).toThrow(RangeError);
    expect(() => f.seek(1.5)).toThrow(RangeError);
    expect(f.getFilePointer()).toBe(2);
    f.seek(1n);
    expect(f.readUnsignedByte()).toBe(2);
    f.setLength(2n);
    expect(f.length()).toBe(2);
    f.close();
  });

  test("off/len bounds violations throw RangeError before any I/O, and write nothing", () => {
    const backend = faultBackend(getBackend());
    const { path, f } = withBytes([1, 2, 3, 4], { ...options, backend });
    backend.resetCalls();
    const b = new Uint8Array(4);
    for (const bad of [
      () => f.read(b, -1, 1),
      () => f.read(b, 2, 3),
      () => f.read(b, 0, -1),
      () => f.readFully(b, 3, 2),
      () => f.write(b, 5),
      () => f.write(b, 1, 4),
      () => f.readInts(new Int32Array(2), 1, 2),
      () => f.writeDoubles(new Float64Array(2), 0, 3),
    ]) {
      expect(bad).toThrow(
        expect.objectContaining({ name: "RangeError", code: "ERR_OUT_OF_RANGE" }),
      );
    }
    expect(backend.totalCalls()).toBe(0);
    f.close();
    expect([...readFileSync(path)]).toEqual([1, 2, 3, 4]);
  });

  test("writeUTF over 65535 encoded bytes throws UTFDataFormatError with Java's message and writes nothing", () => {
    const { path, f } = withBytes([5], options);
    f.seek(1);
    const s = "\u0800".repeat(30000);
    expect(() => f.writeUTF(s)).toThrow(
      expect.objectContaining({
        name: "UTFDataFormatError",
        message: `encoded string (${"\u0800".repeat(8)}...${"\u0800".repeat(8)}) too long: 90000 bytes`,
      }),
    );
    expect(f.getFilePointer()).toBe(1);
    expect(f.length()).toBe(1);
    // Exactly 65535 encoded bytes is the maximum and works.
    const max = "a".repeat(65535);
    f.writeUTF(max);
    f.seek(1);
    expect(f.readUTF()).toBe(max);
    f.close();
    expect(readFileSync(path).length).toBe(1 + 2 + 65535);
  });

  test("primitives round-trip, and their bytes are Java's (big-endian, canonical NaN)", () => {
    const { path, f } = withBytes([], options);
    f.writeBoolean(true);
    f.writeBoolean(false);
    f.writeByte(-1);
    f.writeByte(0x1ff);
    f.writeShort(-2);
    f.writeChar("é");
    f.writeChar(0x10041);
    f.writeInt(-123456789);
    f.writeLong(-(2n ** 63n));
    f.writeLong(2 ** 53 - 1);
    f.writeFloat(1.5);
    f.writeFloat(Number.NaN);
    f.writeDouble(-0);
    f.writeDouble(Number.NaN);
    f.seek(0);
    expect(f.readBoolean()).toBe(true);
    expect(f.readBoolean()).toBe(false);
    expect(f.readByte()).toBe(-1);
    expect(f.readUnsignedByte()).toBe(0xff);
    expect(f.readShort()).toBe(-2);
    expect(f.readChar()).toBe("é");
    expect(f.readUnsignedShort()).toBe(0x41);
    expect(f.readInt()).toBe(-123456789);
    expect(f.readLong()).toBe(-(2n ** 63n));
    expect(f.readLongAsNumber()).toBe(2 ** 53 - 1);
    expect(f.readFloat()).toBe(1.5);
    expect(f.readFloat()).toBeNaN();
    expect(Object.is(f.readDouble(), -0)).toBe(true);
    expect(f.readDouble()).toBeNaN();
    f.close();
    const bytes = readFileSync(path);
    const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    expect([...bytes.subarray(0, 8)]).toEqual([1, 0, 0xff, 0xff, 0xff, 0xfe, 0, 0xe9]);
    expect(d.getInt32(10)).toBe(-123456789);
    expect(d.getInt32(10)).toBe(-123456789);
    expect(d.getUint32(34)).toBe(0x7fc00000);
    expect(d.getBigUint64(46)).toBe(0x7ff8000000000000n);
    expect(bytes.length).toBe(54);
  });

  test("readLongAsNumber throws RangeError for an unsafe value; writeLong refuses an unsafe number and writes nothing", () => {
    const { f } = withBytes([], options);
    f.writeLong(2n ** 60n);
    f.seek(0);
    expect(() => f.readLongAsNumber()).toThrow(RangeError);
    expect(() => f.writeLong(2 ** 60)).toThrow(RangeError);
    expect(f.length()).toBe(8);
    f.close();
  });

  test("writeBytes keeps the low byte of each char; writeChars writes 2 bytes per char", () => {
    const { path, f } = withBytes([], options);
    f.writeBytes("A\u00e9\u0141");
    f.writeChars("A\u0141");
    f.close();
    expect([...readFileSync(path)]).toEqual([0x41, 0xe9, 0x41, 0, 0x41, 0x01, 0x41]);
  });

  test("ops after close throw ERR_RAF_CLOSED ('Stream Closed'); close is idempotent", () => {
    const { f } = withBytes([1, 2, 3, 4], options);
    f.readByte();
    f.close();
    f.close();
    f[Symbol.dispose]();
    expect(f.closed).toBe(true);
    expect(f.fd).toBe(-1);
    const ops: (() => unknown)[] = [
      () => f.read(),
      () => f.read(new Uint8Array(1)),
      () => f.readInt(),
      () => f.readFully(new Uint8Array(0)),
      () => f.readLine(),
      () => f.readUTF(),
      () => f.readInts(new Int32Array(0)),
      () => f.writeInt(1),
      () => f.write(new Uint8Array(0)),
      () => f.writeInts(new Int32Array(0)),
      () => f.writeUTF(""),
      () => f.seek(0),
      () => f.getFilePointer(),
      () => f.length(),
      () => f.setLength(0),
      () => f.skipBytes(1),
      () => f.flush(),
      () => f.sync(),
    ];
    for (const op of ops) {
      expect(op).toThrow(
        expect.objectContaining({ code: "ERR_RAF_CLOSED", message: "Stream Closed" }),
      );
    }
  });

  test("byteOrder little applies to numeric primitives, chars and bulk arrays; UTF stays Java's", () => {
    const { path, f } = withBytes([], { ...options, byteOrder: "little" });
    f.writeInt(0x01020304);
    f.writeChar(0x0a0b);
    f.writeShorts(Int16Array.of(0x0506));
    f.writeUTF("\u00e9");
    f.seek(0);
    expect(f.readInt()).toBe(0x01020304);
    f.close();
    expect([...readFileSync(path)]).toEqual([4, 3, 2, 1, 0x0b, 0x0a, 6, 5, 0, 2, 0xc3, 0xa9]);
  });

  test("bulk arrays round-trip with offset and count", () => {
    const { f } = withBytes([], options);
    const ints = Int32Array.from({ length: 3000 }, (_, k) => k * 7919 - 5000);
    f.writeInts(ints, 10, 2000);
    f.writeLongs(BigInt64Array.of(-1n, 2n ** 62n));
    f.writeFloats(Float32Array.of(0.5, Number.NaN));
    f.writeDoubles(Float64Array.of(Math.PI));
    f.writeShorts(Uint16Array.of(65535));
    f.seek(0);
    const back = new Int32Array(2002);
    f.readInts(back, 1, 2000);
    expect([...back.subarray(1, 2001)]).toEqual([...ints.subarray(10, 2010)]);
    const longs = new BigInt64Array(2);
    f.readLongs(longs);
    expect([...longs]).toEqual([-1n, 2n ** 62n]);
    const floats = new Float32Array(2);
    f.readFloats(floats);
    expect(floats[0]).toBe(0.5);
    expect(floats[1]).toBeNaN();
    const doubles = new Float64Array(1);
    f.readDoubles(doubles);
    expect(doubles[0]).toBe(Math.PI);
    const shorts = new Int16Array(1);
    f.readShorts(shorts);
    expect(shorts[0]).toBe(-1);
    expect(() => f.readInts(new Int32Array(1))).toThrow(EOFError);
    f.close();
  });
});

describe("modes", () => {
  test("an illegal mode is rejected with Java's message before any I/O", () => {
    const p = tmp("never.bin");
    for (const mode of ["x", "rx", "RW", "", "w"]) {
      expect(() => new RandomAccessFile(p, mode as "r")).toThrow(
        expect.objectContaining({
          name: "TypeError",
          code: "ERR_INVALID_ARG_VALUE",
          message: `Illegal mode "${mode}" must be one of "r", "rw", "rws", or "rwd"`,
        }),
      );
    }
    expect(existsSync(p)).toBe(false);
  });

  test.each(["node", "native"] as const)(
    "open failures are Node-shaped errors (%s backend)",
    (backend) => {
      const missing = tmp("missing.bin");
      expect(() => new RandomAccessFile(missing, "r", { backend })).toThrow(
        expect.objectContaining({
          code: "ENOENT",
          errno: -errnoOf("ENOENT"),
          syscall: "open",
          path: missing,
        }),
      );
      expect(existsSync(missing)).toBe(false);
      const dir = tmp("dir");
      writeFileSync(tmp("x"), "");
      // node:fs on Windows opens a directory for writing (libuv asks with backup semantics).
      const modes = backend === "node" && process.platform === "win32" ? ["r"] : ["r", "rw"];
      for (const mode of modes as ("r" | "rw")[]) {
        expect(() => new RandomAccessFile(dirname(dir), mode, { backend })).toThrow(
          expect.objectContaining({ code: "EISDIR", syscall: "open" }),
        );
      }
    },
  );

  test.each(["node", "native"] as const)(
    "a path with a NUL byte is node:fs's TypeError, and no other file is created (%s backend)",
    async (backend) => {
      const real = tmp("victim");
      const evil = `${real}\u0000.ext`;
      const shape = { name: "TypeError", code: "ERR_INVALID_ARG_VALUE" };
      expect(() => new RandomAccessFile(evil, "rw", { backend })).toThrow(
        expect.objectContaining(shape),
      );
      await expect(AsyncRandomAccessFile.open(evil, "rw", { backend })).rejects.toMatchObject(
        shape,
      );
      expect(existsSync(real)).toBe(false);
    },
  );

  // Windows has no permission bits for chmod to clear (it sets the read-only attribute only).
  test.skipIf(process.getuid?.() === 0 || process.platform === "win32")(
    "a file without permission fails with EACCES",
    () => {
      const p = tmp("locked.bin");
      writeFileSync(p, "x");
      chmodSync(p, 0o000);
      expect(() => new RandomAccessFile(p, "r")).toThrow(
        expect.objectContaining({ code: "EACCES" }),
      );
    },
  );

  test("rw creates the file; r refuses writes with EBADF (as Java's 'Bad file descriptor') before any I/O", () => {
    const p = tmp("created.bin");
    new RandomAccessFile(p, "rw").close();
    expect(existsSync(p)).toBe(true);
    writeFileSync(p, Uint8Array.of(1, 2));
    const backend = faultBackend(getBackend());
    const f = new RandomAccessFile(p, "r", { backend });
    backend.resetCalls();
    expect(() => f.writeInt(1)).toThrow(
      expect.objectContaining({ code: "EBADF", syscall: "write" }),
    );
    expect(() => f.write(Uint8Array.of(1))).toThrow(expect.objectContaining({ code: "EBADF" }));
    expect(() => f.writeUTF("x")).toThrow(expect.objectContaining({ code: "EBADF" }));
    expect(backend.totalCalls()).toBe(0);
    expect(f.readShort()).toBe(0x0102);
    f.close();
    expect([...readFileSync(p)]).toEqual([1, 2]);
  });

  test.each(["rws", "rwd"] as const)(
    "%s: every write call reaches the OS before it returns",
    (mode) => {
      const p = tmp("sync.bin");
      const f = new RandomAccessFile(p, mode);
      f.writeInt(0x01020304);
      expect([...readFileSync(p)]).toEqual([1, 2, 3, 4]);
      f.writeUTF("hi");
      expect(readFileSync(p).length).toBe(8);
      f.seek(0);
      expect(f.readInt()).toBe(0x01020304);
      f.close();
    },
  );
});

describe("buffering", () => {
  test("reads see unflushed writes; length() counts them; flush writes them", () => {
    const p = tmp("buf.bin");
    const f = new RandomAccessFile(p, "rw");
    f.writeInt(42);
    f.writeLong(7n);
    expect(readFileSync(p).length).toBe(0); // still in the window
    expect(f.length()).toBe(12);
    f.seek(0);
    expect(f.readInt()).toBe(42);
    f.flush();
    expect(readFileSync(p).length).toBe(12);
    f.close();
  });

  test("moving the window flushes its dirty data", () => {
    const p = tmp("move.bin");
    const f = new RandomAccessFile(p, "rw", { bufferSize: 16 });
    f.writeInt(1);
    f.seek(1000);
    f.writeInt(2);
    expect(readFileSync(p).length).toBe(4);
    f.close();
    expect(readFileSync(p).length).toBe(1004);
  });

  test.each(["node", "native"] as const)(
    "bufferSize 0: exactly one system call per primitive (%s)",
    (kind) => {
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(tmp("unbuf.bin"), "rw", { bufferSize: 0, backend });
      const ops: [string, () => unknown][] = [
        ["writeBoolean", () => f.writeBoolean(true)],
        ["writeByte", () => f.writeByte(1)],
        ["writeShort", () => f.writeShort(1)],
        ["writeChar", () => f.writeChar("c")],
        ["writeInt", () => f.writeInt(1)],
        ["writeLong", () => f.writeLong(1n)],
        ["writeFloat", () => f.writeFloat(1)],
        ["writeDouble", () => f.writeDouble(1)],
        ["writeUTF", () => f.writeUTF("héllo")],
        ["write(buf)", () => f.write(new Uint8Array(100))],
        ["seek", () => f.seek(0)],
        ["readBoolean", () => f.readBoolean()],
        ["readByte", () => f.readByte()],
        ["readShort", () => f.readShort()],
        ["readChar", () => f.readChar()],
        ["readInt", () => f.readInt()],
        ["readLong", () => f.readLong()],
        ["readFloat", () => f.readFloat()],
        ["readDouble", () => f.readDouble()],
        ["read()", () => f.read()],
        ["read(buf)", () => f.read(new Uint8Array(10))],
        ["readFully", () => f.readFully(new Uint8Array(10))],
      ];
      const counts = ops.map(([name, op]) => {
        backend.resetCalls();
        op();
        return [name, backend.totalCalls()];
      });
      expect(counts).toEqual(ops.map(([name]) => [name, name === "seek" ? 0 : 1]));
      // Reading the same bytes again costs a system call again: nothing is kept.
      f.seek(0);
      f.readInt();
      backend.resetCalls();
      f.seek(0);
      f.readInt();
      expect(backend.calls.pread).toBe(1);
      f.close();
    },
  );

  test.each(["node", "native"] as const)(
    "bufferSize 0 after a failed read: no stale bytes, still one system call per primitive (%s)",
    (kind) => {
      const p = tmp("unbuf-fail.bin");
      writeFileSync(p, Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8));
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(p, "r", { bufferSize: 0, backend });
      // readInt: the first pread brings 2 bytes, the second fails.
      backend.inject({ call: "pread", shortTransfer: 2, times: 1 });
      backend.inject({ call: "pread", errno: "EIO", after: 1, times: 1 });
      expect(() => f.readInt()).toThrow(expect.objectContaining({ code: "EIO" }));
      backend.clearRules();
      expect(f.getFilePointer()).toBe(0);
      writeFileSync(p, Uint8Array.of(0xaa, 0xbb, 3, 4, 5, 6, 7, 8)); // another writer
      backend.resetCalls();
      expect(f.readUnsignedShort()).toBe(0xaabb);
      expect(backend.calls.pread).toBe(1);
      backend.resetCalls();
      expect(f.readShort()).toBe(0x0304);
      expect(backend.calls.pread).toBe(1);
      f.close();
    },
  );

  test("read(buf) across the window's end: the window's bytes plus ONE read for the rest, as the JDK's one read(2)", () => {
    const p = tmp("short.bin");
    const data = Uint8Array.from({ length: 10000 }, (_, k) => k % 251);
    writeFileSync(p, data);
    const backend = faultBackend(getBackend());
    const f = new RandomAccessFile(p, "r", { backend });
    f.readByte(); // window = [0, 8192)
    f.seek(8191);
    backend.resetCalls();
    const buf = new Uint8Array(100);
    expect(f.read(buf)).toBe(100);
    expect(backend.calls.pread).toBe(1);
    expect(buf).toEqual(data.subarray(8191, 8291));
    expect(f.getFilePointer()).toBe(8291);
    // Near EOF: what there is, in one call; then -1.
    f.seek(9990);
    backend.resetCalls();
    expect(f.read(new Uint8Array(100))).toBe(10);
    expect(backend.calls.pread).toBeLessThanOrEqual(1);
    expect(f.read(new Uint8Array(100))).toBe(-1);
    // The same across a window holding unflushed writes: they are read back, the rest from the file.
    const g = new RandomAccessFile(tmp("short-dirty.bin"), "rw", { backend });
    g.write(data);
    g.seek(8100);
    g.writeInt(-1); // dirty, inside the window
    g.seek(8100);
    const back = new Uint8Array(200);
    expect(g.read(back)).toBe(200);
    expect([...back.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    expect(back.subarray(4)).toEqual(data.subarray(8104, 8300));
    g.close();
    f.close();
  });

  test("buffered: primitives served from the window cost no system call; large transfers bypass it in one call", () => {
    const backend = faultBackend(getBackend());
    const p = tmp("bulk.bin");
    const f = new RandomAccessFile(p, "rw", { bufferSize: 4096, backend });
    backend.resetCalls();
    for (let k = 0; k < 1000; k++) f.writeInt(k);
    expect(backend.totalCalls()).toBe(0);
    f.flush();
    expect(backend.calls.pwrite).toBe(1);
    // The window still holds what it flushed: reading it back is free.
    f.seek(0);
    backend.resetCalls();
    let sum = 0;
    for (let k = 0; k < 1000; k++) sum += f.readInt();
    expect(sum).toBe(499500);
    expect(backend.totalCalls()).toBe(0);
    // A fresh instance reads once per window; opened "r", the first window is open's own pread (the one
    // that checks the path is no directory).
    backend.resetCalls();
    const g = new RandomAccessFile(p, "r", { bufferSize: 4096, backend });
    expect(backend.calls.pread).toBe(1);
    sum = 0;
    for (let k = 0; k < 1000; k++) sum += g.readInt();
    expect(sum).toBe(499500);
    expect(backend.calls.pread).toBe(1);
    g.close();
    backend.resetCalls();
    const big = new Uint8Array(1 << 20).fill(7);
    f.write(big);
    expect(backend.calls.pwrite).toBe(1);
    f.seek(4000);
    backend.resetCalls();
    const back = new Uint8Array(1 << 20);
    f.readFully(back);
    expect(backend.calls.pread).toBeLessThanOrEqual(2); // the window's bytes, then one direct read
    expect(back[(1 << 20) - 1]).toBe(7);
    f.close();
  });
});

describe("options and accessors", () => {
  test("path (string or file URL), mode, fd, byteOrder, bufferSize, backendName", () => {
    const p = tmp("acc.bin");
    const f = new RandomAccessFile(new URL(`file://${p}`), "rw", {
      byteOrder: "little",
      bufferSize: 100,
      backend: "node",
    });
    expect([f.path, f.mode, f.byteOrder, f.bufferSize, f.backendName, f.closed]).toEqual([
      p,
      "rw",
      "little",
      100,
      "node",
      false,
    ]);
    expect(f.fd).toBeGreaterThan(2);
    f.close();
    const g = new RandomAccessFile(p, "r");
    expect([g.byteOrder, g.bufferSize]).toEqual(["big", 8192]);
    g.close();
  });

  test("bad options and positions are rejected before any I/O", () => {
    const p = tmp("bad.bin");
    for (const bufferSize of [-1, 1.5, 2 ** 31, Number.NaN]) {
      expect(() => new RandomAccessFile(p, "rw", { bufferSize })).toThrow(RangeError);
    }
    expect(() => new RandomAccessFile(p, "rw", { byteOrder: "middle" as "big" })).toThrow(
      TypeError,
    );
    expect(() => new RandomAccessFile(p, "rw", { backend: "rust" as "node" })).toThrow(TypeError);
    expect(existsSync(p)).toBe(false);
    const f = new RandomAccessFile(p, "rw");
    expect(() => f.seek(2n ** 60n)).toThrow(expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }));
    expect(() => f.seek("1" as unknown as number)).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARG_TYPE" }),
    );
    expect(() => f.seek(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(f.getFilePointer()).toBe(0);
    f.close();
  });
});
