import { readFileSync, writeFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { BACKENDS, tempDir } from "./support/temp";

// A read of at least the buffer's size goes straight to the OS when it shares no byte with the window.
// Pending writes are flushed before it (as in the async class): the OS's file may end before unflushed writes
// further on, and those reads must not come back short.

const tmp = tempDir();

describe.each(BACKENDS)("reads that bypass the window (%s backend)", (kind) => {
  test("read and readAt see the length unflushed writes further on give the file", async () => {
    const p = tmp("bypass-short.bin");
    const content = new Uint8Array(5000).map((_, i) => i & 0xff);
    const f = new RandomAccessFile(p, "rw", { backend: kind });
    f.write(content); // at least the buffer: straight to the file
    f.seek(20000);
    f.writeInt(0x01020304); // pending in the window
    expect(f.length()).toBe(20004);
    f.seek(0);
    const buf = new Uint8Array(8192).fill(0xee);
    expect(f.read(buf)).toBe(8192);
    expect(buf.subarray(0, 5000)).toEqual(content);
    expect(buf.subarray(5000).every((b) => b === 0)).toBe(true); // the hole before the pending write
    expect(f.getFilePointer()).toBe(8192);
    const at = new Uint8Array(8192).fill(0xee);
    expect(f.readAt(1000, at)).toBe(8192);
    expect(at.subarray(0, 4000)).toEqual(content.subarray(1000));
    expect(f.getFilePointer()).toBe(8192);
    expect(f.readAt(16000, at)).toBe(4004); // through the window, which holds the pending write
    expect([...at.subarray(4000, 4004)]).toEqual([1, 2, 3, 4]);
    f.close();

    // The async class, the same sequence.
    const a = await AsyncRandomAccessFile.open(p, "rw", { backend: kind });
    await a.seek(30000);
    await a.writeInt(5);
    await a.seek(0);
    expect(await a.read(new Uint8Array(8192))).toBe(8192);
    await a.close();
  });

  test("still -1 at the end of the file, with writes pending elsewhere", () => {
    const p = tmp("bypass-eof.bin");
    const f = new RandomAccessFile(p, "rw", { backend: kind });
    f.writeInt(1); // pending, at [0, 4)
    f.seek(4);
    expect(f.read(new Uint8Array(10_000))).toBe(-1);
    expect(f.readAt(4, new Uint8Array(10_000))).toBe(-1);
    f.close();
  });

  test("writes pending before the read are flushed first, once; the read is then direct", () => {
    const p = tmp("bypass-before.bin");
    writeFileSync(p, new Uint8Array(15_000).fill(3));
    let pwrites = 0;
    const backend = faultBackend(getBackend(kind), [
      {
        call: "pwrite",
        errno: "EIO",
        when: () => {
          pwrites++;
          return false;
        },
      },
    ]);
    const f = new RandomAccessFile(p, "rw", { backend });
    f.writeIntAt(0, 9); // pending at [0, 4)
    const buf = new Uint8Array(16_384);
    expect(f.readAt(14_000, buf)).toBe(1000); // the file's end, as the OS knows it: it is the end
    expect(f.read(buf)).toBe(15_000); // from the pointer (0): the write from the window, the rest from the OS
    expect(buf.subarray(0, 5)).toEqual(new Uint8Array([0, 0, 0, 9, 3]));
    expect(pwrites).toBe(1); // the pending int, before the first read; the second found the window clean
    expect([...readFileSync(p).subarray(0, 4)]).toEqual([0, 0, 0, 9]);
    f.close();
  });

  test.each(["ENOSPC", "EFBIG"])(
    "a %s flushing on the way fails the read, with the pointer where it was, as in the async class",
    async (errno) => {
      const p = tmp(`bypass-fail-${errno}.bin`);
      writeFileSync(p, new Uint8Array(20).fill(5));
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(p, "rw", { backend, bufferSize: 16 });
      f.writeIntAt(100, 1); // pending beyond the file's end
      backend.inject({ call: "pwrite", errno, times: 1 });
      const buf = new Uint8Array(64);
      expect(() => f.read(buf)).toThrow(expect.objectContaining({ code: errno }));
      expect(f.getFilePointer()).toBe(0);
      // ENOSPC kept the write: the next read flushes it. EFBIG dropped it: the file ends at 20.
      expect(f.read(buf)).toBe(errno === "ENOSPC" ? 64 : 20);
      f.close();
      expect(readFileSync(p).length).toBe(errno === "ENOSPC" ? 104 : 20);

      writeFileSync(p, new Uint8Array(20).fill(5));
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend, bufferSize: 16 });
      await a.writeIntAt(100, 1);
      backend.inject({ call: "pwrite", errno, times: 1 });
      await expect(a.read(buf)).rejects.toMatchObject({ code: errno });
      expect(await a.getFilePointer()).toBe(0);
      await a.close();
    },
  );

  test("readFully: a failure on the way leaves the pointer; the end of the file consumes what was there", () => {
    const p = tmp("bypass-fully.bin");
    writeFileSync(p, new Uint8Array(50).fill(5));
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rw", { backend, bufferSize: 16 });
    f.writeIntAt(100, 1);
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    const buf = new Uint8Array(64);
    expect(() => f.readFully(buf)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(f.getFilePointer()).toBe(0);
    f.readFully(buf); // flushed now: [0, 64) of 104 bytes
    expect(f.getFilePointer()).toBe(64);
    expect(() => f.readFully(buf)).toThrow(expect.objectContaining({ name: "EOFError" }));
    expect(f.getFilePointer()).toBe(104);
    f.close();
  });
});
