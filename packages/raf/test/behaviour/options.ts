import { existsSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { RandomAccessFile } from "../../src/index";
import { tempDir } from "../support/temp";

const tmp = tempDir();

describe("options and accessors", () => {
  test("path (string or file URL), mode, fd, byteOrder, bufferSize, backendName", () => {
    const p = tmp("acc.bin");
    const f = new RandomAccessFile(new URL(`file://${p}`), "rw", {
      byteOrder: "little",
      bufferSize: 100,
      backend: "node",
    });
    expect([f.path, f.mode, f.byteOrder, f.bufferSize, f.backendName, f.closed]).toEqual([
      p,
      "rw",
      "little",
      100,
      "node",
      false,
    ]);
    expect(f.fd).toBeGreaterThan(2);
    f.close();
    const g = new RandomAccessFile(p, "r");
    expect([g.byteOrder, g.bufferSize]).toEqual(["big", 8192]);
    g.close();
  });

  test("bad options and positions are rejected before any I/O", () => {
    const p = tmp("bad.bin");
    for (const bufferSize of [-1, 1.5, 2 ** 31, Number.NaN]) {
      expect(() => new RandomAccessFile(p, "rw", { bufferSize })).toThrow(RangeError);
    }
    expect(() => new RandomAccessFile(p, "rw", { byteOrder: "middle" as "big" })).toThrow(
      TypeError,
    );
    expect(() => new RandomAccessFile(p, "rw", { backend: "rust" as "node" })).toThrow(TypeError);
    expect(existsSync(p)).toBe(false);
    const f = new RandomAccessFile(p, "rw");
    expect(() => f.seek(2n ** 60n)).toThrow(expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }));
    expect(() => f.seek("1" as unknown as number)).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARG_TYPE" }),
    );
    expect(() => f.seek(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(f.getFilePointer()).toBe(0);
    f.close();
  });
});
