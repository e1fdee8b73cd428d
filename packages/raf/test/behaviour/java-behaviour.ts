import { readFileSync, writeFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { EOFError, RandomAccessFile } from "../../src/index";
import { tempDir } from "../support/temp";

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
