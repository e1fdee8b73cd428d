import { readFileSync, writeFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { RandomAccessFile } from "../src/index";
import { BACKENDS, tempDir } from "./support/temp";

// The buffered write hot path keeps only the dirty range's bounds; write-through modes never take it.
// These pin what that must still mean in system calls and bytes.

const tmp = tempDir();
const data = Uint8Array.from({ length: 1000 }, (_, k) => (k * 13 + 5) % 256);

function file(): string {
  const p = tmp("f.bin");
  writeFileSync(p, data);
  return p;
}

describe.each(BACKENDS)("buffered hot paths (%s backend)", (kind) => {
  test("writes inside the window cost no system call; flush is one pwrite, a clean flush none", () => {
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 64, backend });
    const expected = Buffer.from(data);
    f.seek(100);
    backend.resetCalls();
    for (let k = 0; k < 5; k++) f.writeInt(-1 - k);
    f.seek(104);
    f.writeShort(0x1234);
    f.seek(108);
    f.writeLong(0x0102030405060708n);
    f.writeByte(0xee);
    for (let k = 0; k < 5; k++) expected.writeInt32BE(-1 - k, 100 + 4 * k);
    expected.writeInt16BE(0x1234, 104);
    expected.writeBigInt64BE(0x0102030405060708n, 108);
    expected[116] = 0xee;
    expect(backend.calls.pwrite).toBe(0);
    expect(backend.calls.pread).toBe(0);
    expect(readFileSync(f.path)).toEqual(Buffer.from(data));
    f.seek(100);
    expect(f.readInt()).toBe(-1);
    f.flush();
    expect(backend.calls.pwrite).toBe(1);
    expect(readFileSync(f.path)).toEqual(expected);
    f.flush();
    expect(backend.calls.pwrite).toBe(1);
    // After a flush the window is clean: a new write starts a fresh dirty range, also one pwrite.
    f.seek(110);
    f.writeShort(-2);
    expected.writeInt16BE(-2, 110);
    f.flush();
    expect(backend.calls.pwrite).toBe(2);
    expect(readFileSync(f.path)).toEqual(expected);
    f.close();
  });

  test("writes after reads cost no system call, and the flush writes only the written bytes", () => {
    const pwrites: { position: number; length: number }[] = [];
    // A rule that never fires, to see each pwrite's range.
    const backend = faultBackend(getBackend(kind), [
      {
        call: "pwrite",
        errno: "EIO",
        when: ({ position, length }) => !pwrites.push({ position, length }),
      },
    ]);
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 64, backend });
    const expected = Buffer.from(data);
    f.seek(8);
    expect(f.readInt()).toBe(expected.readInt32BE(8));
    expect(f.readInt()).toBe(expected.readInt32BE(12));
    backend.resetCalls();
    f.writeInt(-7);
    f.writeShort(0x0102);
    expected.writeInt32BE(-7, 16);
    expected.writeInt16BE(0x0102, 20);
    expect(f.getFilePointer()).toBe(22);
    expect(backend.totalCalls()).toBe(0);
    f.seek(16);
    expect(f.readInt()).toBe(-7);
    f.flush();
    expect(pwrites).toEqual([{ position: 16, length: 6 }]);
    expect(readFileSync(f.path)).toEqual(expected);
    f.close();
  });

  test.each(["rws", "rwd"] as const)(
    "%s with a window: every primitive write is one pwrite before it returns",
    (mode) => {
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(file(), mode, { bufferSize: 64, backend });
      backend.resetCalls();
      for (let k = 0; k < 4; k++) {
        f.writeInt(0x11223344 + k);
        expect(backend.calls.pwrite).toBe(k + 1);
        expect(readFileSync(f.path).readInt32BE(4 * k)).toBe(0x11223344 + k);
      }
      f.seek(0);
      expect(f.readInt()).toBe(0x11223344);
      f.close();
    },
  );
});
