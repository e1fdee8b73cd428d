import { execFileSync } from "node:child_process";
import {
  existsSync,
  constants as fsConstants,
  openSync as fsOpenSync,
  mkdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import type { Backend } from "../src/backend";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { canEmulate, emulatedBackend } from "./emulated";
import { fdFlags, neg, tempDir } from "./helpers";

const dir = tempDir("contract");
let counter = 0;
const fresh = (name: string): string => join(dir, `${name}-${counter++}`);

const backends: [string, () => Backend][] = [
  ["native", nativeBackend],
  ["node", nodeBackend],
];
// Other platforms' native code paths, against this kernel (see emulated.ts).
if (canEmulate && isNativeAvailable()) {
  backends.push(["native(bsd-like)", () => (bsdLike ??= emulatedBackend("bsd-like"))]);
  backends.push(["native(old-kernel)", () => (oldKernel ??= emulatedBackend("old-kernel"))]);
}
let bsdLike: Backend | undefined;
let oldKernel: Backend | undefined;

// One suite, both backends: the same calls must give the same results on real files.
describe.each(backends)("contract: %s backend", (name, make) => {
  const native = name.startsWith("native");
  const skip = native && !isNativeAvailable();
  if (skip) console.warn("native backend unavailable here: its contract run is skipped");
  const b = (): Backend => make();

  test.skipIf(skip)(
    "open: r on a missing file is -ENOENT; rw creates it with 0666 & ~umask",
    () => {
      const path = fresh("create");
      expect(b().open(path, "r")).toBe(neg("ENOENT"));
      const fd = b().open(path, "rw");
      expect(fd).toBeGreaterThanOrEqual(0);
      const umask = process.umask();
      expect(statSync(path).mode & 0o777).toBe(0o666 & ~umask);
      expect(b().close(fd)).toBe(0);
      expect(b().close(fd)).toBe(neg("EBADF"));
    },
  );

  test.skipIf(skip || process.platform !== "linux")(
    "open: close-on-exec always, O_SYNC for rws, O_DSYNC for rwd (Linux fdinfo)",
    () => {
      const path = fresh("flags");
      const O_CLOEXEC = 0o2000000;
      const expectations = [
        ["r", 0],
        ["rw", fsConstants.O_RDWR],
        ["rws", fsConstants.O_RDWR | fsConstants.O_SYNC],
        ["rwd", fsConstants.O_RDWR | fsConstants.O_DSYNC],
      ] as const;
      writeFileSync(path, "x");
      for (const [mode, bits] of expectations) {
        const fd = b().open(path, mode);
        const flags = fdFlags(fd)!;
        expect(flags & O_CLOEXEC).toBe(O_CLOEXEC);
        expect(flags & (fsConstants.O_RDWR | fsConstants.O_SYNC | fsConstants.O_DSYNC)).toBe(bits);
        b().close(fd);
      }
    },
  );

  test.skipIf(skip)(
    "open: a path with a NUL byte throws node:fs's TypeError before any system call",
    async () => {
      const real = fresh("victim");
      const evil = `${real}\u0000.ext`;
      const shape = { name: "TypeError", code: "ERR_INVALID_ARG_VALUE" };
      // node:fs itself, for reference: both backends must answer the same.
      let nodeError: unknown;
      try {
        fsOpenSync(evil, "w");
      } catch (error) {
        nodeError = error;
      }
      expect(nodeError).toMatchObject(shape);
      for (const mode of ["r", "rw"] as const) {
        expect(() => b().open(evil, mode)).toThrow(TypeError);
        expect(() => b().open(evil, mode)).toThrow(expect.objectContaining(shape));
        await expect(b().openAsync(evil, mode)).rejects.toMatchObject(shape);
      }
      // C would have stopped at the NUL and created the file before it.
      expect(existsSync(real)).toBe(false);
    },
  );

  test.skipIf(skip)(
    "open: a directory for rw is -EISDIR; reading a directory fd is -EISDIR",
    async () => {
      const sub = fresh("dir");
      mkdirSync(sub);
      // node:fs on Windows opens a directory for writing (libuv asks with backup semantics): refused after it.
      for (const mode of ["rw", "rws", "rwd"] as const) {
        expect(b().open(sub, mode)).toBe(neg("EISDIR"));
        await expect(b().openAsync(sub, mode)).resolves.toBe(neg("EISDIR"));
      }
      const fd = b().open(sub, "r");
      expect(fd).toBeGreaterThanOrEqual(0);
      expect(b().pread(fd, new Uint8Array(4), 0, 4, 0)).toBe(neg("EISDIR"));
      b().close(fd);
    },
  );

  test.skipIf(skip)(
    "size: a directory is -EISDIR, never a bigint (ext4 answers lseek with LLONG_MAX, tmpfs with EINVAL)",
    async () => {
      const dirs = [fresh("sized-dir"), "/dev/shm", "/proc"];
      mkdirSync(dirs[0]!);
      for (const dir of dirs) {
        if (!existsSync(dir)) continue;
        const fd = b().open(dir, "r");
        expect(fd).toBeGreaterThanOrEqual(0);
        const sync = b().size(fd);
        const async = await b().sizeAsync(fd);
        b().close(fd);
        expect(typeof sync, dir).toBe("number");
        expect(typeof async, dir).toBe("number");
        // procfs reports 0 for its directories through both lseek and fstat; every other answer is EISDIR.
        if (dir !== "/proc") {
          expect(sync, dir).toBe(neg("EISDIR"));
          expect(async, dir).toBe(neg("EISDIR"));
        }
      }
    },
  );

  test.skipIf(skip)("pread/pwrite: positional, partial at EOF, 0 past EOF, honour offset", () => {
    const fd = b().open(fresh("rw"), "rw");
    const data = new TextEncoder().encode("0123456789");
    expect(b().pwrite(fd, data, 2, 5, 100)).toBe(5);
    expect(b().size(fd)).toBe(105);
    const out = new Uint8Array(8).fill(0xee);
    expect(b().pread(fd, out, 3, 5, 100)).toBe(5);
    expect([...out]).toEqual([0xee, 0xee, 0xee, ...data.subarray(2, 7), 0xee].slice(0, 8));
    expect(b().preadFully(fd, out, 0, 8, 101)).toBe(4);
    expect(b().pread(fd, out, 0, 8, 500)).toBe(0);
    // The hole before position 100 reads as zeros.
    expect(b().preadFully(fd, out, 0, 8, 0)).toBe(8);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(b().pwriteFully(fd, data, 0, 10, 0)).toBe(10);
    expect(b().preadFully(fd, out, 0, 8, 1)).toBe(8);
    expect(new TextDecoder().decode(out)).toBe("12345678");
    b().close(fd);
  });

  test.skipIf(skip)("a read-only fd refuses writes with -EBADF", () => {
    const path = fresh("ro");
    writeFileSync(path, "abc");
    const fd = b().open(path, "r");
    expect(b().pwrite(fd, new Uint8Array(1), 0, 1, 0)).toBe(neg("EBADF"));
    expect(b().truncate(fd, 0)).toBe(neg("EINVAL"));
    b().close(fd);
  });

  test.skipIf(skip)("offsets beyond 4 GiB are exact (sparse 5 GiB file)", async () => {
    const fd = b().open(fresh("big"), "rw");
    const at = 5 * 1024 ** 3 + 7;
    const bytes = new Uint8Array([1, 2, 3, 4]);
    expect(b().pwriteFully(fd, bytes, 0, 4, at)).toBe(4);
    expect(b().size(fd)).toBe(at + 4);
    expect(await b().sizeAsync(fd)).toBe(at + 4);
    const back = new Uint8Array(6);
    expect(b().preadFully(fd, back, 0, 6, at - 1)).toBe(5);
    expect([...back]).toEqual([0, 1, 2, 3, 4, 0]);
    expect(await b().preadAsync(fd, back, 0, 2, at + 2)).toBe(2);
    expect([...back.subarray(0, 2)]).toEqual([3, 4]);
    // 2^32 + 1: a 32-bit truncation would land at 1.
    expect(b().truncate(fd, 2 ** 32 + 1)).toBe(0);
    expect(b().size(fd)).toBe(2 ** 32 + 1);
    b().close(fd);
  });

  test.skipIf(skip)(
    "truncate, sync, datasync, fadvise on a real file; all -EBADF on a bad fd",
    () => {
      const fd = b().open(fresh("misc"), "rw");
      b().pwriteFully(fd, new Uint8Array(100), 0, 100, 0);
      expect(b().truncate(fd, 10)).toBe(0);
      expect(b().size(fd)).toBe(10);
      expect(b().sync(fd)).toBe(0);
      expect(b().datasync(fd)).toBe(0);
      expect(b().fadvise(fd, 0, 0, "sequential")).toBe(0);
      // Only its own names: Object.prototype's are unknown advice, as any other.
      for (const advice of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
        expect(b().fadvise(fd, 0, 0, advice as never)).toBe(neg("EINVAL"));
      }
      b().close(fd);
      const bad = 987_654;
      for (const r of [
        b().size(bad),
        b().truncate(bad, 0),
        b().sync(bad),
        b().datasync(bad),
        b().pread(bad, new Uint8Array(1), 0, 1, 0),
        b().pwrite(bad, new Uint8Array(1), 0, 1, 0),
        b().close(-1),
      ]) {
        expect(r).toBe(neg("EBADF"));
      }
    },
  );

  test.skipIf(skip)(
    "sync and datasync of a file opened r: 0, as the JDK answers (Windows refuses to flush the handle)",
    async () => {
      const path = fresh("read-only-sync");
      writeFileSync(path, "x");
      const fd = b().open(path, "r");
      expect([b().sync(fd), b().datasync(fd)]).toEqual([0, 0]);
      expect([await b().syncAsync(fd), await b().datasyncAsync(fd)]).toEqual([0, 0]);
      b().close(fd);
    },
  );

  test.skipIf(skip)("allocate reserves where supported, else -ENOTSUP", () => {
    const fd = b().open(fresh("alloc"), "rw");
    const r = b().allocate(fd, 0, 65536);
    if (b().features?.allocate) {
      // Some file systems (tmpfs before 3.5, ...) lack fallocate: then the kernel says so.
      expect([0, neg("ENOTSUP")]).toContain(r);
      if (r === 0) expect(b().size(fd)).toBe(65536);
    } else {
      expect(r).toBe(neg("ENOTSUP"));
    }
    b().close(fd);
  });

  test.skipIf(skip)("async twins resolve to the same results as the sync calls", async () => {
    const path = fresh("async");
    expect(await b().openAsync(path, "r")).toBe(neg("ENOENT"));
    const fd = await b().openAsync(path, "rw");
    expect(fd).toBeGreaterThanOrEqual(0);
    const data = new Uint8Array([9, 8, 7, 6, 5]);
    expect(await b().pwriteAsync(fd, data, 1, 3, 10)).toBe(3);
    expect(await b().pwriteFullyAsync(fd, data, 0, 5, 0)).toBe(5);
    expect(await b().sizeAsync(fd)).toBe(13);
    const out = new Uint8Array(5);
    expect(await b().preadFullyAsync(fd, out, 0, 5, 0)).toBe(5);
    expect([...out]).toEqual([9, 8, 7, 6, 5]);
    expect(await b().preadFullyAsync(fd, out, 0, 5, 10)).toBe(3);
    expect(await b().truncateAsync(fd, 2)).toBe(0);
    expect(await b().syncAsync(fd)).toBe(0);
    expect(await b().datasyncAsync(fd)).toBe(0);
    expect(await b().sizeAsync(fd)).toBe(2);
    expect(await b().closeAsync(fd)).toBe(0);
    expect(await b().closeAsync(fd)).toBe(neg("EBADF"));
    expect(await b().preadAsync(fd, out, 0, 1, 0)).toBe(neg("EBADF"));
    expect(await b().sizeAsync(-5)).toBe(neg("EBADF"));
  });

  test.skipIf(skip)("locks: native takes them, node says -ENOTSUP", async () => {
    const fd = b().open(fresh("lock"), "rw");
    const whole = { shared: false, wait: false, position: 0, length: 0 };
    const expected = b().features?.locks ? 0 : neg("ENOTSUP");
    expect(b().lock(fd, whole)).toBe(expected);
    expect(b().unlock(fd, 0, 0)).toBe(expected);
    expect(await b().lockAsync(fd, { ...whole, shared: true, wait: true })).toBe(expected);
    expect(b().unlock(fd, 0, 0)).toBe(expected);
    b().close(fd);
  });

  test.skipIf(skip)("bad arguments throw before any system call", async () => {
    const fd = b().open(fresh("args"), "rw");
    const buf = new Uint8Array(4);
    expect(() => b().pread(fd, buf, 2, 3, 0)).toThrow(
      expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }),
    );
    expect(() => b().pwrite(fd, buf, 0, 1, -1)).toThrow(RangeError);
    expect(() => b().pread(fd, "x" as never, 0, 1, 0)).toThrow(TypeError);
    // A value that is no number is a TypeError, as node:fs answers; only a number out of range is a RangeError.
    const notANumber = expect.objectContaining({ name: "TypeError", code: "ERR_INVALID_ARG_TYPE" });
    expect(() => b().pread(fd, buf, 0, 4, "0" as never)).toThrow(notANumber);
    expect(() => b().pwrite(fd, buf, "0" as never, 1, 0)).toThrow(notANumber);
    expect(() => b().pread(fd, buf, 0, null as never, 0)).toThrow(notANumber);
    expect(() => b().truncate(fd, 1n as never)).toThrow(notANumber);
    expect(() => b().unlock(fd, "0" as never, 0)).toThrow(notANumber);
    expect(() => b().truncate(fd, -1)).toThrow(RangeError);
    expect(() => b().lock(fd, { shared: true, wait: false, position: -1, length: 0 })).toThrow(
      RangeError,
    );
    expect(() => b().open(join(dir, "m"), "x" as never)).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARG_VALUE" }),
    );
    await expect(b().preadAsync(fd, buf, 0, 5, 0)).rejects.toThrow(RangeError);
    expect(b().size(fd)).toBe(0);
    b().close(fd);
  });
});

