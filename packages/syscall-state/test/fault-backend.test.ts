import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Backend } from "../src/backend";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { faultBackend } from "../src/testing";
import { neg, tempDir } from "./helpers";

const dir = tempDir("fault");
let counter = 0;

function withFile(inner: Backend, content: Uint8Array): { fd: number; path: string } {
  const path = join(dir, `f${counter++}`);
  const fd = inner.open(path, "rw");
  inner.pwriteFully(fd, content, 0, content.length, 0);
  return { fd, path };
}

/** A plain object with a backend's methods and none of its hidden primitives. */
function bareOf(inner: Backend): Backend {
  const methods = [
    "open",
    "close",
    "pread",
    "pwrite",
    "size",
    "truncate",
    "sync",
    "datasync",
  ] as const;
  return {
    name: "bare",
    ...Object.fromEntries(
      methods.map((m) => [m, (inner[m] as (...a: unknown[]) => number).bind(inner)]),
    ),
  } as unknown as Backend;
}

const inners: [string, () => Backend][] = [["node", nodeBackend]];
if (isNativeAvailable()) inners.push(["native", nativeBackend]);

describe.each(inners)("faultBackend over %s", (_name, make) => {
  const data = new Uint8Array(64).map((_, i) => i);

  test("EINTR injected below the loop is retried by pread/pwrite, and counted as real calls", async () => {
    const inner = make();
    const { fd } = withFile(inner, data);
    const b = faultBackend(inner, [{ call: ["pread", "pwrite"], errno: "EINTR", times: 3 }]);
    const out = new Uint8Array(8);
    expect(b.pread(fd, out, 0, 8, 8)).toBe(8);
    expect([...out]).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
    expect(b.calls.pread).toBe(4);
    expect(b.injected).toBe(3);
    b.inject({ call: "pread", errno: "EINTR", times: 2 });
    expect(await b.preadAsync(fd, out, 0, 4, 0)).toBe(4);
    expect(b.calls.pread).toBe(7);
    b.inject({ call: "pwrite", errno: "EINTR", times: 1 });
    expect(b.pwrite(fd, out, 0, 1, 100)).toBe(1);
    expect(b.calls.pwrite).toBe(2);
    expect(b.totalCalls()).toBe(9);
    b.resetCalls();
    expect(b.totalCalls()).toBe(0);
    inner.close(fd);
  });

  test("other errnos surface as -errno, after N calls, a given number of times", () => {
    const inner = make();
    const { fd } = withFile(inner, data);
    const b = faultBackend(inner, [
      { call: "pwrite", errno: "ENOSPC", after: 2, times: 1 },
      { call: "sync", errno: "EIO" },
      { call: "size", errno: "EBADF", times: 1 },
    ]);
    const one = new Uint8Array([7]);
    expect(b.pwrite(fd, one, 0, 1, 0)).toBe(1);
    expect(b.pwrite(fd, one, 0, 1, 1)).toBe(1);
    expect(b.pwrite(fd, one, 0, 1, 2)).toBe(neg("ENOSPC"));
    expect(b.pwrite(fd, one, 0, 1, 2)).toBe(1);
    expect(b.sync(fd)).toBe(neg("EIO"));
    expect(b.sync(fd)).toBe(neg("EIO"));
    expect(b.size(fd)).toBe(neg("EBADF"));
    expect(b.size(fd)).toBe(64);
    inner.close(fd);
  });

  test("short transfers are completed by preadFully/pwriteFully, one byte per call", async () => {
    const inner = make();
    const { fd } = withFile(inner, data);
    const b = faultBackend(inner, [{ call: ["pread", "pwrite"], shortTransfer: 1 }]);
    const out = new Uint8Array(10);
    expect(b.pread(fd, out, 0, 10, 0)).toBe(1);
    expect(b.preadFully(fd, out, 0, 10, 5)).toBe(10);
    expect([...out]).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(b.calls.pread).toBe(11);
    expect(await b.pwriteFullyAsync(fd, new Uint8Array([1, 2, 3]), 0, 3, 62)).toBe(3);
    expect(b.calls.pwrite).toBe(3);
    expect(await b.preadFullyAsync(fd, out, 0, 10, 60)).toBe(5);
    expect([...out.subarray(0, 5)]).toEqual([60, 61, 1, 2, 3]);
    inner.close(fd);
  });

  test("an error in the middle of preadFully returns it; a zero-byte pwrite is -EIO, not a hang", async () => {
    const inner = make();
    const { fd } = withFile(inner, data);
    // The first rule that can fire wins: EIO on the 3rd pread, 4-byte reads before it.
    const b = faultBackend(inner, [
      { call: "pread", errno: "EIO", after: 2, times: 1 },
      { call: "pread", shortTransfer: 4 },
    ]);
    const out = new Uint8Array(16);
    expect(b.preadFully(fd, out, 0, 16, 0)).toBe(neg("EIO"));
    expect([...out.subarray(0, 8)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await b.preadFullyAsync(fd, out, 0, 16, 0)).toBe(16);
    expect(b.calls.pread).toBe(3 + 4);
    const writesNothing = { ...bareOf(inner), pwrite: () => 0 } as unknown as Backend;
    expect(faultBackend(writesNothing).pwriteFully(fd, out, 0, 3, 0)).toBe(neg("EIO"));
    inner.close(fd);
  });

  test("EACCES from a non-waiting lock comes out as -EAGAIN; open, close, async calls fault too", async () => {
    const inner = make();
    const { fd, path } = withFile(inner, data);
    const b = faultBackend(inner, [
      { call: "lock", errno: "EACCES" },
      { call: "open", errno: "EMFILE", when: ({ path: p }) => p === path, times: 1 },
      { call: "close", errno: "EINTR", times: 1 },
      { call: ["truncate", "datasync", "allocate", "fadvise", "unlock"], errno: "EROFS", times: 5 },
    ]);
    const request = { shared: false, wait: false, position: 0, length: 0 };
    expect(b.lock(fd, request)).toBe(neg("EAGAIN"));
    expect(await b.lockAsync(fd, request)).toBe(neg("EAGAIN"));
    // A waiting lock never answers EAGAIN for a conflict, so EACCES stays what it is.
    expect(b.lock(fd, { ...request, wait: true })).toBe(neg("EACCES"));
    expect(b.open(path, "r")).toBe(neg("EMFILE"));
    expect(await b.openAsync(join(dir, "nope"), "r")).toBe(neg("ENOENT"));
    // close is never retried: EINTR means the fd is gone (Linux).
    expect(b.close(123456)).toBe(neg("EINTR"));
    expect(b.truncate(fd, 0)).toBe(neg("EROFS"));
    expect(await b.truncateAsync(fd, 0)).toBe(neg("EROFS"));
    expect(await b.datasyncAsync(fd)).toBe(neg("EROFS"));
    expect(b.allocate(fd, 0, 1)).toBe(neg("EROFS"));
    expect(b.unlock(fd, 0, 0)).toBe(neg("EROFS"));
    expect(b.fadvise(fd, 0, 0, "normal")).toBe(0);
    expect(await b.syncAsync(fd)).toBe(0);
    expect(await b.sizeAsync(fd)).toBe(64);
    expect(await b.closeAsync(9_999_999)).toBe(neg("EBADF"));
    b.clearRules();
    expect(b.truncate(fd, 0)).toBe(0);
    expect(b.name).toBe(`fault(${inner.name})`);
    expect(b.features).toEqual(inner.features);
    inner.close(fd);
  });
});

describe("faultBackend rules are validated", () => {
  test("unknown calls, errno names and malformed rules throw TypeErrors that say what is valid", () => {
    const inner = nodeBackend();
    expect(() => faultBackend(inner, [{ call: "read" as never, errno: "EIO" }])).toThrow(
      /valid calls are open, close, pread/,
    );
    expect(() => faultBackend(inner, [{ call: "pread", errno: "EWHAT" }])).toThrow(
      /Unknown errno name 'EWHAT'/,
    );
    expect(() => faultBackend(inner, [{ call: "pread" }])).toThrow(
      /exactly one of errno and shortTransfer/,
    );
    expect(() => faultBackend(inner, [{ call: "pread", errno: "EIO", shortTransfer: 1 }])).toThrow(
      /exactly one/,
    );
    expect(() => faultBackend(inner, [{ call: "pread", shortTransfer: 0 }])).toThrow(/>= 1/);
    expect(() => faultBackend(inner, [{ call: "sync", shortTransfer: 1 }])).toThrow(
      /pread and pwrite only/,
    );
    expect(() => faultBackend(inner, [{ call: "sync", errno: "EIO", times: -1 }])).toThrow(/>= 0/);
  });

  test("a hand-written backend's own methods are taken as its one-shot calls", () => {
    const b = faultBackend(bareOf(nodeBackend()), [{ call: "size", errno: "EIO", times: 1 }]);
    expect(b.size(0)).toBe(neg("EIO"));
    expect(b.name).toBe("fault(bare)");
    expect(b.features).toEqual({ locks: true, allocate: true, fadvise: true });
  });
});
