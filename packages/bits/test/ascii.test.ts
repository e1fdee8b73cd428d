import { isAscii as nodeBufferIsAscii } from "node:buffer";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isAscii, isAsciiPortable, nodeIsAscii } from "../src/ascii";

describe("the ASCII check", () => {
  test("on Node it is Node's own buffer.isAscii", () => {
    expect(isAscii).toBe(nodeBufferIsAscii);
  });

  test("the portable check agrees with Node's at every offset, length and high byte", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 80, max: 0x7f }),
        fc.nat(79),
        fc.nat(80),
        fc.option(fc.tuple(fc.nat(79), fc.integer({ min: 0x80, max: 0xff }))),
        (bytes, start, length, high) => {
          if (high !== null) bytes[high[0] % Math.max(1, bytes.length)] = high[1];
          const s = Math.min(start, bytes.length);
          const sub = bytes.subarray(s, Math.min(bytes.length, s + length));
          expect(isAsciiPortable(sub)).toBe(nodeBufferIsAscii(sub));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("the portable check sees a high bit in any lane of a word", () => {
    const bytes = new Uint8Array(64);
    expect(isAsciiPortable(bytes)).toBe(true);
    for (let i = 0; i < bytes.length; i++) {
      bytes[i] = 0x80;
      expect(isAsciiPortable(bytes)).toBe(false);
      expect(isAsciiPortable(bytes.subarray(1))).toBe(i < 1);
      bytes[i] = 0x7f;
    }
    expect(isAsciiPortable(new Uint8Array(0))).toBe(true);
  });

  test("without Node's check (a browser, an older Node) the portable one is used", () => {
    expect(nodeIsAscii({})).toBeUndefined();
    expect(nodeIsAscii({ process: {} })).toBeUndefined();
    expect(nodeIsAscii({ process: { getBuiltinModule: () => undefined } })).toBeUndefined();
    expect(nodeIsAscii({ process: { getBuiltinModule: () => ({}) } })).toBeUndefined();
    const refuses = {
      getBuiltinModule() {
        throw new Error("no such module");
      },
    };
    expect(nodeIsAscii({ process: refuses })).toBeUndefined();
    expect(nodeIsAscii(globalThis)).toBe(nodeBufferIsAscii);
  });
});
