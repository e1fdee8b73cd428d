import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { Backend } from "../src/backend";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { faultBackend } from "../src/testing/fault-backend";
import { neg, tempDir } from "./helpers";

// Each test here is a divergence the differential test (or its exploration) found between the backends;
// the native backend is the reference, since its answer is the kernel's.
const native = isNativeAvailable();
if (!native)
  console.warn("native backend unavailable: divergence tests compare node with the kernel only");
const dir = tempDir("divergences");
const MAX = Number.MAX_SAFE_INTEGER;
const backends = (): Backend[] => (native ? [nativeBackend(), nodeBackend()] : [nodeBackend()]);

/** A fd that was open a moment ago, as a caller holding a stale one has. Use it before any `await`. */
function closedFd(b: Backend): number {
  const fd = b.open(join(dir, "closed"), "rw");
  expect(b.close(fd)).toBe(0);
  return fd;
}

/**
 * Closed for good: past any fd table. Once a test awaits, anything in this process (vitest, a module
 * load) may be handed a just-closed number again; the kernel answers both alike.
 */
const GONE = 2 ** 31 - 1;

describe("zero-length transfers are system calls on both backends", () => {
  const fifo = join(dir, "fifo");
  const sub = join(dir, "sub");
  const fifos = process.platform === "linux" || process.platform === "darwin";
  if (fifos) execFileSync("mkfifo", [fifo]);
  mkdirSync(sub);
  writeFileSync(join(dir, "closed"), "abc");

  /** Every zero-length transfer, sync and async, on one fd. */
  async function zeroLength(b: Backend, fd: number): Promise<number[]> {
    const buffer = new Uint8Array(8);
    return [
      b.pread(fd, buffer, 3, 0, 0),
      await b.preadAsync(fd, buffer, 3, 0, 0),
      b.preadFully(fd, buffer, 3, 0, 0),
      await b.preadFullyAsync(fd, buffer, 3, 0, 0),
      b.pread(fd, buffer, 8, 0, 2 ** 40),
      b.pwrite(fd, buffer, 3, 0, 0),
      await b.pwriteAsync(fd, buffer, 3, 0, 0),
      b.pwriteFully(fd, buffer, 3, 0, 0),
      await b.pwriteFullyAsync(fd, buffer, 3, 0, 0),
    ];
  }

  test("a closed fd is -EBADF, reading or writing", async () => {
    for (const b of backends()) {
      const fd = closedFd(b);
      const buffer = new Uint8Array(4);
      const sync = [
        b.pread(fd, buffer, 0, 0, 0),
        b.preadFully(fd, buffer, 0, 0, 0),
        b.pwrite(fd, buffer, 0, 0, 0),
        b.pwriteFully(fd, buffer, 0, 0, 0),
      ];
      expect(sync, b.name).toEqual(Array(4).fill(neg("EBADF")));
      expect(await zeroLength(b, GONE), b.name).toEqual(Array(9).fill(neg("EBADF")));
    }
  });

  test("a directory is -EISDIR to read and -EBADF (not open for writing) to write", async () => {
    for (const b of backends()) {
      const fd = b.open(sub, "r");
      const results = await zeroLength(b, fd);
      b.close(fd);
      expect(results, b.name).toEqual([
        ...Array(5).fill(neg("EISDIR")),
        ...Array(4).fill(neg("EBADF")),
      ]);
    }
  });

  test.skipIf(!fifos)("a FIFO has no positions: -ESPIPE", async () => {
    for (const b of backends()) {
      const fd = b.open(fifo, "rw"); // O_RDWR: a FIFO opened for reading only would wait for a writer
      const results = await zeroLength(b, fd);
      b.close(fd);
      expect(results, b.name).toEqual(Array(9).fill(neg("ESPIPE")));
    }
  });

  test("a read-only fd reads 0 bytes and refuses to write 0 bytes (-EBADF)", async () => {
    for (const b of backends()) {
      const fd = b.open(join(dir, "closed"), "r");
      const results = await zeroLength(b, fd);
      b.close(fd);
      expect(results, b.name).toEqual([0, 0, 0, 0, 0, ...Array(4).fill(neg("EBADF"))]);
    }
  });

  test("the zero-length read reaches the kernel once, and leaves the buffer alone", () => {
    const counted = faultBackend(nodeBackend(), []);
    const path = join(dir, "counted");
    writeFileSync(path, "abc");
    const fd = counted.open(path, "rw");
    const buffer = new Uint8Array([1, 2, 3]);
    expect(counted.pread(fd, buffer, 1, 0, 0)).toBe(0);
    expect(counted.preadFully(fd, buffer, 1, 0, 0)).toBe(0);
    expect(counted.pwriteFully(fd, buffer, 1, 0, 0)).toBe(0);
    expect([counted.calls.pread, counted.calls.pwrite]).toEqual([2, 1]);
    expect([...buffer]).toEqual([1, 2, 3]);
    counted.close(fd);
    expect(statSync(path).size).toBe(3);
  });
});

