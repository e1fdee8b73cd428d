import { OutOfRangeError as BitsOutOfRangeError } from "@rafkit/bits";
import { describe, expect, test } from "vitest";
import { OffsetRangeError, OutOfRangeError, RandomAccessFile } from "../src/index";
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
