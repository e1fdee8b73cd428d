import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Backend } from "../src/backend";
import { ComposedBackend } from "../src/compose-backend";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { oneShotTransfers } from "../src/one-shot";
import { PRIMITIVES } from "../src/primitives";
import { faultBackend } from "../src/testing";
import { neg, tempDir } from "./helpers";

const dir = tempDir("one-shot");
let counter = 0;

const backends: [string, () => Backend][] = [["node", nodeBackend]];
if (isNativeAvailable()) backends.push(["native", nativeBackend]);

function openFile(backend: Backend, content: Uint8Array): { fd: number; path: string } {
  const path = join(dir, `f${counter++}`);
  const fd = backend.open(path, "rw");
  expect(backend.pwriteFully(fd, content, 0, content.length, 0)).toBe(content.length);
  return { fd, path };
}

describe.each(backends)("oneShotTransfers over the %s backend", (_name, make) => {
  test("reads and writes a real file, one system call each, at the position given", () => {
    const backend = make();
    const { fd, path } = openFile(backend, Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8));
    const io = oneShotTransfers(backend)!;
    expect(io).toBeDefined();
    expect(io.pwrite(fd, Uint8Array.of(0, 9, 9, 0), 1, 2, 3)).toBe(2);
    const out = new Uint8Array(6);
    expect(io.pread(fd, out, 1, 5, 2)).toBe(5);
    expect([...out]).toEqual([0, 3, 9, 9, 6, 7]);
    expect(io.pread(fd, out, 0, 6, 8)).toBe(0);
    expect([...readFileSync(path)]).toEqual([1, 2, 3, 9, 9, 6, 7, 8]);
    backend.close(fd);
  });

  test("answers -EINTR instead of retrying it, where the backend's own pread retries", () => {
    const inner = make();
    const { fd } = openFile(inner, Uint8Array.of(5, 6, 7, 8));
    const faulty = faultBackend(inner, [{ call: ["pread", "pwrite"], errno: "EINTR", times: 2 }]);
    const io = oneShotTransfers(faulty)!;
    const out = new Uint8Array(4);
    expect(io.pread(fd, out, 0, 4, 0)).toBe(neg("EINTR"));
    expect(io.pwrite(fd, out, 0, 4, 0)).toBe(neg("EINTR"));
    expect(faulty.calls.pread + faulty.calls.pwrite).toBe(2);
    expect(io.pread(fd, out, 0, 4, 0)).toBe(4);
    expect([...out]).toEqual([5, 6, 7, 8]);
    faulty.inject({ call: "pread", errno: "EINTR", times: 1 });
    expect(faulty.pread(fd, out, 0, 4, 0)).toBe(4);
    inner.close(fd);
  });

  test("a range outside the buffer throws before any system call, leaving the file as it was", () => {
    const backend = make();
    const { fd, path } = openFile(backend, Uint8Array.of(1, 2, 3, 4));
    const io = oneShotTransfers(backend)!;
    const small = new Uint8Array(4);
    expect(() => io.pwrite(fd, small, 2, 4, 0)).toThrow(RangeError);
    expect(() => io.pread(fd, small, 0, 5, 0)).toThrow(RangeError);
    expect([...readFileSync(path)]).toEqual([1, 2, 3, 4]);
    expect([...small]).toEqual([0, 0, 0, 0]);
    backend.close(fd);
  });

  test("a subarray's range is its own: bytes beside it are neither read into nor written out", () => {
    const backend = make();
    const { fd, path } = openFile(backend, Uint8Array.of(65, 66, 67, 68, 69, 70, 71, 72));
    const io = oneShotTransfers(backend)!;
    const whole = new Uint8Array(16);
    expect(() => io.pread(fd, whole.subarray(0, 4), 2, 4, 0)).toThrow(
      expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }),
    );
    expect([...whole]).toEqual(new Array(16).fill(0));
    const secret = Uint8Array.from("public--SECRET!!", (c) => c.charCodeAt(0));
    expect(() => io.pwrite(fd, secret.subarray(0, 8), 4, 8, 100)).toThrow(
      expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }),
    );
    expect(readFileSync(path).length).toBe(8);
    // A string offset: "0" + 2 compares as 2 and 16 + "0" is "160"; refused before any address is made.
    expect(() => io.pread(fd, whole.subarray(8, 12), "0" as never, 2, 0)).toThrow(
      expect.objectContaining({
        code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/),
      }),
    );
    expect([...whole]).toEqual(new Array(16).fill(0));
    // Inside the view, at its offset: the view's bytes, not its buffer's.
    expect(io.pread(fd, whole.subarray(4, 8), 1, 2, 0)).toBe(2);
    expect([...whole.subarray(0, 8)]).toEqual([0, 0, 0, 0, 0, 65, 66, 0]);
    backend.close(fd);
  });

  test("a wrapper gets none: its own pread and pwrite must run", () => {
    const backend = make();
    class Logging extends ComposedBackend {
      override pread(...args: Parameters<Backend["pread"]>): number {
        return super.pread(...args);
      }
    }
    const primitives = (backend as ComposedBackend)[PRIMITIVES];
    const features = backend.features!;
    expect(oneShotTransfers(new ComposedBackend(primitives, features))).toBeDefined();
    const patched = new ComposedBackend(primitives, features);
    patched.pwrite = () => 0;
    const wrappers: Backend[] = [
      { ...backend, name: "spread" } as Backend,
      new Proxy(backend, {}),
      Object.create(backend) as Backend,
      new Logging(primitives, features),
      patched,
    ];
    for (const wrapper of wrappers) expect(oneShotTransfers(wrapper)).toBeUndefined();
    const original = ComposedBackend.prototype.pwrite;
    ComposedBackend.prototype.pwrite = function (...args) {
      return original.apply(this, args);
    };
    try {
      expect(oneShotTransfers(backend)).toBeUndefined();
    } finally {
      ComposedBackend.prototype.pwrite = original;
    }
    expect(oneShotTransfers(backend)).toBeDefined();
    for (const other of [null, undefined, 3, "native"])
      expect(oneShotTransfers(other as unknown as Backend)).toBeUndefined();
  });
});