describe("node's stand-ins for calls it lacks still look the fd up first", () => {
  test("fadvise, lock, unlock, lockAsync and allocate on a closed fd are -EBADF", async () => {
    for (const b of backends()) {
      const fd = closedFd(b);
      const request = { shared: true, wait: false, position: 0, length: 0 };
      expect(
        [
          b.fadvise(fd, 0, 0, "sequential"),
          b.lock(fd, request),
          b.unlock(fd, 0, 0),
          b.allocate(fd, 0, 10),
          await b.lockAsync(GONE, request),
        ],
        b.name,
      ).toEqual(Array(5).fill(neg("EBADF")));
    }
  });

  test.skipIf(process.platform !== "linux")(
    "fadvise refuses a FIFO (-ESPIPE); an unknown advice is -EINVAL",
    () => {
      const fifo = join(dir, "fifo2");
      execFileSync("mkfifo", [fifo]);
      for (const b of backends()) {
        const fd = b.open(fifo, "rw");
        expect(b.fadvise(fd, 0, 0, "random"), b.name).toBe(neg("ESPIPE"));
        expect(b.fadvise(fd, 0, 0, "bogus" as never), b.name).toBe(neg("EINVAL"));
        b.close(fd);
      }
    },
  );

  test("on a good fd node still answers as the contract says: 0 for advice, -ENOTSUP for the rest", async () => {
    const b = nodeBackend();
    const fd = b.open(join(dir, "good"), "rw");
    const request = { shared: false, wait: true, position: 0, length: 0 };
    expect([
      b.fadvise(fd, 0, 0, "willneed"),
      b.lock(fd, request),
      await b.lockAsync(fd, request),
      b.unlock(fd, 0, 0),
      b.allocate(fd, 0, 10),
    ]).toEqual([0, neg("ENOTSUP"), neg("ENOTSUP"), neg("ENOTSUP"), neg("ENOTSUP")]);
    b.close(fd);
  });
});

// tmpfs takes files up to 8 EiB: sizes and data past 2**53 - 1, where a number stops being exact.
const shm = "/dev/shm";
const hasTmpfs = process.platform === "linux" && existsSync(shm) && statSync(shm).isDirectory();
describe.skipIf(!hasTmpfs)("past Number.MAX_SAFE_INTEGER (tmpfs)", () => {
  const root = hasTmpfs ? mkdtempSync(join(shm, "rafkit-ss-divergences-")) : "";
  afterAll(() => {
    if (hasTmpfs) rmSync(root, { recursive: true, force: true });
  });
  let n = 0;

  test("a size beyond 2**53 - 1 is -EOVERFLOW, never a rounded number", async () => {
    for (const b of backends()) {
      const fd = b.open(join(root, `size-${n++}`), "rw");
      // Ends at 2**53 + 5: as a double that would read 2**53 + 4.
      expect(b.pwrite(fd, new Uint8Array(10).fill(1), 0, 10, MAX - 4)).toBe(10);
      expect(b.size(fd), b.name).toBe(neg("EOVERFLOW"));
      expect(await b.sizeAsync(fd), b.name).toBe(neg("EOVERFLOW"));
      // Exactly 2**53: koffi returns that as a number, not a bigint; it is still no safe integer.
      expect(b.truncate(fd, 0)).toBe(0);
      expect(b.pwrite(fd, new Uint8Array(2), 0, 2, MAX - 1)).toBe(2);
      expect(b.size(fd), b.name).toBe(neg("EOVERFLOW"));
      expect(await b.sizeAsync(fd), b.name).toBe(neg("EOVERFLOW"));
      expect(b.truncate(fd, MAX)).toBe(0);
      expect(b.size(fd), b.name).toBe(MAX);
      b.close(fd);
    }
  });

  test("a full read or write that would go on past 2**53 - 1 stops with -EOVERFLOW", async () => {
    for (const b of backends()) {
      const fd = b.open(join(root, `fully-${n++}`), "rw");
      expect(b.pwrite(fd, new Uint8Array(10).fill(7), 0, 10, MAX - 4)).toBe(10);
      // One pread brings the 7 bytes up to the end of file; the next one would start at 2**53 + 3.
      const buffer = new Uint8Array(16);
      expect(b.preadFully(fd, buffer, 0, 16, MAX - 1), b.name).toBe(neg("EOVERFLOW"));
      expect([...buffer.subarray(0, 7)]).toEqual(Array(7).fill(7));
      expect(await b.preadFullyAsync(fd, buffer, 0, 16, MAX - 1), b.name).toBe(neg("EOVERFLOW"));
      // Within the exact range the loop is unchanged: the file's end comes back short.
      expect(b.preadFully(fd, buffer, 0, 3, MAX - 5)).toBe(3);
      b.close(fd);
    }
    // A short write (forced: tmpfs writes whole) that would resume past the limit stops the same way.
    const short = faultBackend(nodeBackend(), [{ call: "pwrite", shortTransfer: 2 }]);
    const fd = short.open(join(root, `short-${n++}`), "rw");
    expect(short.pwriteFully(fd, new Uint8Array(8), 0, 8, MAX - 2)).toBe(neg("EOVERFLOW"));
    expect(await short.pwriteFullyAsync(fd, new Uint8Array(8), 0, 8, MAX - 2)).toBe(
      neg("EOVERFLOW"),
    );
    expect(short.pwriteFully(fd, new Uint8Array(8), 0, 8, MAX - 8)).toBe(8);
    short.close(fd);
  });
});
