import { closeSync, openSync, readSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { describeErrno, errnoName, errnoOf } from "../src/errno";
import { SystemCallError, systemCallError } from "../src/errors";
import { nodeBackend } from "../src/node-backend";
import { tempDir } from "./helpers";

const dir = tempDir("errors");

/** The error Node itself throws for a call. */
function nodeError(call: () => unknown): NodeJS.ErrnoException {
  try {
    call();
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  throw new Error("expected the call to throw");
}

describe("systemCallError matches Node's own fs errors", () => {
  test("ENOENT from open, with a path", () => {
    const path = join(dir, "missing", "file");
    const real = nodeError(() => openSync(path, "r"));
    const result = nodeBackend().open(path, "r");
    const ours = systemCallError(result, "open", path);
    expect(ours).toBeInstanceOf(SystemCallError);
    expect(ours).toBeInstanceOf(Error);
    expect(ours.message).toBe(real.message);
    expect(ours.code).toBe(real.code);
    expect(ours.errno).toBe(real.errno);
    expect(ours.syscall).toBe(real.syscall);
    expect(ours.path).toBe(real.path);
  });

  test("EBADF from read, without a path", () => {
    const fd = openSync(join(dir, "f"), "w");
    closeSync(fd);
    const real = nodeError(() => readSync(fd, Buffer.alloc(1), 0, 1, 0));
    const ours = systemCallError(nodeBackend().pread(fd, new Uint8Array(1), 0, 1, 0), "read");
    expect(ours.message).toBe(real.message);
    expect([ours.code, ours.errno, ours.syscall]).toEqual([real.code, real.errno, real.syscall]);
    expect("path" in ours).toBe(false);
  });

  test("a number nobody names is UNKNOWN, a fraction or an infinity too (Node's getSystemErrorName would throw)", () => {
    for (const n of [-2.5, -Infinity, Number.NaN, -(2 ** 40), 0, 5]) {
      expect(errnoName(n)).toBe("UNKNOWN");
      expect(describeErrno(n)).toEqual(["UNKNOWN", "unknown error"]);
    }
  });

  test("every errno Node names round-trips through errnoOf/errnoName", () => {
    const names = Object.keys(constants.errno);
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) {
      const n = errnoOf(name);
      // Aliases (EWOULDBLOCK = EAGAIN, EOPNOTSUPP = ENOTSUP) share a number; the name must map back to it.
      expect(errnoOf(errnoName(-n))).toBe(n);
    }
  });

  test("unknown numbers and names", () => {
    expect(describeErrno(-99999)).toEqual(["UNKNOWN", "unknown error"]);
    expect(systemCallError(-99999, "read").message).toBe("UNKNOWN: unknown error, read");
    expect(() => errnoOf("ENOTANERRNO")).toThrow(
      expect.objectContaining({ code: "ERR_UNKNOWN_ERRNO_NAME" }),
    );
    expect(() => systemCallError(0, "read")).toThrow(
      expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }),
    );
    expect(() => systemCallError(5, "read")).toThrow(RangeError);
    expect(() => systemCallError(-1.5, "read")).toThrow(RangeError);
  });
});
