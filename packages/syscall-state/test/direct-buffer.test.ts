import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Backend } from "../src/backend";
import { ComposedBackend } from "../src/compose-backend";
import { allocateDirect } from "../src/direct-buffer";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { PRIMITIVES } from "../src/primitives";
import { faultBackend } from "../src/testing";
import { neg, tempDir } from "./helpers";

const dir = tempDir("direct");
let counter = 0;

function openFile(backend: Backend, content: Uint8Array): { fd: number; path: string } {
  const path = join(dir, `f${counter++}`);
  const fd = backend.open(path, "rw");
  expect(backend.pwriteFully(fd, content, 0, content.length, 0)).toBe(content.length);
  return { fd, path };
}

// Direct buffers come with the native backend (kernel32's ReadFile/WriteFile on Windows); the node backend has none.
const native = isNativeAvailable();
/** A descriptor (a handle on Windows) that nothing has open. */
const CLOSED = 2 ** 30;

describe.runIf(native)("allocateDirect over the native backend", () => {
  test("pwrite sends and pread fills the buffer's own bytes, one system call each, at the position given", () => {
    const backend = nativeBackend();
    const { fd, path } = openFile(backend, Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8));
    const direct = allocateDirect(backend, 16)!;
    expect(direct.bytes).toBeInstanceOf(Uint8Array);
    expect(direct.bytes.length).toBe(16);
    direct.bytes.set([9, 9, 0]);
    expect(direct.pwrite(fd, 2, 3)).toBe(2);
    expect([...readFileSync(path)]).toEqual([1, 2, 3, 9, 9, 6, 7, 8]);
    expect(direct.pread(fd, 5, 2)).toBe(5);
    expect([...direct.bytes.subarray(0, 6)]).toEqual([3, 9, 9, 6, 7, 0]);
    expect(direct.pread(fd, 8, 8)).toBe(0);
    expect(direct.pwrite(fd, 0, 0)).toBe(0);
    backend.close(fd);
  });

  test("a failing call answers -errno, read right after it", () => {
    const backend = nativeBackend();
    const direct = allocateDirect(backend, 8)!;
    expect(direct.pread(CLOSED, 4, 0)).toBe(neg("EBADF"));
    expect(direct.pwrite(CLOSED, 4, 0)).toBe(neg("EBADF"));
    const { fd, path } = openFile(backend, Uint8Array.of(1, 2, 3, 4));
    const readOnly = backend.open(path, "r");
    expect(direct.pwrite(readOnly, 4, 0)).toBe(neg("EBADF"));
    if (process.platform !== "win32") expect(direct.pread(fd, 4, -1)).toBe(neg("EINVAL"));
    backend.close(readOnly);
    backend.close(fd);
  });

  test("a length outside the buffer throws ERR_OUT_OF_RANGE before any system call, leaving the file as it was", () => {
    const backend = nativeBackend();
    const { fd, path } = openFile(backend, Uint8Array.of(1, 2, 3, 4));
    const direct = allocateDirect(backend, 4)!;
    direct.bytes.fill(7);
    for (const length of [5, -1, Number.NaN, 2 ** 32, 3.5]) {
      expect(() => direct.pwrite(fd, length, 0)).toThrow(
        expect.objectContaining({ name: "RangeError", code: "ERR_OUT_OF_RANGE" }),
      );
      expect(() => direct.pread(fd, length, 0)).toThrow(RangeError);
    }
    // Not a number: a type error, as Node's fs.read gives ("Received 1" for "1" read as out of range).
    for (const [length, shown] of [
      ["2", 'type string ("2")'],
      [undefined, "undefined"],
      [2n, "type bigint (2n)"],
    ] as const) {
      for (const call of [direct.pwrite, direct.pread]) {
        expect(() => call.call(direct, fd, length as never, 0)).toThrow(
          expect.objectContaining({
            name: "TypeError",
            code: "ERR_INVALID_ARG_TYPE",
            message: `The "length" argument must be of type number. Received ${shown}`,
          }),
        );
      }
    }
    expect([...readFileSync(path)]).toEqual([1, 2, 3, 4]);
    expect([...direct.bytes]).toEqual([7, 7, 7, 7]);
    backend.close(fd);
  });

  test("its memory cannot be detached, and a call taken off the buffer throws instead of reaching memory", () => {
    const direct = allocateDirect(nativeBackend(), 8)!;
    expect(direct.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(() =>
      structuredClone(direct.bytes.buffer, { transfer: [direct.bytes.buffer as never] }),
    ).toThrow();
    const { pwrite } = direct;
    expect(() => pwrite(0, 1, 0)).toThrow(TypeError);
    expect(() => direct.pread.call({}, 0, 1, 0)).toThrow(TypeError);
  });

  test("each buffer has memory of its own", () => {
    const backend = nativeBackend();
    const { fd } = openFile(backend, Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8));
    const a = allocateDirect(backend, 4)!;
    const b = allocateDirect(backend, 4)!;
    expect(a.pread(fd, 4, 0)).toBe(4);
    expect(b.pread(fd, 4, 4)).toBe(4);
    expect([...a.bytes, ...b.bytes]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    backend.close(fd);
  });

  test("under faultBackend, its calls meet the rules: -EINTR answered, not retried; a short transfer is short", () => {
    const inner = nativeBackend();
    const { fd, path } = openFile(inner, Uint8Array.of(5, 6, 7, 8));
    const faulty = faultBackend(inner, [{ call: ["pread", "pwrite"], errno: "EINTR", times: 2 }]);
    const direct = allocateDirect(faulty, 8)!;
    expect(direct.pread(fd, 4, 0)).toBe(neg("EINTR"));
    expect(direct.pwrite(fd, 4, 0)).toBe(neg("EINTR"));
    expect(faulty.calls.pread + faulty.calls.pwrite).toBe(2);
    expect(direct.pread(fd, 4, 0)).toBe(4);
    expect([...direct.bytes.subarray(0, 4)]).toEqual([5, 6, 7, 8]);
    faulty.inject({ call: "pwrite", shortTransfer: 1, times: 1 });
    direct.bytes.set([1, 2, 3, 4]);
    expect(direct.pwrite(fd, 4, 0)).toBe(1);
    expect([...readFileSync(path)]).toEqual([1, 6, 7, 8]);
    expect(() => direct.pwrite(fd, 9, 0)).toThrow(RangeError);
    inner.close(fd);
  });

  test("a wrapper gets none, as for oneShotTransfers: its own pread and pwrite must run", () => {
    const backend = nativeBackend();
    const primitives = (backend as ComposedBackend)[PRIMITIVES];
    const features = backend.features!;
    expect(allocateDirect(new ComposedBackend(primitives, features), 8)).toBeDefined();
    const patched = new ComposedBackend(primitives, features);
    patched.pread = () => 0;
    const wrappers: Backend[] = [
      { ...backend, name: "spread" } as Backend,
      new Proxy(backend, {}),
      Object.create(backend) as Backend,
      patched,
    ];
    for (const wrapper of wrappers) expect(allocateDirect(wrapper, 8)).toBeUndefined();
  });
});

describe("allocateDirect elsewhere", () => {
  test("the node backend, and anything that is no backend of this package, have none", () => {
    expect(allocateDirect(nodeBackend(), 8)).toBeUndefined();
    expect(allocateDirect(faultBackend(nodeBackend()), 8)).toBeUndefined();
    for (const other of [null, undefined, 3, "native"])
      expect(allocateDirect(other as unknown as Backend, 8)).toBeUndefined();
  });

  test("a capacity that is not an integer in [1, 2**30] throws ERR_OUT_OF_RANGE, for any backend", () => {
    for (const capacity of [0, -1, 1.5, 2 ** 30 + 1, Number.NaN, Infinity, "8"]) {
      expect(() => allocateDirect(nodeBackend(), capacity as number)).toThrow(
        expect.objectContaining({ name: "RangeError", code: "ERR_OUT_OF_RANGE" }),
      );
    }
  });
});
