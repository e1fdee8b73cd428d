import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { BACKENDS, tempDir } from "./support/temp";

// Sequential primitive writes form a write run: only the pointer moves per write, and the run's bytes
// join the window's valid and dirty ranges when anything else happens. These pin the edges of that.

const tmp = tempDir();

/** A real backend (through the fault layer, with a rule that never fires) that records each pwrite as [position, length]. */
function recording(kind: "node" | "native") {
  const pwrites: number[][] = [];
  const backend = faultBackend(getBackend(kind), [
    {
      call: "pwrite",
      errno: "EIO",
      when: (info) => {
        pwrites.push([info.position, info.length]);
        return false;
      },
    },
  ]);
  return { backend, pwrites };
}

describe.each(BACKENDS)("write runs (%s backend)", (kind) => {
  test("seek resumes a run only where a write may join the dirty range: another writer's bytes in the gap survive", () => {
    const p = tmp("seek-gap.bin");
    writeFileSync(p, new Uint8Array(64).fill(1));
    const { backend, pwrites } = recording(kind);
    const f = new RandomAccessFile(p, "rw", { backend, bufferSize: 64 });
    for (let k = 0; k < 8; k++) f.writeInt(k); // [0, 32)
    f.flush();
    f.seek(0);
    f.writeInt(100); // dirty [0, 4)
    // Another writer changes bytes the window holds, between f's dirty range and where f goes next.
    const other = new Uint8Array([81, 81, 81, 81]);
    const fd = openSync(p, "r+");
    writeSync(fd, other, 0, 4, 8);
    closeSync(fd);
    f.seek(16);
    f.writeInt(200);
    f.seek(20); // joins [16, 20): resumes the run
    f.writeInt(201);
    f.flush();
    f.close();
    const bytes = readFileSync(p);
    expect([...bytes.subarray(8, 12)]).toEqual([81, 81, 81, 81]);
    expect([bytes.readInt32BE(0), bytes.readInt32BE(16), bytes.readInt32BE(20)]).toEqual([
      100, 200, 201,
    ]);
    expect(pwrites).toEqual([
      [0, 32],
      [0, 4],
      [16, 8],
    ]);
  });

  test("a run is flushed as one pwrite of exactly its bytes", () => {
    const p = tmp("exact.bin");
    writeFileSync(p, new Uint8Array(200).fill(9));
    const { backend, pwrites } = recording(kind);
    const f = new RandomAccessFile(p, "rw", { backend });
    f.seek(100);
    for (let k = 0; k < 5; k++) f.writeInt(k);
    expect(pwrites).toEqual([]);
    f.flush();
    expect(pwrites).toEqual([[100, 20]]);
    f.close();
    expect(pwrites).toEqual([[100, 20]]);
  });

  test("bytes read right after a run are never written back (only what this instance wrote is)", () => {
    const p = tmp("read-after.bin");
    writeFileSync(p, new Uint8Array(64).fill(7));
    const { backend, pwrites } = recording(kind);
    const f = new RandomAccessFile(p, "rw", { backend });
    f.readByte(); // the window holds the whole file
    f.seek(8);
    f.writeInt(1);
    f.writeInt(2);
    expect(f.readInt()).toBe(0x07070707);
    f.writeShort(3);
    expect(f.readLong()).toBe(0x0707070707070707n);
    f.flush();
    // Two writes, one read, one write: [8, 16) then [20, 22), never the read bytes between them.
    expect(pwrites).toEqual([
      [8, 8],
      [20, 2],
    ]);
    f.close();
  });

  test("writes on both sides of bytes only read go out separately, never as their hull", () => {
    const p = tmp("gap-writes.bin");
    writeFileSync(p, new Uint8Array(64).fill(7));
    const { backend, pwrites } = recording(kind);
    const f = new RandomAccessFile(p, "rw", { backend });
    f.readByte();
    f.writeIntAt(0, 1);
    f.writeIntAt(8, 2); // touches nothing pending: [0, 4) goes first
    f.writeIntAt(4, 3); // joins [8, 12) on its left
    f.seek(20);
    f.writeInt(4);
    f.write(new Uint8Array([5, 5]), 0, 2); // joins on the right, through the byte-array path
    f.seek(40);
    f.write(new Uint8Array([6]), 0, 1); // the byte-array path across a gap
    f.flush();
    expect(pwrites).toEqual([
      [0, 4],
      [4, 8],
      [20, 6],
      [40, 1],
    ]);
    f.close();
    const b = readFileSync(p);
    expect([b.readInt32BE(0), b.readInt32BE(4), b.readInt32BE(8), b.readInt32BE(12)]).toEqual([
      1, 3, 2, 0x07070707,
    ]);
  });

  test("a zero-length array write marks nothing: a later write still joins only what was written", () => {
    const p = tmp("zero-array.bin");
    writeFileSync(p, new Uint8Array(16).fill(0xaa));
    const { backend, pwrites } = recording(kind);
    const f = new RandomAccessFile(p, "rw", { backend });
    f.writeInts(new Int32Array(0));
    f.writeDoubles(new Float64Array(0), 0, 0);
    expect(f.readInt()).toBe(-0x55555556); // 0xaaaaaaaa: the window holds the file now
    const other = new RandomAccessFile(p, "rw", { backend: kind });
    other.writeInt(0x22222222);
    other.close();
    f.writeByte(1); // at 4
    f.close();
    expect(pwrites).toEqual([[4, 1]]);
    expect(readFileSync(p).readInt32BE(0)).toBe(0x22222222);
  });

  test.each([16, 8192])(
    "another writer's bytes between two of this instance's writes survive its flush (bufferSize %i)",
    async (bufferSize) => {
      const p = tmp(`two-writers-${bufferSize}.bin`);
      writeFileSync(p, new Uint8Array(64));
      const a = new RandomAccessFile(p, "rw", { backend: kind, bufferSize });
      const b = new RandomAccessFile(p, "rw", { backend: kind, bufferSize });
      a.readIntAt(0); // a's window now holds the bytes b is about to write
      a.writeIntAt(0, 0x11111111);
      b.writeIntAt(6, 0x22222222);
      b.close();
      a.seek(12);
      a.writeInt(0x33333333); // the same through a write run
      a.close();
      const file = readFileSync(p);
      expect([file.readInt32BE(0), file.readInt32BE(6), file.readInt32BE(12)]).toEqual([
        0x11111111, 0x22222222, 0x33333333,
      ]);

      // The async class shares the window.
      writeFileSync(p, new Uint8Array(64));
      const c = await AsyncRandomAccessFile.open(p, "rw", { backend: kind, bufferSize });
      await c.readIntAt(0);
      await c.writeIntAt(0, 0x44444444);
      const d = new RandomAccessFile(p, "rw", { backend: kind, bufferSize });
      d.writeIntAt(6, 0x55555555);
      d.close();
      await c.seek(12);
      await c.writeInt(0x66666666);
      await c.close();
      const again = readFileSync(p);
      expect([again.readInt32BE(0), again.readInt32BE(6), again.readInt32BE(12)]).toEqual([
        0x44444444, 0x55555555, 0x66666666,
      ]);
    },
  );

  test("a positional write overlapping the start of an open run, past its bytes", () => {
    const p = tmp("overlap.bin");
    const f = new RandomAccessFile(p, "rw", { backend: kind });
    f.writeUTF("ab"); // 00 02 61 62; a run opens after it, at 4, where the file ends
    f.writeShortAt(3, 0x0a0b); // bytes 3..4: across the run's start and past the end of file
    expect(f.length()).toBe(5);
    expect(f.readShortAt(3)).toBe(0x0a0b);
    f.writeShort(0x0c0d); // the pointer is still 4
    f.close();
    expect([...readFileSync(p)]).toEqual([0, 2, 0x61, 0x0a, 0x0c, 0x0d]);
  });

  test("pointer, length and reads see a run before anything settles it", () => {
    const p = tmp("see.bin");
    const f = new RandomAccessFile(p, "rw", { backend: kind });
    f.writeInt(1);
    f.writeInt(2);
    f.writeLong(3n);
    expect(f.getFilePointer()).toBe(16);
    expect(f.length()).toBe(16);
    // Reading on from inside the run, past what the window held before it.
    f.writeDouble(0.5);
    expect(() => f.readInt()).toThrow(expect.objectContaining({ name: "EOFError" }));
    f.seek(4);
    expect(f.readInt()).toBe(2);
    expect(f.readLong()).toBe(3n);
    expect(f.readDouble()).toBe(0.5);
    f.close();
    expect(readFileSync(p).length).toBe(24);
  });

  test("positional reads and writes inside an open run", () => {
    const p = tmp("at.bin");
    const f = new RandomAccessFile(p, "rw", { backend: kind });
    for (let k = 0; k < 4; k++) f.writeInt(k + 1);
    expect(f.readIntAt(8)).toBe(3);
    f.writeIntAt(4, -2);
    f.writeIntAt(20, 7); // past the run's end: the file grows with a zero gap
    expect(f.getFilePointer()).toBe(16);
    f.writeInt(5);
    expect(f.readIntAt(4)).toBe(-2);
    expect(f.readIntAt(16)).toBe(5);
    f.close();
    const b = readFileSync(p);
    expect([0, 4, 8, 12, 16, 20].map((o) => b.readInt32BE(o))).toEqual([1, -2, 3, 4, 5, 7]);
  });

  test("a run never starts past the window's valid bytes (stale bytes after a truncate stay unseen)", () => {
    const p = tmp("gap.bin");
    writeFileSync(p, new Uint8Array(60).fill(0xaa));
    const f = new RandomAccessFile(p, "rw", { bufferSize: 64, backend: kind });
    f.readByte(); // the window holds [0, 60)
    f.setLength(30); // bytes 30..59 of the window are stale now
    f.seek(40);
    f.writeInt(0x01020304);
    f.seek(30);
    // The gap a write past end of file leaves reads as zeros, as in the file.
    expect([f.readInt(), f.readInt(), f.readShort()]).toEqual([0, 0, 0]);
    expect(f.readInt()).toBe(0x01020304);
    f.close();
    const want = new Uint8Array(44);
    want.fill(0xaa, 0, 30);
    want.set([1, 2, 3, 4], 40);
    expect(new Uint8Array(readFileSync(p))).toEqual(want);
  });

  test("ENOSPC while flushing a run keeps its bytes; a later flush writes them", () => {
    const p = tmp("enospc.bin");
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rw", { backend });
    for (let k = 0; k < 8; k++) f.writeShort(k);
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.flush()).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(f.length()).toBe(16);
    f.flush();
    f.close();
    expect([...readFileSync(p)]).toEqual([...Array(8).keys()].flatMap((k) => [0, k]));
  });

  test("another handle's write next to a run survives this handle's flush", () => {
    const p = tmp("other.bin");
    writeFileSync(p, new Uint8Array(64));
    const a = new RandomAccessFile(p, "rw", { backend: kind });
    const b = new RandomAccessFile(p, "rw", { backend: kind });
    a.readInt(); // a's window holds the file
    a.seek(0);
    a.writeInt(0x11111111);
    expect(a.readInt()).toBe(0); // a only reads the next field
    b.writeIntAt(4, 0x22222222);
    b.close();
    a.close();
    const buf = readFileSync(p);
    expect([buf.readInt32BE(0), buf.readInt32BE(4)]).toEqual([0x11111111, 0x22222222]);
  });

  test("another handle's truncate is not undone by bytes this handle only read", () => {
    const p = tmp("trunc.bin");
    writeFileSync(p, new Uint8Array(60).fill(1));
    const a = new RandomAccessFile(p, "rw", { backend: kind });
    a.readByte();
    a.seek(0);
    a.writeInt(5);
    a.readLong();
    const b = new RandomAccessFile(p, "rw", { backend: kind });
    b.setLength(8);
    b.close();
    a.close();
    expect([...readFileSync(p)]).toEqual([0, 0, 0, 5, 1, 1, 1, 1]);
  });

  test("ENOSPC when a run fills the window: the write fails whole, the run's bytes stay, and go later", () => {
    const p = tmp("full.bin");
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rw", { bufferSize: 16, backend });
    for (let k = 0; k < 4; k++) f.writeInt(k);
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.writeInt(4)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(f.getFilePointer()).toBe(16);
    expect(f.length()).toBe(16);
    f.writeInt(4);
    f.close();
    const b = readFileSync(p);
    expect([0, 4, 8, 12, 16].map((o) => b.readInt32BE(o))).toEqual([0, 1, 2, 3, 4]);
  });

  test("a value of another type is ERR_INVALID_ARG_TYPE before anything moves: no valueOf runs, nothing is converted", () => {
    const p = tmp("valueof.bin");
    const f = new RandomAccessFile(p, "rw", { backend: kind });
    let calls = 0;
    const seeks = {
      valueOf() {
        calls++;
        f.seek(100);
        return 7;
      },
    } as unknown as number;
    f.writeInt(1);
    const refused = expect.objectContaining({ name: "TypeError", code: "ERR_INVALID_ARG_TYPE" });
    for (const v of [seeks, "12", undefined, null, 5n, true])
      for (const write of [
        "writeByte",
        "writeShort",
        "writeInt",
        "writeFloat",
        "writeDouble",
      ] as const)
        expect(() => f[write](v as number)).toThrow(refused);
    expect(() => f.writeIntAt(0, seeks)).toThrow(refused);
    for (const v of [undefined, null, {}, 1n])
      expect(() => f.writeChar(v as number)).toThrow(refused);
    for (const v of [1, "true", null])
      expect(() => f.writeBoolean(v as unknown as boolean)).toThrow(refused);
    for (const v of [12, null, undefined]) {
      expect(() => f.writeBytes(v as unknown as string)).toThrow(refused);
      expect(() => f.writeChars(v as unknown as string)).toThrow(refused);
    }
    expect([calls, f.getFilePointer()]).toEqual([0, 4]);
    f.writeChar("A");
    f.writeChar(0x42);
    f.writeBoolean(false);
    f.close();
    expect([...readFileSync(p)]).toEqual([0, 0, 0, 1, 0, 0x41, 0, 0x42, 0]);
  });

  test("a value that cannot be encoded fails the call and writes nothing, in a run or positional", async () => {
    const p = tmp("bad.bin");
    const f = new RandomAccessFile(p, "rw", { backend: kind });
    f.writeInt(1);
    expect(() => f.writeInt(2n as unknown as number)).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARG_TYPE" }),
    );
    expect(() => f.writeLong(2 ** 60)).toThrow(RangeError);
    expect(() => f.writeChar("")).toThrow(TypeError);
    expect(() => f.writeLongAt(0, 2 ** 60)).toThrow(RangeError);
    f.write(0x41); // write(byte) is writeByte
    f.close();
    expect([...readFileSync(p)]).toEqual([0, 0, 0, 1, 0x41]);

    const a = await AsyncRandomAccessFile.open(p, "rw", { backend: kind });
    await a.seek(5);
    await a.writeInt(2);
    await expect(a.writeInt(3n as unknown as number)).rejects.toThrow(TypeError);
    await expect(a.writeLong(2 ** 60)).rejects.toThrow(RangeError);
    await expect(a.writeChar("")).rejects.toThrow(TypeError);
    await expect(a.writeIntAt(0, 3n as unknown as number)).rejects.toThrow(TypeError);
    await expect(a.writeLongAt(0, 2 ** 60)).rejects.toThrow(RangeError);
    expect(await a.getFilePointer()).toBe(9);
    await a.close();
    expect([...readFileSync(p)]).toEqual([0, 0, 0, 1, 0x41, 0, 0, 0, 2]);
  });

  test("rws: a positional write inside the window reaches the file before it resolves (async)", async () => {
    const p = tmp("rws.bin");
    writeFileSync(p, new Uint8Array(8));
    const a = await AsyncRandomAccessFile.open(p, "rws", { backend: kind });
    await a.readInt(); // the window holds the file
    await a.writeIntAt(4, 9);
    expect(readFileSync(p).readInt32BE(4)).toBe(9);
    await a.close();
  });

  test("async: runs across awaited and unawaited writes, then a flush", async () => {
    const p = tmp("async.bin");
    const { backend, pwrites } = recording(kind);
    const f = await AsyncRandomAccessFile.open(p, "rw", { backend });
    await f.writeInt(1);
    void f.writeInt(2);
    await f.writeShort(3);
    expect(await f.getFilePointer()).toBe(10);
    expect(await f.readIntAt(4)).toBe(2);
    await f.flush();
    expect(pwrites).toEqual([[0, 10]]);
    await f.close();
  });
});
