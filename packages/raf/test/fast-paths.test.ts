import { readFileSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { type Backend, getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test, vi } from "vitest";
import { EOFError, RandomAccessFile } from "../src/index";
import { BACKENDS, tempDir } from "./support/temp";

// The sync class makes transfers that bypass the window (unbuffered, or at least the buffer size) and
// unbuffered primitive reads straight on the backend; these pin their edge cases to the window's.

const tmp = tempDir();
const data = Uint8Array.from({ length: 1000 }, (_, k) => (k * 7 + 3) % 256);

function file(bytes: Uint8Array = data): string {
  const p = tmp("f.bin");
  writeFileSync(p, bytes);
  return p;
}

/** A third-party backend whose `pread`/`pwrite` answer `-EINTR` (not retried below it) on every other call, `n` times. */
function interrupting(inner: Backend, n: number): Backend & { interrupted: number } {
  let left = n;
  let calls = 0;
  const wrap = { interrupted: 0 } as Backend & { interrupted: number };
  for (const key of ["pread", "pwrite"] as const) {
    wrap[key] = (...args: Parameters<Backend["pread"]>) => {
      if (left > 0 && calls++ % 2 === 0) {
        left--;
        wrap.interrupted++;
        return -constants.errno.EINTR;
      }
      return inner[key](...args);
    };
  }
  return new Proxy(wrap, {
    get(target, key) {
      if (key in target) return target[key as keyof typeof target];
      const v = inner[key as keyof Backend];
      return typeof v === "function" ? v.bind(inner) : v;
    },
  });
}

describe.each(BACKENDS)("fast paths (%s backend)", (kind) => {
  test("unbuffered transfers: one system call each, right bytes, pointer moves only without At", () => {
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 0, backend });
    const buf = new Uint8Array(134);
    const count = (op: () => unknown) => {
      backend.resetCalls();
      op();
      return backend.totalCalls();
    };
    expect(count(() => f.readFullyAt(100, buf))).toBe(1);
    expect(buf).toEqual(data.subarray(100, 234));
    expect(count(() => expect(f.readAt(900, buf)).toBe(100))).toBe(1);
    expect(buf.subarray(0, 100)).toEqual(data.subarray(900));
    expect(count(() => f.writeAt(10, Uint8Array.of(9, 8, 7)))).toBe(1);
    expect(f.getFilePointer()).toBe(0);
    expect(count(() => f.readFully(buf, 0, 20))).toBe(1);
    expect([...buf.subarray(10, 13)]).toEqual([9, 8, 7]);
    expect(count(() => expect(f.read(buf)).toBe(134))).toBe(1);
    expect(count(() => f.write(Uint8Array.of(1, 2)))).toBe(1);
    expect(f.getFilePointer()).toBe(156);
    expect(count(() => expect(f.readInt()).toBe(new DataView(data.buffer).getInt32(156)))).toBe(1);
    expect([...readFileSync(f.path).subarray(154, 156)]).toEqual([1, 2]);
    f.close();
  });

  test("EOF mid-read: readFullyAt throws EOFError and leaves the pointer; readFully consumes what there was", () => {
    const backend = faultBackend(getBackend(kind));
    for (const bufferSize of [0, 16]) {
      const f = new RandomAccessFile(file(), "r", { bufferSize, backend });
      f.seek(5);
      const buf = new Uint8Array(64);
      expect(() => f.readFullyAt(990, buf)).toThrow(EOFError);
      expect(buf.subarray(0, 10)).toEqual(data.subarray(990));
      expect(f.getFilePointer()).toBe(5);
      expect(f.readAt(990, buf)).toBe(10);
      expect(f.readAt(1000, buf)).toBe(-1);
      expect(f.readAt(5000, buf)).toBe(-1);
      f.seek(980);
      expect(() => f.readFully(buf)).toThrow(EOFError);
      expect(f.getFilePointer()).toBe(1000);
      expect(f.read(buf)).toBe(-1);
      // A primitive across the end: its bytes are consumed, then EOFError (as the JDK).
      f.seek(998);
      expect(() => f.readInt()).toThrow(EOFError);
      expect(f.getFilePointer()).toBe(1000);
      f.close();
    }
  });

  test("short transfers: readFully loops, read/readAt return what one call brought, writes complete", () => {
    const backend = faultBackend(getBackend(kind), [
      { call: ["pread", "pwrite"], shortTransfer: 7 },
    ]);
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 0, backend });
    const buf = new Uint8Array(134);
    backend.resetCalls();
    f.readFullyAt(200, buf);
    expect(buf).toEqual(data.subarray(200, 334));
    expect(backend.calls.pread).toBe(Math.ceil(134 / 7));
    expect(f.readAt(200, buf)).toBe(7);
    f.seek(3);
    expect(f.read(buf)).toBe(7);
    expect(f.getFilePointer()).toBe(10);
    f.readFully(buf, 0, 30);
    expect(f.getFilePointer()).toBe(40);
    expect(buf.subarray(0, 30)).toEqual(data.subarray(10, 40));
    const src = Uint8Array.from({ length: 50 }, (_, k) => 255 - k);
    f.writeAt(500, src);
    f.write(src, 10, 20);
    expect(f.getFilePointer()).toBe(60);
    // A primitive whose pread comes up short: the window finishes it with a second call.
    f.seek(600);
    backend.resetCalls();
    backend.inject({ call: "pread", shortTransfer: 3, times: 1 });
    expect(f.readLong()).toBe(new DataView(data.buffer).getBigInt64(600));
    expect(backend.calls.pread).toBe(2);
    f.close();
    const back = readFileSync(f.path);
    expect(back.subarray(500, 550)).toEqual(Buffer.from(src));
    expect(back.subarray(40, 60)).toEqual(Buffer.from(src.subarray(10, 30)));
  });

  test("errors: Node-shaped, pointer after what arrived (readFully) or unchanged (readFullyAt)", () => {
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 0, backend });
    const buf = new Uint8Array(100);
    const eio = expect.objectContaining({ code: "EIO", syscall: "read", path: f.path });
    backend.inject({ call: "pread", shortTransfer: 30, times: 1 });
    backend.inject({ call: "pread", errno: "EIO", after: 1, times: 1 });
    expect(() => f.readFully(buf)).toThrow(eio);
    expect(f.getFilePointer()).toBe(30);
    backend.inject({ call: "pread", errno: "EIO", times: 1 });
    expect(() => f.readFullyAt(0, buf)).toThrow(eio);
    backend.inject({ call: "pread", errno: "EIO", times: 1 });
    expect(() => f.readInt()).toThrow(eio);
    expect(f.getFilePointer()).toBe(30);
    expect(f.readInt()).toBe(new DataView(data.buffer).getInt32(30));
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.writeAt(0, buf)).toThrow(
      expect.objectContaining({ code: "ENOSPC", syscall: "write", path: f.path }),
    );
    f.close();
    expect(() => f.readFullyAt(0, buf)).toThrow(
      expect.objectContaining({ code: "ERR_RAF_CLOSED" }),
    );
    expect(() => f.readInt()).toThrow(expect.objectContaining({ code: "ERR_RAF_CLOSED" }));
    expect(() => f.writeAt(0, buf)).toThrow(expect.objectContaining({ code: "ERR_RAF_CLOSED" }));
  });

  test("mode r: a bypassing write throws EBADF before any system call", () => {
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(file(), "r", { bufferSize: 0, backend });
    backend.resetCalls();
    const ebadf = expect.objectContaining({ code: "EBADF", syscall: "write" });
    expect(() => f.writeAt(0, new Uint8Array(10))).toThrow(ebadf);
    expect(() => f.write(new Uint8Array(10))).toThrow(ebadf);
    expect(backend.totalCalls()).toBe(0);
    f.close();
  });

  test("raw -EINTR from a third-party backend is retried by the fast paths", () => {
    const backend = interrupting(getBackend(kind), 6);
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 0, backend });
    const view = new DataView(data.buffer);
    expect(f.readInt()).toBe(view.getInt32(0));
    const buf = new Uint8Array(50);
    f.readFullyAt(100, buf);
    expect(buf).toEqual(data.subarray(100, 150));
    expect(f.readAt(200, buf)).toBe(50);
    expect(f.read(buf)).toBe(50);
    f.writeAt(300, Uint8Array.of(1, 2, 3));
    f.writeInt(-2);
    expect(backend.interrupted).toBe(6);
    f.close();
    const back = readFileSync(f.path);
    expect([...back.subarray(300, 303)]).toEqual([1, 2, 3]);
    expect(back.readInt32BE(54)).toBe(-2);
  });

  test("unbuffered primitives call below the backend's retry: EINTR and short transfers there are handled", () => {
    // Over one of syscall-state's backends, an unbuffered primitive's one call skips the backend's checks
    // and retry loop (oneShotTransfers): the faults below reach the file itself.
    const interrupted = new Set<number>();
    const once = (position: number) => !interrupted.has(position) && !!interrupted.add(position);
    const backend = faultBackend(getBackend(kind), [
      {
        call: ["pread", "pwrite"],
        errno: "EINTR",
        when: (c) => c.position % 8 === 0 && once(c.position),
      },
      { call: "pread", shortTransfer: 1, when: (c) => c.position === 12, times: 1 },
    ]);
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 0, backend });
    const view = new DataView(data.buffer);
    const checked = vi.spyOn(backend, "pread");
    backend.resetCalls();
    for (let p = 0; p < 16; p += 4) expect(f.readInt()).toBe(view.getInt32(p));
    expect(backend.calls.pread).toBe(4 + 2 + 1);
    // Only the calls the window planned after a one-shot answer fell short went through the backend's own.
    expect(checked).toHaveBeenCalledTimes(2 + 1);
    f.seek(40);
    f.writeInt(-7);
    f.writeLong(1234567890123n);
    expect(f.getFilePointer()).toBe(52);
    expect(backend.calls.pwrite).toBe(2 + 1);
    expect(backend.injected).toBe(2 + 1 + 1);
    f.close();
    const back = readFileSync(f.path);
    expect(back.readInt32BE(40)).toBe(-7);
    expect(back.readBigInt64BE(44)).toBe(1234567890123n);
  });
});

