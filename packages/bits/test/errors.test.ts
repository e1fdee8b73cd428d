import { expect, test } from "vitest";
import { BigEndian, OutOfRangeError, UTFDataFormatError } from "../src/index";

test("OutOfRangeError is a RangeError shaped like Node's ERR_OUT_OF_RANGE", () => {
  let err: unknown;
  try {
    BigEndian.getInt32(new Uint8Array(6), 3);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(OutOfRangeError);
  expect(err).toBeInstanceOf(RangeError);
  const e = err as OutOfRangeError;
  expect(e.name).toBe("RangeError");
  expect(e.code).toBe("ERR_OUT_OF_RANGE");
  expect(e.message).toBe(
    "Offset 3 is out of range for a 4-byte access to a Uint8Array of length 6",
  );
  expect({ offset: e.offset, width: e.width, length: e.length }).toEqual({
    offset: 3,
    width: 4,
    length: 6,
  });
});

test("UTFDataFormatError is not a RangeError", () => {
  expect(new UTFDataFormatError("m")).not.toBeInstanceOf(RangeError);
});
