import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, ClosedError, EOFError, RandomAccessFile } from "../src/index";
import {
  giveBuffer,
  MAX_POOLED_BYTES,
  pooledByteCount,
  takeBuffer,
} from "../src/window/buffer-pool";
import { Window } from "../src/window/window";
import { BACKENDS, tempDir } from "./support/temp";

// A closed file's window memory goes to the next window opened: no allocation, zeroing or collection
// per open. These pin that the memory comes back zeroed, that nothing reaches it through the closed
// file, and that a file opened after it sees only its own bytes.

const tmp = tempDir();
const DEFAULT_WINDOW = 8192 + 8;

const window = (capacity: number) =>
  new Window(-1, "x", capacity, { readOnly: false, writeThrough: false });

describe("buffer pool", () => {
  test("a buffer given back is the next one taken of its size, zeroed; another size gets a new one", () => {
    const b = takeBuffer(1000);
    new Uint8Array(b).fill(7);
    giveBuffer(b);
    expect(takeBuffer(1001)).not.toBe(b);
    const again = takeBuffer(1000);
    expect(again).toBe(b);
    expect(new Uint8Array(again).every((x) => x === 0)).toBe(true);
  });

  test(`keeps at most ${MAX_POOLED_BYTES} bytes, and drops a detached buffer`, () => {
    for (let i = 0; i < 2 * (MAX_POOLED_BYTES / 4096); i++) giveBuffer(new ArrayBuffer(4096));
    expect(pooledByteCount()).toBeLessThanOrEqual(MAX_POOLED_BYTES);
    expect(pooledByteCount()).toBeGreaterThan(MAX_POOLED_BYTES - 4096);
    while (pooledByteCount() > 0) takeBuffer(4096);
    const detached = new ArrayBuffer(64);
    structuredClone(detached, { transfer: [detached] });
    giveBuffer(detached);
    expect(pooledByteCount()).toBe(0);
  });
});

describe("Window, release", () => {
  test("a released window's memory is the next window's, zeroed; the released one shows a stand-in", () => {
    const a = window(256);
    a.buf.fill(9);
    const memory = a.view.buffer;
    a.markClosed();
    a.release();
    expect(a.buf.buffer).not.toBe(memory);
    expect(a.view.buffer).not.toBe(memory);
    expect(a.request.buffer.buffer).not.toBe(memory);
    a.release(); // twice: nothing more is given
    const b = window(256);
    expect(b.view.buffer).toBe(memory);
    expect(b.buf.every((x) => x === 0)).toBe(true);
    expect(window(256).view.buffer).not.toBe(memory);
  });

  test("an open window, or an unbuffered one, gives nothing back", () => {
    const open = window(128);
    const before = pooledByteCount();
    open.release();
    expect(pooledByteCount()).toBe(before);
    const unbuffered = window(0);
    unbuffered.markClosed();
    unbuffered.release();
    expect(pooledByteCount()).toBe(before);
    expect(unbuffered.exactViews?.[4]?.buffer).toBe(unbuffered.buf.buffer);
  });
});