describe.each(BACKENDS)("a large transfer next to a dirty window (%s backend)", (kind) => {
  test("rws: a write that failed to flush is written before the next bypassing write", () => {
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(file(), "rws", { bufferSize: 64, backend });
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.writeInt(-1)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(readFileSync(f.path).readInt32BE(0)).not.toBe(-1);
    f.writeAt(500, new Uint8Array(100).fill(3));
    const back = readFileSync(f.path);
    expect(back.readInt32BE(0)).toBe(-1);
    expect(back.subarray(500, 600)).toEqual(Buffer.alloc(100, 3));
    f.close();
  });

  test("a pwrite that writes nothing is EIO, not an endless loop", () => {
    const inner = getBackend(kind);
    let zero = 2;
    const backend = new Proxy(inner, {
      get(target, key) {
        if (key === "pwrite") {
          return (...args: Parameters<Backend["pwrite"]>) =>
            zero-- > 0 ? 0 : target.pwrite(...args);
        }
        const v = target[key as keyof Backend];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 0, backend });
    const eio = expect.objectContaining({ code: "EIO", syscall: "write", path: f.path });
    expect(() => f.writeAt(0, new Uint8Array(10))).toThrow(eio);
    expect(() => f.write(new Uint8Array(10))).toThrow(eio);
    expect(f.getFilePointer()).toBe(0);
    f.write(new Uint8Array(10));
    expect(f.getFilePointer()).toBe(10);
    f.close();
  });

  test("a positional read overlapping unflushed writes sees them", () => {
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 64, backend: getBackend(kind) });
    f.seek(100);
    f.writeInt(-1); // dirty in the window
    const buf = new Uint8Array(200);
    f.readFullyAt(50, buf);
    const want = Uint8Array.from(data.subarray(50, 250));
    want.fill(0xff, 50, 54);
    expect(buf).toEqual(want);
    expect(f.readAt(90, buf)).toBeGreaterThan(14);
    expect([...buf.subarray(10, 14)]).toEqual([0xff, 0xff, 0xff, 0xff]);
    f.close();
  });

  test("a large read elsewhere flushes pending writes first (as the async class), so it sees unflushed bytes beyond the file's end on disk", () => {
    const backend = faultBackend(getBackend(kind));
    /** A file of 301 bytes, all unflushed: the OS sees an empty one. */
    const fresh = () => {
      const p = tmp("empty.bin");
      writeFileSync(p, new Uint8Array(0));
      const f = new RandomAccessFile(p, "rw", { bufferSize: 64, backend });
      f.writeAt(300, Uint8Array.of(5));
      return f;
    };
    const buf = new Uint8Array(100);
    const zeros = new Uint8Array(100);
    const reads: [string, (f: RandomAccessFile) => void][] = [
      ["readFullyAt", (f) => f.readFullyAt(0, buf)],
      ["readAt", (f) => expect(f.readAt(150, buf)).toBe(100)],
      [
        "readFully",
        (f) => {
          f.seek(200);
          f.readFully(buf);
          expect(f.getFilePointer()).toBe(300);
        },
      ],
      [
        "read",
        (f) => {
          f.seek(10);
          expect(f.read(buf)).toBe(100);
        },
      ],
    ];
    for (const [name, read] of reads) {
      const f = fresh();
      buf.fill(9);
      read(f);
      expect([name, buf]).toEqual([name, zeros]);
      f.close();
      expect(readFileSync(f.path).length).toBe(301);
    }
    const f = fresh();
    expect(() => f.readFullyAt(250, buf)).toThrow(EOFError);
    expect(buf[50]).toBe(5);
    f.close();

    // With the file long enough on disk, a read elsewhere still flushes first: one pwrite, then none.
    const g = new RandomAccessFile(file(), "rw", { bufferSize: 64, backend });
    g.writeAt(900, Uint8Array.of(1));
    backend.resetCalls();
    g.readFullyAt(0, buf);
    expect(buf).toEqual(data.subarray(0, 100));
    expect(backend.calls.pwrite).toBe(1);
    expect(readFileSync(g.path)[900]).toBe(1);
    g.readFullyAt(200, buf);
    expect(backend.calls.pwrite).toBe(1);
    g.close();
  });

  test("a large write over unflushed bytes wins over them; one elsewhere writes them first (program order)", () => {
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 64, backend: getBackend(kind) });
    f.writeAt(120, Uint8Array.of(1, 1, 1, 1)); // dirty
    const big = new Uint8Array(100).fill(7);
    f.writeAt(100, big); // overlaps: the unflushed bytes must not come back later
    f.writeAt(500, big); // elsewhere
    expect(f.readIntAt(120)).toBe(0x07070707);
    f.writeAt(700, Uint8Array.of(2)); // dirty again
    f.writeAt(800, big);
    expect(readFileSync(f.path)[700]).toBe(2);
    f.close();
    const back = readFileSync(f.path);
    expect(back.subarray(100, 200)).toEqual(Buffer.from(big));
    expect(back.subarray(500, 600)).toEqual(Buffer.from(big));
    expect(back.subarray(800, 900)).toEqual(Buffer.from(big));
    expect(back[700]).toBe(2);
  });

  test("positional primitives: unflushed bytes seen, pointer restored even on EOFError", () => {
    const f = new RandomAccessFile(file(), "rw", { bufferSize: 0, backend: getBackend(kind) });
    f.seek(7);
    f.writeIntAt(40, 123456);
    expect(f.readIntAt(40)).toBe(123456);
    expect(() => f.readLongAt(996)).toThrow(EOFError);
    expect(f.getFilePointer()).toBe(7);
    expect(f.readLongAt(992n)).toBe(new DataView(data.buffer).getBigInt64(992));
    f.close();
  });
});
