import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ModifiedUtf8, OutOfRangeError, UTFDataFormatError } from "../src/index";
import { anyUnits, thrown } from "./helpers";

const strings = fc.oneof(anyUnits, fc.string({ unit: "binary" }), fc.string());

function encode(s: string): Uint8Array {
  const out = new Uint8Array(ModifiedUtf8.encodedLength(s));
  expect(ModifiedUtf8.encode(s, out, 0)).toBe(out.length);
  return out;
}

/** What decoding `bytes` gives: the string, or the UTFDataFormatError message. */
function outcome(bytes: Uint8Array): string {
  try {
    return `ok ${ModifiedUtf8.decode(bytes, 0, bytes.length)}`;
  } catch (e) {
    expect(e).toBeInstanceOf(UTFDataFormatError);
    return `err ${(e as Error).message}`;
  }
}

describe("ModifiedUtf8 encoding", () => {
  test("follows writeUTF's forms: C0 80 for U+0000, 1/2/3 bytes by range, surrogates 3 bytes each", () => {
    expect([...encode("\u0000")]).toEqual([0xc0, 0x80]);
    expect([...encode("A\u007f")]).toEqual([0x41, 0x7f]);
    expect([...encode("\u0080\u07ff")]).toEqual([0xc2, 0x80, 0xdf, 0xbf]);
    expect([...encode("\u0800\uffff")]).toEqual([0xe0, 0xa0, 0x80, 0xef, 0xbf, 0xbf]);
    // U+1F600 is D83D DE00: two 3-byte surrogates, never the 4-byte F0 9F 98 80.
    expect([...encode("😀")]).toEqual([0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]);
    expect([...encode("\udc00")]).toEqual([0xed, 0xb0, 0x80]);
  });

  test("never writes a 0x00 byte or a 4-byte lead, and decodes back to the same string", () => {
    fc.assert(
      fc.property(strings, (s) => {
        const bytes = encode(s);
        expect(bytes.every((x) => x !== 0 && x < 0xf0)).toBe(true);
        expect(ModifiedUtf8.decode(bytes, 0, bytes.length)).toBe(s);
        expect(ModifiedUtf8.encodedLength(s)).toBeGreaterThanOrEqual(s.length);
        expect(ModifiedUtf8.encodedLength(s)).toBeLessThanOrEqual(3 * s.length);
      }),
    );
  });

  test("writes at an offset, only its own bytes, and writes nothing when it does not fit", () => {
    fc.assert(
      fc.property(strings, fc.nat(5), fc.nat(5), (s, pad, tail) => {
        const n = ModifiedUtf8.encodedLength(s);
        const dst = new Uint8Array(pad + n + tail).fill(0xaa);
        expect(ModifiedUtf8.encode(s, dst, pad)).toBe(n);
        expect(dst.subarray(pad, pad + n)).toEqual(encode(s));
        expect(dst.subarray(0, pad).every((x) => x === 0xaa)).toBe(true);
        expect(dst.subarray(pad + n).every((x) => x === 0xaa)).toBe(true);
        if (n > 0) {
          const small = new Uint8Array(pad + n - 1).fill(0xaa);
          expect(() => ModifiedUtf8.encode(s, small, pad)).toThrow(OutOfRangeError);
          expect(small.every((x) => x === 0xaa)).toBe(true);
        }
      }),
    );
  });

  test("encodedLength counts long strings exactly", () => {
    const s = "\uffff".repeat(1 << 20) + "a".repeat(1 << 20) + "\u0000".repeat(1 << 20);
    expect(ModifiedUtf8.encodedLength(s)).toBe(3 * (1 << 20) + (1 << 20) + 2 * (1 << 20));
  });

  test("writeUTF writes the u16 length then the body, up to 65535 bytes", () => {
    const s = `${"é".repeat(32767)}a`; // 65535 bytes
    const dst = new Uint8Array(65537 + 1);
    expect(ModifiedUtf8.writeUTF(s, dst, 1)).toBe(65537);
    expect([dst[1], dst[2]]).toEqual([0xff, 0xff]);
    expect(ModifiedUtf8.decode(dst, 3, 65535)).toBe(s);
    expect(ModifiedUtf8.MAX_UTF_LENGTH).toBe(65535);
  });

  test("a string argument that is not a string is a TypeError, and nothing is written", () => {
    const dst = new Uint8Array(8).fill(0xaa);
    // encode(123, …) used to write nothing and return 0; encodedLength(null) threw the engine's error.
    for (const s of [123, null, undefined, ["a"], { length: 2 }, 1n] as unknown as string[]) {
      for (const call of [
        () => ModifiedUtf8.encodedLength(s),
        () => ModifiedUtf8.encode(s, dst, 0),
        () => ModifiedUtf8.writeUTF(s, dst, 0),
      ]) {
        const err = thrown(call);
        expect(err, String(s)).toBeInstanceOf(TypeError);
        expect((err as { code?: string }).code).toBe("ERR_INVALID_ARG_TYPE");
        expect((err as Error).message).toMatch(/^The string to encode must be a string, got /);
      }
    }
    expect(dst.every((x) => x === 0xaa)).toBe(true);
  });

  test("writeUTF refuses more than 65535 bytes with Java's message, writing nothing", () => {
    const s = `${"é".repeat(32767)}ab`; // 65536 bytes
    const dst = new Uint8Array(70000);
    expect(() => ModifiedUtf8.writeUTF(s, dst, 0)).toThrow(
      new UTFDataFormatError("encoded string (éééééééé...ééééééab) too long: 65536 bytes"),
    );
    expect(dst.every((x) => x === 0)).toBe(true);
    expect(() => ModifiedUtf8.writeUTF("abc", new Uint8Array(4), 0)).toThrow(RangeError);
  });
});

