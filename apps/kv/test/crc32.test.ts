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

  it("agrees between the table-driven fallback and zlib on any range", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const start = bytes.length === 0 ? 0 : a % bytes.length;
        const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
        expect(crc32Table(bytes, start, end)).toBe(crc32(bytes, start, end));
      }),
    );
  });
});