describe.each(BACKENDS)("window memory across files (%s backend)", (backend) => {
  test("close gives the window's memory back and the next open takes it; the new file sees only its own bytes", () => {
    const a = tmp("a.bin");
    const b = tmp("b.bin");
    writeFileSync(b, "");
    const fa = new RandomAccessFile(a, "rw", { backend });
    for (let i = 0; i < 1000; i++) fa.writeInt(0x5a5a5a5a);
    const before = pooledByteCount();
    fa.close();
    expect(pooledByteCount()).toBe(before + DEFAULT_WINDOW);
    const fb = new RandomAccessFile(b, "rw", { backend });
    expect(pooledByteCount()).toBe(before);
    try {
      expect(fb.length()).toBe(0);
      expect(() => fb.readInt()).toThrow(EOFError);
      fb.writeShort(0x1234);
      fb.seek(0);
      expect(fb.readShort()).toBe(0x1234);
      expect(() => fb.readByte()).toThrow(EOFError);
      // The closed file reaches nothing: its calls throw, and neither file changes.
      expect(() => fa.writeInt(1)).toThrow(ClosedError);
      expect(() => fa.readInt()).toThrow(ClosedError);
      expect(() => fa.readIntAt(0)).toThrow(ClosedError);
      fb.seek(0);
      expect(fb.readShort()).toBe(0x1234);
    } finally {
      fb.close();
    }
    expect([...readFileSync(b)]).toEqual([0x12, 0x34]);
    const onDisk = readFileSync(a);
    expect(onDisk.length).toBe(4000);
    expect(onDisk.every((x) => x === 0x5a)).toBe(true);
  });

  test("an async close gives the memory back only after the operations queued before it", async () => {
    const a = tmp("async.bin");
    writeFileSync(a, Buffer.alloc(64, 0x11));
    const f = await AsyncRandomAccessFile.open(a, "rw", { backend });
    // A file opened meanwhile gets memory of its own.
    const other = new RandomAccessFile(tmp("other.bin"), "rw", { backend });
    const before = pooledByteCount();
    const read = f.readInt(); // queued before the close: it still reads the file's own bytes
    const write = f.writeLong(0x2222222222222222n);
    const closing = f.close();
    other.writeInt(7);
    expect(pooledByteCount()).toBe(before);
    expect(await read).toBe(0x11111111);
    await write;
    await closing;
    expect(pooledByteCount()).toBe(before + DEFAULT_WINDOW);
    other.seek(0);
    expect(other.readInt()).toBe(7);
    other.close();
    expect(pooledByteCount()).toBe(before + 2 * DEFAULT_WINDOW);
    await expect(f.readInt()).rejects.toThrow(ClosedError);
    const bytes = readFileSync(a);
    expect([...bytes.subarray(0, 12)]).toEqual([
      0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
    ]);
  });
});

describe.each(BACKENDS)(
  "window memory and user code inside an operation (%s backend)",
  (backend) => {
    test("a subclass's species and subarray run no user code inside a write: nothing can close the file under it", () => {
      const a = tmp("nested-a.bin");
      const fa = new RandomAccessFile(a, "rw", { backend });
      let ran = 0;
      class Source extends Uint8Array {
        static get [Symbol.species]() {
          ran++;
          fa.close();
          return Uint8Array;
        }
        override subarray(begin?: number, end?: number): Uint8Array<ArrayBuffer> {
          ran++;
          fa.close();
          return super.subarray(begin, end);
        }
      }
      fa.write(new Source(8).fill(0xaa), 0, 4);
      expect([ran, fa.closed]).toEqual([0, false]);
      fa.close();
      expect([...readFileSync(a)]).toEqual([0xaa, 0xaa, 0xaa, 0xaa]);
    });

    test("bytes read from the window reach a subclass's array without its own set being handed the window's memory", () => {
      const p = tmp("kept.bin");
      writeFileSync(p, Buffer.from([1, 2, 3, 4, 5, 6]));
      const f = new RandomAccessFile(p, "r", { backend });
      let handed: Uint8Array | undefined;
      class Destination extends Uint8Array {
        override set(array: ArrayLike<number>, offset?: number): void {
          handed = array as Uint8Array;
          super.set(array, offset);
        }
      }
      const dst = new Destination(4);
      f.readFully(dst);
      expect([...dst]).toEqual([1, 2, 3, 4]);
      expect(f.read(dst, 0, 4)).toBe(2);
      expect([...dst]).toEqual([5, 6, 3, 4]);
      f.close();
      expect(handed).toBeUndefined();
    });

    test("async: a subclass's species and subarray run no user code inside a write", async () => {
      const a = tmp("nested-async.bin");
      const f = await AsyncRandomAccessFile.open(a, "rw", { backend });
      let ran = 0;
      class Source extends Uint8Array {
        static get [Symbol.species]() {
          ran++;
          void f.close();
          return Uint8Array;
        }
        override subarray(begin?: number, end?: number): Uint8Array<ArrayBuffer> {
          ran++;
          void f.close();
          return super.subarray(begin, end);
        }
      }
      await f.write(new Source(8).fill(0xaa), 0, 4);
      expect([ran, f.closed]).toEqual([0, false]);
      await f.close();
      expect([...readFileSync(a)]).toEqual([0xaa, 0xaa, 0xaa, 0xaa]);
    });
  },
);
