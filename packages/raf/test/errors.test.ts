import { OutOfRangeError as BitsOutOfRangeError } from "@rafkit/bits";
import { describe, expect, test } from "vitest";
import {
  AsyncRandomAccessFile,
  OffsetRangeError,
  OutOfRangeError,
  RandomAccessFile,
} from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();

describe("one ERR_OUT_OF_RANGE class", () => {
  test("OffsetRangeError is @rafkit/bits' OutOfRangeError under its old name", () => {
    expect(OffsetRangeError).toBe(BitsOutOfRangeError);
    expect(OutOfRangeError).toBe(BitsOutOfRangeError);
  });

  test("what raf throws is an instance of both names, with Node's name and code", () => {
    const f = new RandomAccessFile(tmp("range.bin"), "rw");
    try {
      let thrown: unknown;
      try {
        f.seek(-1);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(OffsetRangeError);
      expect(thrown).toBeInstanceOf(OutOfRangeError);
      expect(thrown).toBeInstanceOf(RangeError);
      expect(thrown).toMatchObject({
        name: "RangeError",
        code: "ERR_OUT_OF_RANGE",
        message: "Negative seek offset",
      });
      expect(() => f.read(new Uint8Array(4), 3, 2)).toThrow(
        new OffsetRangeError("Range [3, 3 + 2) out of bounds for length 4"),
      );
    } finally {
      f.close();
    }
  });
});

describe("readLongAsNumber of an unsafe long", () => {
  // The codec's message named the window's offset ("at offset 0" for a long at file position 100).
  const unsafe = {
    name: "RangeError",
    code: "ERR_OUT_OF_RANGE",
    message: "The long 1152921504606846976 is not a safe integer: read it with readLong",
  };

  test.each([
    ["buffered", {}],
    ["unbuffered", { bufferSize: 0 }],
  ] as const)(
    "names the value on every path, %s, and consumes its 8 bytes",
    async (name, options) => {
      const p = tmp(`unsafe-${name}.bin`);
      const f = new RandomAccessFile(p, "rw", options);
      f.seek(100);
      f.writeLong(2n ** 60n);
      f.writeInt(7);
      f.close();
      const g = new RandomAccessFile(p, "r", options);
      g.seek(100);
      // First from an empty window (the slow path), then from the window.
      for (const at of [100, 100]) {
        g.seek(at);
        expect(() => g.readLongAsNumber()).toThrow(expect.objectContaining(unsafe));
        expect(g.getFilePointer()).toBe(108);
        expect(() => g.readLongAsNumberAt(at)).toThrow(expect.objectContaining(unsafe));
      }
      expect(g.readInt()).toBe(7);
      g.close();
      const a = await AsyncRandomAccessFile.open(p, "r", options);
      for (let k = 0; k < 2; k++) {
        await a.seek(100);
        await expect(a.readLongAsNumber()).rejects.toMatchObject(unsafe);
        await expect(a.readLongAsNumberAt(100)).rejects.toMatchObject(unsafe);
      }
      expect(await a.readInt()).toBe(7);
      await a.close();
    },
  );
});
