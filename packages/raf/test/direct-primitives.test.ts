import { readFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { ClosedError, EOFError, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

// Unbuffered, on the native backend, each primitive's one system call is made on a direct buffer
// (syscall-state's allocateDirect), the window's memory: these pin that it is, and that its answers
// short of the whole primitive reach the window as before.

const tmp = tempDir();

describe("unbuffered primitives on a direct buffer", () => {
  /** A fault backend over the native one that counts the direct buffers it hands out and their calls. */
  function counting() {
    const backend = faultBackend(getBackend("native"));
    const primitives = (backend as unknown as Record<symbol, Record<string, unknown>>)[
      Symbol.for("@rafkit/syscall-state/primitives")
    ]!;
    const allocate = primitives.allocateDirect as (capacity: number) => {
      bytes: Uint8Array;
      pread(fd: number, n: number, position: number): number;
      pwrite(fd: number, n: number, position: number): number;
    };
    const count = { buffers: 0, calls: 0 };
    primitives.allocateDirect = (capacity: number) => {
      const d = allocate(capacity);
      count.buffers++;
      return {
        bytes: d.bytes,
        pread(fd: number, n: number, position: number) {
          count.calls++;
          return d.pread(fd, n, position);
        },
        pwrite(fd: number, n: number, position: number) {
          count.calls++;
          return d.pwrite(fd, n, position);
        },
      };
    };
    return { backend, count };
  }

  test("each primitive is one system call on the file's direct buffer, with the bytes Java's would write", () => {
    const { backend, count } = counting();
    const p = tmp("direct.bin");
    const f = new RandomAccessFile(p, "rw", { backend, bufferSize: 0 });
    expect(count.buffers).toBe(1);
    f.writeLong(0x0102030405060708n);
    f.writeInt(-2);
    f.writeShort(0x7ff0);
    f.writeByte(9);
    expect(count.calls).toBe(4);
    f.seek(0);
    expect(f.readLong()).toBe(0x0102030405060708n);
    expect(f.readInt()).toBe(-2);
    expect(f.readShort()).toBe(0x7ff0);
    expect(f.readUnsignedByte()).toBe(9);
    expect(() => f.readByte()).toThrow(EOFError);
    expect(count.calls).toBe(9);
    expect(backend.calls.pread + backend.calls.pwrite).toBe(9);
    f.close();
    expect([...readFileSync(p)]).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 255, 255, 255, 254, 0x7f, 0xf0, 9,
    ]);
    expect(() => f.writeInt(1)).toThrow(ClosedError);
    expect(count.calls).toBe(9);
  });

  test("a buffered file, and an unbuffered one on the node backend, take none", () => {
    const { backend, count } = counting();
    new RandomAccessFile(tmp("buffered.bin"), "rw", { backend }).close();
    expect(count.buffers).toBe(0);
    const f = new RandomAccessFile(tmp("node.bin"), "rw", { backend: "node", bufferSize: 0 });
    f.writeInt(7);
    f.close();
  });

  test("an answer short of the whole primitive goes to the window, which completes the write", () => {
    const { backend, count } = counting();
    const p = tmp("short.bin");
    const f = new RandomAccessFile(p, "rw", { backend, bufferSize: 0 });
    backend.inject({ call: "pwrite", shortTransfer: 3, times: 1 });
    backend.inject({ call: "pwrite", errno: "EINTR", times: 1 });
    f.writeLong(-1n);
    expect(count.calls).toBe(1);
    expect(backend.calls.pwrite).toBe(3);
    expect(f.getFilePointer()).toBe(8);
    f.close();
    expect([...readFileSync(p)]).toEqual(Array(8).fill(255));
  });
});
