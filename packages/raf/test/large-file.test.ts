import { closeSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();
const GiB = 2 ** 30;

describe.each(["node", "native"] as const)("files beyond 4 GiB (%s backend, sparse)", (backend) => {
  test.each([0, 8192])(
    "setLength 5 GiB, write near 4.5 GiB and across 4 GiB, read back exactly (bufferSize %i)",
    (bufferSize) => {
      const p = tmp("huge.bin");
      const f = new RandomAccessFile(p, "rw", { backend, bufferSize });
      try {
        f.setLength(5n * BigInt(GiB));
        expect(f.length()).toBe(5 * GiB);
        const at = 4.5 * GiB + 3;
        f.seek(at);
        f.writeLong(0x0102030405060708n);
        f.writeUTF("beyond 4 GiB");
        f.seek(2 ** 32 - 2); // an int straddling the 32-bit boundary
        f.writeInt(-559038737);
        expect(f.getFilePointer()).toBe(2 ** 32 + 2);
        f.seek(5 * GiB - 4);
        f.writeInt(7);
        expect(f.length()).toBe(5 * GiB);
        f.writeByte(1); // grows by one, past 5 GiB
        expect(f.length()).toBe(5 * GiB + 1);
        f.flush();

        f.seek(BigInt(at));
        expect(f.readLong()).toBe(0x0102030405060708n);
        expect(f.readUTF()).toBe("beyond 4 GiB");
        f.seek(2 ** 32 - 2);
        expect(f.readInt()).toBe(-559038737);
        expect(f.readInt()).toBe(0); // a hole
        f.seek(5 * GiB - 4);
        expect(f.readInt()).toBe(7);
        expect(f.read()).toBe(1);
        expect(f.read()).toBe(-1);
        f.seek(at - 1);
        expect(f.skipBytes(2 ** 31 - 1)).toBe(5 * GiB + 1 - (at - 1));
      } finally {
        f.close();
      }
      // Another reader (plain node:fs) sees the same bytes at the same offsets.
      expect(statSync(p).size).toBe(5 * GiB + 1);
      const fd = openSync(p, "r");
      const b = Buffer.alloc(8);
      readSync(fd, b, 0, 8, 4.5 * GiB + 3);
      expect(b.readBigInt64BE(0)).toBe(0x0102030405060708n);
      // The buffered UTF right after it: a 2-byte length, then its bytes.
      const utf = Buffer.alloc(2 + 12);
      readSync(fd, utf, 0, utf.length, 4.5 * GiB + 3 + 8);
      expect(utf.readUInt16BE(0)).toBe(12);
      expect(utf.toString("latin1", 2)).toBe("beyond 4 GiB");
      // The int straddling 2^32: two bytes on each side of the 32-bit boundary.
      const straddle = Buffer.alloc(4);
      readSync(fd, straddle, 0, 4, 2 ** 32 - 2);
      expect(straddle.readInt32BE(0)).toBe(-559038737);
      closeSync(fd);
      rmSync(p);
    },
  );
});

describe.each(["node", "native"] as const)(
  "files beyond 4 GiB, async class and positional I/O (%s backend, sparse)",
  (backend) => {
    test.each([0, 8192])(
      "setLength 5 GiB, write near 4.5 GiB, read back exactly (bufferSize %i)",
      async (bufferSize) => {
        const p = tmp("huge-async.bin");
        const f = await AsyncRandomAccessFile.open(p, "rw", { backend, bufferSize });
        try {
          await f.setLength(5n * BigInt(GiB));
          expect(await f.length()).toBe(5 * GiB);
          const at = 4.5 * GiB + 5;
          await f.seek(at);
          await Promise.all([f.writeLong(-0x0102030405060708n), f.writeUTF("async beyond 4 GiB")]);
          expect(await f.getFilePointer()).toBe(at + 8 + 2 + 18);
          await f.writeIntAt(2 ** 32 - 1, 0x7f00ff01);
          await f.writeDoubleAt(5 * GiB - 8, Math.PI);
          await f.flush();
          expect(await f.readLongAt(BigInt(at))).toBe(-0x0102030405060708n);
          expect(await f.readUTFAt(at + 8)).toBe("async beyond 4 GiB");
          expect(await f.readIntAt(2 ** 32 - 1)).toBe(0x7f00ff01);
          expect(await f.readIntAt(2 ** 32 + 3)).toBe(0);
          expect(await f.readDoubleAt(5 * GiB - 8)).toBe(Math.PI);
          expect(await f.readAt(5 * GiB, new Uint8Array(4))).toBe(-1);
          expect(await f.getFilePointer()).toBe(at + 28);
        } finally {
          await f.close();
        }
        // The sync class reads the same bytes at the same offsets, positionally.
        const s = new RandomAccessFile(p, "r", { backend, bufferSize });
        expect(s.readLongAt(4.5 * GiB + 5)).toBe(-0x0102030405060708n);
        expect(s.readIntAt(2 ** 32 - 1)).toBe(0x7f00ff01);
        expect(s.getFilePointer()).toBe(0);
        s.close();
        // And so does plain node:fs: the UTF after the long, and the int straddling 2^32.
        const fd = openSync(p, "r");
        const utf = Buffer.alloc(2 + 18);
        readSync(fd, utf, 0, utf.length, 4.5 * GiB + 5 + 8);
        expect(utf.readUInt16BE(0)).toBe(18);
        expect(utf.toString("latin1", 2)).toBe("async beyond 4 GiB");
        const straddle = Buffer.alloc(4);
        readSync(fd, straddle, 0, 4, 2 ** 32 - 1);
        expect(straddle.readInt32BE(0)).toBe(0x7f00ff01);
        closeSync(fd);
        rmSync(p);
      },
    );
  },
);
