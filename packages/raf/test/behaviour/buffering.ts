import { readFileSync, writeFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { RandomAccessFile } from "../../src/index";
import { tempDir } from "../support/temp";

const tmp = tempDir();

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