// Arguments JavaScript can pass whatever the types say: both backends must refuse them the same way, and
// the native one must never hand the kernel another file's descriptor or memory it does not own.
describe.each(backends)("contract, hostile arguments: %s backend", (name, make) => {
  const skip = name.startsWith("native") && !isNativeAvailable();
  const b = (): Backend => make();

  test.skipIf(skip)(
    "a Uint8Array of another realm (a vm context) is read into and written from, as node:fs takes it",
    async () => {
      const foreign = runInNewContext("new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])") as Uint8Array;
      expect(foreign instanceof Uint8Array).toBe(false);
      const fd = b().open(fresh("realm"), "rw");
      expect(b().pwrite(fd, foreign, 0, 8, 0)).toBe(8);
      expect(await b().pwriteAsync(fd, foreign, 2, 4, 8)).toBe(4);
      const back = runInNewContext("new Uint8Array(12)") as Uint8Array;
      expect(b().pread(fd, back, 0, 12, 0)).toBe(12);
      expect([...back]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 3, 4, 5, 6]);
      const part = runInNewContext("new Uint8Array(4)") as Uint8Array;
      expect(await b().preadAsync(fd, part, 1, 2, 1)).toBe(2);
      expect([...part]).toEqual([0, 2, 3, 0]);
      // Still not anything else.
      expect(() => b().pread(fd, runInNewContext("new Int8Array(4)") as never, 0, 4, 0)).toThrow(
        expect.objectContaining({ code: "ERR_INVALID_ARG_TYPE" }),
      );
      b().close(fd);
    },
  );

  test.skipIf(skip)("a buffer is checked by its real size, whatever its length says", async () => {
    const fd = b().open(fresh("lying"), "rw");
    expect(b().pwrite(fd, new Uint8Array(64).fill(7), 0, 64, 0)).toBe(64);
    const lying = new Uint8Array(64);
    Object.defineProperty(lying, "length", { value: 1 << 20 });
    const tooFar = expect.objectContaining({ code: "ERR_OUT_OF_RANGE" });
    expect(() => b().pread(fd, lying, 0, 1 << 20, 0)).toThrow(tooFar);
    expect(() => b().pwrite(fd, lying, 0, 1 << 20, 0)).toThrow(tooFar);
    await expect(b().preadAsync(fd, lying, 0, 1 << 20, 0)).rejects.toThrow(tooFar);
    // A subclass whose subarray lies gets the bytes it asked for, where it asked.
    class Liar extends Uint8Array {
      override subarray(): Uint8Array<ArrayBuffer> {
        return new Uint8Array(1);
      }
    }
    const liar = new Liar(16);
    expect(b().pread(fd, liar, 4, 8, 0)).toBe(8);
    expect([...liar]).toEqual([0, 0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0]);
    b().close(fd);
  });

  test.skipIf(skip)(
    "a descriptor the kernel would not take is -EBADF, never another file",
    async () => {
      const path = fresh("bad-fd");
      writeFileSync(path, "ABCDEFGHIJ");
      const fd = b().open(path, "rw");
      const buf = new Uint8Array(4);
      for (const bad of [fd + 2 ** 32, fd + 0.5, Number.NaN, BigInt(fd), String(fd), -1]) {
        const f = bad as number;
        expect(b().pread(f, buf, 0, 4, 0)).toBe(neg("EBADF"));
        expect(b().pwrite(f, buf, 0, 4, 0)).toBe(neg("EBADF"));
        expect(b().truncate(f, 1)).toBe(neg("EBADF"));
        expect(b().size(f)).toBe(neg("EBADF"));
        expect(b().sync(f)).toBe(neg("EBADF"));
        expect(await b().preadAsync(f, buf, 0, 4, 0)).toBe(neg("EBADF"));
        expect(await b().closeAsync(f)).toBe(neg("EBADF"));
        expect(b().close(f)).toBe(neg("EBADF"));
      }
      expect(b().size(fd)).toBe(10);
      expect(b().close(fd)).toBe(0);
      expect(statSync(path).size).toBe(10);
    },
  );

  test.skipIf(skip)("a path that is not a string is a TypeError, as node:fs's", async () => {
    const path = fresh("path");
    writeFileSync(path, "x");
    const notString = expect.objectContaining({ code: "ERR_INVALID_ARG_TYPE" });
    expect(() => b().open(Buffer.from(path) as never, "r")).toThrow(notString);
    expect(() => b().open(42 as never, "r")).toThrow(notString);
    await expect(b().openAsync(Buffer.from(path) as never, "r")).rejects.toThrow(notString);
  });

  test.skipIf(skip)("a transfer of 2 GiB or more comes back with what there is", async () => {
    const fd = b().open(fresh("huge"), "rw");
    expect(b().pwrite(fd, new Uint8Array(10).fill(1), 0, 10, 0)).toBe(10);
    const big = new Uint8Array(2 ** 32); // untouched pages: no memory until written
    expect(b().pread(fd, big, 0, 2 ** 31, 0)).toBe(10);
    expect(b().pread(fd, big, 0, 2 ** 32, 0)).toBe(10);
    expect(b().preadFully(fd, big, 0, 2 ** 32, 0)).toBe(10);
    expect(await b().preadAsync(fd, big, 0, 2 ** 32, 0)).toBe(10);
    b().close(fd);
  });

  test.skipIf(skip || process.platform !== "linux")(
    "the size of a FIFO or a /proc file is what fstat says (0), as the JDK's length()",
    async () => {
      const fifo = fresh("fifo");
      execFileSync("mkfifo", [fifo]);
      for (const [path, mode] of [
        [fifo, "rw"],
        ["/proc/self/status", "r"],
      ] as const) {
        const fd = b().open(path, mode);
        expect(fd).toBeGreaterThanOrEqual(0);
        expect(b().size(fd)).toBe(0);
        expect(await b().sizeAsync(fd)).toBe(0);
        b().close(fd);
      }
    },
  );
});
