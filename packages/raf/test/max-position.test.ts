import { closeSync, existsSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "../src/index";
import { BACKENDS } from "./support/temp";

// Positions past Number.MAX_SAFE_INTEGER are not exact numbers, so a file ends there for rafkit: reads stop
// as at end of file, and a write that would pass it fails with EFBIG and writes nothing. On tmpfs, files
// reach 8 EiB, so the edge is a real file's (sparse: nothing is allocated but the bytes written).

type AnyFile = RandomAccessFile | AsyncRandomAccessFile;
const MAX = Number.MAX_SAFE_INTEGER;
const tmpfs = existsSync("/dev/shm") ? "/dev/shm" : undefined;
let n = 0;

const open = (kind: "sync" | "async", p: string, bufferSize: number, backend: string) =>
  kind === "sync"
    ? new RandomAccessFile(p, "rw", { bufferSize, backend: backend as "node" })
    : AsyncRandomAccessFile.open(p, "rw", { bufferSize, backend: backend as "node" });

/** The file's bytes at `[position, position + length)`, read with node:fs (past its end: zeros). */
function bytesAt(p: string, position: number, length: number): number[] {
  const out = Buffer.alloc(length);
  const fd = openSync(p, "r");
  try {
    readSync(fd, out, 0, length, position);
  } finally {
    closeSync(fd);
  }
  return [...out];
}

const efbig = expect.objectContaining({ code: "EFBIG", syscall: "write" });

if (!tmpfs) console.warn("no /dev/shm (tmpfs) here: the MAX_SAFE_INTEGER edge is not tested");

describe
  .skipIf(!tmpfs)
  .each(
    BACKENDS.flatMap((backend) =>
      (["sync", "async"] as const).flatMap((kind) =>
        [0, 16, 8192].map((bufferSize) => ({ backend, kind, bufferSize })),
      ),
    ),
  )(
  "the file ends at MAX_SAFE_INTEGER ($kind, $backend backend, bufferSize $bufferSize)",
  ({ backend, kind, bufferSize }) => {
    const withFile = async (body: (f: AnyFile, p: string) => Promise<void>) => {
      const p = join(tmpfs!, `rafkit-max-position-${process.pid}-${n++}.bin`);
      writeFileSync(p, "HEAD");
      const f = await open(kind, p, bufferSize, backend);
      try {
        await body(f, p);
      } finally {
        await f.close();
        rmSync(p, { force: true });
      }
    };

    test("primitives up to the last byte work; one more is EFBIG with nothing written, and reads there end", () =>
      withFile(async (f, p) => {
        await f.seek(MAX - 6);
        await f.writeShort(0x0102);
        await f.writeInt(0x03040506); // ends exactly at MAX
        expect(await f.getFilePointer()).toBe(MAX);
        await expect((async () => f.writeByte(7))()).rejects.toEqual(efbig);
        await f.seek(MAX - 2);
        await expect((async () => f.writeInt(8))()).rejects.toEqual(efbig);
        expect(await f.getFilePointer()).toBe(MAX - 2);
        await f.flush();
        expect(await f.length()).toBe(MAX);
        expect(bytesAt(p, MAX - 6, 7)).toEqual([1, 2, 3, 4, 5, 6, 0]);

        await f.seek(MAX - 4);
        expect(await f.readInt()).toBe(0x03040506);
        expect(await f.read()).toBe(-1);
        await f.seek(MAX - 2);
        await expect((async () => f.readInt())()).rejects.toBeInstanceOf(EOFError);
        // As at any end of file, what there was is consumed: the pointer is at the end, still exact.
        expect(await f.getFilePointer()).toBe(MAX);
      }));

    test("byte and bulk transfers that would pass it: writes refused whole, reads short", () =>
      withFile(async (f, p) => {
        const big = new Uint8Array(20_000).fill(0x5a); // at least every buffer size: the bypassing path too
        for (const size of [8, big.length]) {
          await f.seek(MAX - 4);
          await expect((async () => f.write(big.subarray(0, size)))()).rejects.toEqual(efbig);
          expect(await f.getFilePointer()).toBe(MAX - 4);
          await expect((async () => f.writeAt(MAX - 4, big.subarray(0, size)))()).rejects.toEqual(
            efbig,
          );
        }
        await expect((async () => f.writeInts(Int32Array.of(1, 2)))()).rejects.toEqual(efbig);
        await expect((async () => f.writeUTF("abcd"))()).rejects.toEqual(efbig);
        await expect((async () => f.writeIntAt(MAX - 2, 1))()).rejects.toEqual(efbig);
        await f.flush();
        expect(await f.length()).toBe(4); // nothing reached the file
        expect(bytesAt(p, 0, 4)).toEqual([...Buffer.from("HEAD")]);

        await f.writeAt(MAX - 4, Uint8Array.of(9, 8, 7, 6));
        for (const size of [8, big.length]) {
          const into = new Uint8Array(size);
          await f.seek(MAX - 4);
          expect(await f.read(into)).toBe(4);
          expect([...into.subarray(0, 4)]).toEqual([9, 8, 7, 6]);
          expect(await f.getFilePointer()).toBe(MAX);
          expect(await f.read(into)).toBe(-1);
          expect(await f.readAt(MAX - 2, into)).toBe(2);
          await expect((async () => f.readFullyAt(MAX - 2, into))()).rejects.toBeInstanceOf(
            EOFError,
          );
        }
        await f.seek(MAX - 4);
        await expect((async () => f.readInts(new Int32Array(2)))()).rejects.toBeInstanceOf(
          EOFError,
        );
        expect(await f.getFilePointer()).toBe(MAX);
      }));
  },
);
