import * as zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "../src";
import { crc32Table } from "../src/crc32";

describe("crc32", () => {
  it("gives the CRC-32 check value of '123456789'", () => {
    const check = new TextEncoder().encode("123456789");
    expect(crc32(check)).toBe(0xcbf43926);
    expect(crc32Table(check)).toBe(0xcbf43926);
  });

  const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

  it.skipIf(native === undefined)(
    "agrees with zlib's on any range, short (slicing by 8 and the tail) and long",
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 1500 }), fc.nat(), fc.nat(), (bytes, a, b) => {
          const start = bytes.length === 0 ? 0 : a % bytes.length;
          const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
          const expected = native!(bytes.subarray(start, end)) >>> 0;
          expect(crc32Table(bytes, start, end)).toBe(expected);
          expect(crc32(bytes, start, end)).toBe(expected);
        }),
      );
    },
  );
});