describe("ModifiedUtf8 decoding", () => {
  test("accepts what readUTF accepts: overlong forms, raw NUL bytes, lone surrogates", () => {
    const d = (...b: number[]) => ModifiedUtf8.decode(Uint8Array.from(b), 0, b.length);
    expect(d(0xc1, 0x81)).toBe("A"); // overlong 'A'
    expect(d(0xe0, 0x80, 0x80)).toBe("\u0000"); // overlong NUL, 3 bytes
    expect(d(0x00)).toBe("\u0000");
    expect(d(0xed, 0xa0, 0x80)).toBe("\ud800");
    expect(d(0xc0, 0x80, 0x41)).toBe("\u0000A");
    expect(d()).toBe("");
  });

  test("reports malformed input with the JDK's messages, counting from the body's first byte", () => {
    // Positions follow DataInputStream.readUTF: a bad 2-byte form names the byte after it, a bad
    // 3-byte form its last byte, a bad lead byte itself.
    const cases: Array<[number[], string]> = [
      [[0x80], "malformed input around byte 0"],
      [[0x41, 0xbf], "malformed input around byte 1"],
      [[0x41, 0xf0, 0x80, 0x80, 0x80], "malformed input around byte 1"],
      [[0xff], "malformed input around byte 0"],
      [[0xc3, 0x41], "malformed input around byte 2"],
      [[0x41, 0xe0, 0x41, 0x80], "malformed input around byte 3"],
      [[0xe0, 0x80, 0x41], "malformed input around byte 2"],
      [[0xc3], "malformed input: partial character at end"],
      [[0x41, 0xe0, 0x80], "malformed input: partial character at end"],
      [[0xe0, 0x41], "malformed input: partial character at end"],
    ];
    for (const [bytes, message] of cases) {
      const padded = Uint8Array.from([0x80, 0x80, 0x80, ...bytes, 0x80]);
      for (const [b, off] of [
        [Uint8Array.from(bytes), 0],
        [padded, 3],
        [padded.subarray(2), 1],
      ] as const) {
        let err: unknown;
        try {
          ModifiedUtf8.decode(b, off, bytes.length);
        } catch (e) {
          err = e;
        }
        expect(err, bytes.join(",")).toBeInstanceOf(UTFDataFormatError);
        const e = err as UTFDataFormatError;
        expect(e.message).toBe(message);
        expect(e.name).toBe("UTFDataFormatError");
        expect(e.code).toBe("ERR_UTF_DATA_FORMAT");
      }
    }
  });

  test("random bytes give a string or a UTFDataFormatError, never anything else", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc
        .array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 50 })
        .map((a) => Uint8Array.from(a)),
      fc
        .array(fc.constantFrom(0x41, 0x80, 0xbf, 0xc0, 0xc3, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xff), {
          maxLength: 50,
        })
        .map((a) => Uint8Array.from(a)),
      fc
        .array(fc.constantFrom(0x41, 0xc3, 0xe0, 0x80), { minLength: 64, maxLength: 300 })
        .map((a) => Uint8Array.from(a)),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const r = outcome(b);
        if (r.startsWith("err ")) {
          const m = /^err malformed input(?: around byte (\d+)|: partial character at end)$/.exec(
            r,
          );
          expect(m, r).not.toBeNull();
          if (m?.[1] !== undefined) expect(Number(m[1])).toBeLessThanOrEqual(b.length);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("every truncation of a valid encoding decodes or fails as a partial character", () => {
    fc.assert(
      fc.property(
        strings.filter((s) => s.length > 0),
        (s) => {
          const bytes = encode(s);
          for (let cut = 0; cut < bytes.length; cut++) {
            const r = outcome(bytes.subarray(0, cut));
            expect(
              r === "err malformed input: partial character at end" || r.startsWith("ok "),
            ).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test("short inputs of every length around the ASCII fast path, at an offset", () => {
    for (let n = 0; n <= 40; n++) {
      // Distinct printable codes, so a byte decoded from the wrong position shows.
      const ascii = Array.from({ length: n }, (_, k) =>
        String.fromCharCode(0x21 + ((k * 7) % 94)),
      ).join("");
      const framed = new Uint8Array(n + 6).fill(0xff);
      framed.set(encode(ascii), 3);
      expect(ModifiedUtf8.decode(framed, 3, n), `ascii ${n}`).toBe(ascii);
      for (let at = 0; at < n; at++) {
        const withWide = `${ascii.slice(0, at)}é${ascii.slice(at + 1)}`;
        const b = encode(withWide);
        expect(ModifiedUtf8.decode(b, 0, b.length), `é at ${at} of ${n}`).toBe(withWide);
        const stray = encode(ascii);
        stray[at] = 0x80;
        expect(() => ModifiedUtf8.decode(stray, 0, n), `0x80 at ${at} of ${n}`).toThrow(
          `malformed input around byte ${at}`,
        );
      }
    }
  });

  test("long inputs: ASCII, and non-ASCII longer than any before", () => {
    const ascii = "abcdefgh".repeat(9000);
    expect(ModifiedUtf8.decode(encode(ascii), 0, ascii.length)).toBe(ascii);
    const asciiThenNot = `${"x".repeat(100)}é${"y".repeat(20000)}\ud800`;
    const b1 = encode(asciiThenNot);
    expect(ModifiedUtf8.decode(b1, 0, b1.length)).toBe(asciiThenNot);
    const wide = "中é\u0000".repeat(30000);
    const b2 = encode(wide);
    expect(ModifiedUtf8.decode(b2, 0, b2.length)).toBe(wide);
  });

  test("rejects a range outside the array", () => {
    const b = new Uint8Array(4);
    expect(() => ModifiedUtf8.decode(b, 2, 3)).toThrow(OutOfRangeError);
    expect(() => ModifiedUtf8.decode(b, -1, 1)).toThrow(RangeError);
    expect(() => ModifiedUtf8.decode(b, 0, -1)).toThrow(RangeError);
    expect(() => ModifiedUtf8.decode(b, 0, 1.5)).toThrow(RangeError);
  });
});

describe("UTFDataFormatError", () => {
  test("is an Error with a name and a stable code", () => {
    const e = new UTFDataFormatError("x");
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("UTFDataFormatError");
    expect(e.code).toBe("ERR_UTF_DATA_FORMAT");
    expect(String(e)).toBe("UTFDataFormatError: x");
  });
});
