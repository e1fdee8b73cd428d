import * as zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "../src";
import { crc32Prefixes, crc32Table } from "../src/crc32";
import { crc32OfRange } from "../src/crc32-ranges";

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

describe("the CRC-32 of a range from prefix CRCs", () => {
  it("is the CRC-32 of that range, for any range (empty, whole, long)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const prefixes = new Int32Array(bytes.length + 1);
        // Made in two steps, as the search extends them.
        const half = bytes.length >> 1;
        crc32Prefixes(bytes, 0, half, prefixes);
        crc32Prefixes(bytes, half, bytes.length, prefixes);
        const [start, end] = [a % (bytes.length + 1), b % (bytes.length + 1)].sort((x, y) => x - y);
        expect(crc32OfRange(prefixes, start!, end!)).toBe(crc32Table(bytes, start, end));
      }),
    );
    const big = Uint8Array.from({ length: 300_000 }, (_, k) => (k * 131) >>> 3);
    const prefixes = new Int32Array(big.length + 1);
    crc32Prefixes(big, 0, big.length, prefixes);
    expect(crc32OfRange(prefixes, 4, 262_000)).toBe(crc32Table(big, 4, 262_000));
  });
});
