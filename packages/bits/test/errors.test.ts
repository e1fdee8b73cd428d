import { expect, test } from "vitest";
import {
  BigEndian,
  BigEndianView,
  decodeArray,
  ModifiedUtf8,
  OutOfRangeError,
  UTFDataFormatError,
} from "../src/index";
import { thrown } from "./helpers";

test("OutOfRangeError is a RangeError shaped like Node's ERR_OUT_OF_RANGE", () => {
  const err = thrown(() => BigEndian.getInt32(new Uint8Array(6), 3));
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

test("messages say 'an 8-byte access', and name a DataView when the view codecs are given one", () => {
  expect(() => BigEndian.getFloat64(new Uint8Array(6), 0)).toThrow(
    "Offset 0 is out of range for an 8-byte access to a Uint8Array of length 6",
  );
  expect(() => BigEndianView.getInt32(new DataView(new ArrayBuffer(8)), 6)).toThrow(
    "Offset 6 is out of range for a 4-byte access to a DataView of length 8",
  );
});

test("a non-number offset, index or count is a TypeError with Node's ERR_INVALID_ARG_TYPE", () => {
  const b = new Uint8Array(8);
  const bad = (call: () => unknown, message: string) => {
    const err = thrown(call);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as { code?: string }).code).toBe("ERR_INVALID_ARG_TYPE");
    expect((err as Error).message).toBe(message);
  };
  const s = "4" as unknown as number;
  bad(() => BigEndian.getInt8(b, s), 'Offset must be a number, got string ("4")');
  bad(() => BigEndian.getInt32(b, null as unknown as number), "Offset must be a number, got null");
  bad(
    () => BigEndianView.setInt16(new DataView(b.buffer), s, 1),
    'Offset must be a number, got string ("4")',
  );
  bad(
    () => decodeArray(b, s, new Int32Array(2), 0, 1, "big"),
    'Offset must be a number, got string ("4")',
  );
  bad(
    () => decodeArray(b, 0, new Int32Array(2), 0, s, "big"),
    'Count must be a number, got string ("4")',
  );
  bad(() => ModifiedUtf8.decode(b, 0, s), 'Length must be a number, got string ("4")');
});

test("UTFDataFormatError is not a RangeError", () => {
  expect(new UTFDataFormatError("m")).not.toBeInstanceOf(RangeError);
});

test("a width is read out with the right article: an 8-, 11-, 18-, 80-byte access, a 16-byte one", () => {
  const bytes = new Uint8Array(4);
  const cases: Array<[number, string]> = [
    [1, "a"],
    [8, "an"],
    [11, "an"],
    [16, "a"],
    [18, "an"],
    [80, "an"],
    [86, "an"],
    [110, "a"],
    [800, "an"],
    [8000, "an"],
    [11000, "an"],
    [18500, "an"],
    [110000, "a"],
    [81000000, "an"],
  ];
  for (const [width, article] of cases) {
    // A string of `width` ASCII bytes into 4: the message names the width of the whole body.
    expect(() => ModifiedUtf8.encode("a".repeat(width), bytes, 4)).toThrow(
      `Offset 4 is out of range for ${article} ${width}-byte access to a Uint8Array of length 4`,
    );
  }
  // Bulk codecs name the byte width of all the elements.
  expect(() => decodeArray(bytes, 0, new Int16Array(9), 0, 9, "big")).toThrow(
    "Offset 0 is out of range for an 18-byte access to a Uint8Array of length 4",
  );
});

test("OutOfRangeError also carries a message alone, for a value that is not an access", () => {
  const e = new OutOfRangeError("Negative seek offset");
  expect(e).toBeInstanceOf(RangeError);
  expect(e).toMatchObject({
    name: "RangeError",
    code: "ERR_OUT_OF_RANGE",
    message: "Negative seek offset",
  });
  expect([e.offset, e.width, e.length]).toEqual([undefined, undefined, undefined]);
});
