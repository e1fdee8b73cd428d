import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BigEndian, ModifiedUtf8, UTFDataFormatError } from "../src/index";
import { anyUnits } from "./helpers";

const hasJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
if (!hasJava) console.warn("[@rafkit/bits] Java interop tests SKIPPED: no `java` on PATH");

const FIXTURE = fileURLToPath(new URL("./fixtures/DataIo.java", import.meta.url));
const SEED = Date.now() ^ (process.pid << 10);
const why = `fast-check seed ${SEED}`;

type Item =
  | { type: "boolean"; v: boolean }
  | { type: "byte" | "short" | "char" | "int"; v: number }
  | { type: "long"; v: bigint }
  | { type: "float"; bits: number }
  | { type: "double"; bits: bigint }
  | { type: "utf"; v: string };

const scratch = new DataView(new ArrayBuffer(8));
function floatOf(bits: number): number {
  scratch.setInt32(0, bits);
  return scratch.getFloat32(0);
}
function doubleOf(bits: bigint): number {
  scratch.setBigInt64(0, bits);
  return scratch.getFloat64(0);
}
const isFloatNaN = (bits: number) => (bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0;
const isDoubleNaN = (bits: bigint) =>
  (bits & 0x7ff0000000000000n) === 0x7ff0000000000000n && (bits & 0xfffffffffffffn) !== 0n;
// UTF-16 code units in hex (not code points: lone surrogates must survive).
const units = (s: string) =>
  s.length === 0
    ? "-"
    : Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16)).join(".");
const specLine = (it: Item) =>
  it.type === "float" || it.type === "double"
    ? `${it.type} ${it.bits}`
    : it.type === "utf"
      ? `utf ${units(it.v)}`
      : `${it.type} ${it.v}`;

// Strings at and past writeUTF's 65535-byte limit, and the awkward ones.
const SPECIAL_STRINGS = [
  "",
  "\u0000",
  "a\u0000b\u0000",
  "😀 surrogate pair",
  "\ud800 lone high",
  "lone low \udfff",
  "\udc00\ud800",
  "é ß ÿ Ā ߿ ࠀ 中 \uffff",
  "a".repeat(65535),
  "中".repeat(21845),
  `${"é".repeat(32767)}a`,
  "\u0000".repeat(32767),
  "😀".repeat(10922),
  "a".repeat(65536),
  "中".repeat(21846),
  `${"é".repeat(32767)}ab`,
  "\u0000".repeat(32768),
];

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A random string of every width (NUL, 1-3 byte units, lone surrogates) whose modified UTF-8 is exactly
 * `bytes` long: random units up to the limit, then ASCII to fill. Right at, below and past 65535.
 */
function mixedOfLength(bytes: number, seed: number): string {
  const unit = fc.oneof(
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0x80, max: 0x7ff }),
    fc.integer({ min: 0x800, max: 0xffff }),
    fc.integer({ min: 0xd800, max: 0xdfff }),
  );
  const units = fc.sample(fc.array(unit, { minLength: 40000, maxLength: 40000 }), {
    numRuns: 1,
    seed,
  })[0]!;
  let s = "";
  let n = 0;
  for (const u of units) {
    const w = u === 0 || (u > 0x7f && u <= 0x7ff) ? 2 : u > 0x7ff ? 3 : 1;
    if (n + w > bytes) break;
    s += String.fromCharCode(u);
    n += w;
  }
  return s + "a".repeat(bytes - n);
}

function makeSpec(): Item[] {
  const f = <T>(arb: fc.Arbitrary<T>, n: number) => fc.sample(arb, { numRuns: n, seed: SEED });
  const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
  const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
  const items: Item[] = [
    ...f(fc.boolean(), 20).map((v) => ({ type: "boolean" as const, v })),
    ...f(fc.integer({ min: -128, max: 127 }), 100).map((v) => ({ type: "byte" as const, v })),
    ...f(fc.integer({ min: -32768, max: 32767 }), 100).map((v) => ({ type: "short" as const, v })),
    ...f(fc.integer({ min: 0, max: 65535 }), 100).map((v) => ({ type: "char" as const, v })),
    ...[...f(int32, 200), -(2 ** 31), 2 ** 31 - 1, 0, -1].map((v) => ({ type: "int" as const, v })),
    ...[...f(int64, 200), -(2n ** 63n), 2n ** 63n - 1n, 0n, -1n].map((v) => ({
      type: "long" as const,
      v,
    })),
    ...[
      ...f(int32, 300),
      0x7fc00000,
      0x7f800001, // signalling NaN
      -1, // NaN with every bit set
      0x7f800000,
      -8388608, // -Infinity
      -2147483648, // -0
      1,
      0x7f7fffff,
    ].map((bits) => ({ type: "float" as const, bits })),
    ...[
      ...f(int64, 300),
      0x7ff8000000000000n,
      0x7ff0000000000001n,
      -1n,
      0x7ff0000000000000n,
      -(2n ** 63n),
      1n,
      0x7fefffffffffffffn,
    ].map((bits) => ({ type: "double" as const, bits })),
    ...[
      ...f(anyUnits, 300),
      ...f(fc.string({ unit: "binary", maxLength: 300 }), 50),
      ...SPECIAL_STRINGS,
      ...[65533, 65534, 65535, 65536].map((n, i) => mixedOfLength(n, SEED + 10 + i)),
    ].map((v) => ({ type: "utf" as const, v })),
  ];
  // Interleave so every type lands at many alignments.
  return fc.sample(fc.shuffledSubarray(items, { minLength: items.length }), {
    numRuns: 1,
    seed: SEED,
  })[0]!;
}

/** rafkit's encoding of the spec, and the writeUTF refusals ("toolong <line> <message>"). */
function encodeSpec(spec: Item[]): { bytes: Uint8Array; toolong: string[] } {
  const b = new Uint8Array(8 * 1024 * 1024);
  const toolong: string[] = [];
  let p = 0;
  spec.forEach((it, line) => {
    switch (it.type) {
      case "boolean":
        BigEndian.setBoolean(b, p, it.v);
        p += 1;
        break;
      case "byte":
        BigEndian.setInt8(b, p, it.v);
        p += 1;
        break;
      case "short":
        BigEndian.setInt16(b, p, it.v);
        p += 2;
        break;
      case "char":
        BigEndian.setChar(b, p, it.v);
        p += 2;
        break;
      case "int":
        BigEndian.setInt32(b, p, it.v);
        p += 4;
        break;
      case "long":
        BigEndian.setBigInt64(b, p, it.v);
        p += 8;
        break;
      case "float":
        BigEndian.setFloat32(b, p, floatOf(it.bits));
        p += 4;
        break;
      case "double":
        BigEndian.setFloat64(b, p, doubleOf(it.bits));
        p += 8;
        break;
      case "utf":
        try {
          p += ModifiedUtf8.writeUTF(it.v, b, p);
        } catch (e) {
          expect(e).toBeInstanceOf(UTFDataFormatError);
          toolong.push(`toolong ${line} ${(e as Error).message}`);
        }
        break;
    }
  });
  return { bytes: b.slice(0, p), toolong };
}

describe.skipIf(!hasJava)("Java interop (DataOutputStream / DataInputStream)", () => {
  let dir = "";
  let spec: Item[] = [];
  const java = (...args: string[]) =>
    execFileSync("java", [FIXTURE, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "rafkit-bits-java-"));
    spec = makeSpec();
    writeFileSync(join(dir, "spec.txt"), `${spec.map(specLine).join("\n")}\n`);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("Java's bytes for every primitive and writeUTF equal rafkit's exactly", () => {
    const stdout = java("write", join(dir, "spec.txt"), join(dir, "java.bin"));
    const ours = encodeSpec(spec);
    const theirs = new Uint8Array(readFileSync(join(dir, "java.bin")));
    expect(theirs.length, why).toBe(ours.bytes.length);
    expect(Buffer.from(theirs).equals(Buffer.from(ours.bytes)), why).toBe(true);
    // Java's refusals of over-long strings, message for message (Java's stdout, being UTF-8, prints a
    // lone surrogate of the quoted string as "?").
    const asPrinted = (line: string) => line.replace(LONE_SURROGATE, "?");
    expect(stdout.trim().split("\n").filter(Boolean), why).toEqual(ours.toolong.map(asPrinted));
    expect(ours.toolong.length).toBe(5);
  });

  test("rafkit decodes Java's bytes to the values Java wrote", () => {
    const b = new Uint8Array(readFileSync(join(dir, "java.bin")));
    let p = 0;
    for (const it of spec) {
      const at = `${specLine(it).slice(0, 60)} at byte ${p}; ${why}`;
      switch (it.type) {
        case "boolean":
          expect(BigEndian.getBoolean(b, p), at).toBe(it.v);
          p += 1;
          break;
        case "byte":
          expect(BigEndian.getInt8(b, p), at).toBe(it.v);
          p += 1;
          break;
        case "short":
          expect(BigEndian.getInt16(b, p), at).toBe(it.v);
          p += 2;
          break;
        case "char":
          expect(BigEndian.getChar(b, p), at).toBe(String.fromCharCode(it.v));
          p += 2;
          break;
        case "int":
          expect(BigEndian.getInt32(b, p), at).toBe(it.v);
          p += 4;
          break;
        case "long":
          expect(BigEndian.getBigInt64(b, p), at).toBe(it.v);
          if (it.v >= -(2n ** 53n) + 1n && it.v <= 2n ** 53n - 1n) {
            expect(BigEndian.getSafeInt64(b, p), at).toBe(Number(it.v));
          } else {
            expect(() => BigEndian.getSafeInt64(b, p), at).toThrow(RangeError);
          }
          p += 8;
          break;
        case "float": {
          const got = BigEndian.getFloat32(b, p);
          if (isFloatNaN(it.bits)) {
            expect(got, at).toBeNaN();
            expect(BigEndian.getInt32(b, p), at).toBe(0x7fc00000);
          } else {
            expect(got, at).toBe(floatOf(it.bits));
          }
          p += 4;
          break;
        }
        case "double": {
          const got = BigEndian.getFloat64(b, p);
          if (isDoubleNaN(it.bits)) {
            expect(got, at).toBeNaN();
            expect(BigEndian.getBigInt64(b, p), at).toBe(0x7ff8000000000000n);
          } else {
            expect(got, at).toBe(doubleOf(it.bits));
          }
          p += 8;
          break;
        }
        case "utf": {
          if (ModifiedUtf8.encodedLength(it.v) > 65535) break; // Java wrote nothing
          const len = BigEndian.getUint16(b, p);
          expect(ModifiedUtf8.decode(b, p + 2, len), at).toBe(it.v);
          p += 2 + len;
          break;
        }
      }
    }
    expect(p).toBe(b.length);
  });

  test("Java's DataInputStream reads back exactly what rafkit wrote", () => {
    const written = spec.filter(
      (it) => it.type !== "utf" || ModifiedUtf8.encodedLength(it.v) <= 65535,
    );
    writeFileSync(join(dir, "read-spec.txt"), `${written.map(specLine).join("\n")}\n`);
    writeFileSync(join(dir, "rafkit.bin"), encodeSpec(written).bytes);
    const lines = java("read", join(dir, "read-spec.txt"), join(dir, "rafkit.bin")).split("\n");
    // What Java should print, from the spec alone: floats as their canonical bits, strings as units.
    const expected = written.map((it) =>
      it.type === "float"
        ? String(isFloatNaN(it.bits) ? 0x7fc00000 : it.bits)
        : it.type === "double"
          ? String(isDoubleNaN(it.bits) ? 0x7ff8000000000000n : it.bits)
          : it.type === "utf"
            ? units(it.v)
            : String(it.v),
    );
    expect(lines.slice(0, expected.length), why).toEqual(expected);
    expect(lines[expected.length]).toBe("eof");
  });

  test("malformed and truncated modified UTF-8: readUTF and rafkit agree on every message", () => {
    const bodies: Uint8Array[] = [
      ...fc.sample(fc.uint8Array({ maxLength: 40 }), { numRuns: 400, seed: SEED }),
      ...fc
        .sample(
          fc.array(
            fc.constantFrom(
              0x00,
              0x41,
              0x7f,
              0x80,
              0xbf,
              0xc0,
              0xc1,
              0xc3,
              0xdf,
              0xe0,
              0xed,
              0xef,
              0xf0,
              0xf8,
              0xff,
            ),
            {
              maxLength: 30,
            },
          ),
          { numRuns: 600, seed: SEED + 1 },
        )
        .map((a) => Uint8Array.from(a)),
      ...fc
        .sample(fc.tuple(anyUnits, fc.nat(1000)), { numRuns: 300, seed: SEED + 2 })
        .map(([s, cut]) => {
          const e = new Uint8Array(ModifiedUtf8.encodedLength(s));
          ModifiedUtf8.encode(s, e, 0);
          return e.subarray(0, e.length === 0 ? 0 : cut % e.length);
        }),
      // Long ones, so the ASCII fast path and the non-ASCII path meet malformed input too.
      Uint8Array.from({ length: 70 }, (_, i) => (i === 69 ? 0xc3 : 0x61)),
      Uint8Array.from({ length: 100 }, (_, i) => (i === 80 ? 0x80 : 0x61)),
      Uint8Array.from({ length: 65535 }, (_, i) => (i === 65534 ? 0xe0 : 0x62)),
    ];
    const file = new Uint8Array(bodies.reduce((n, x) => n + 2 + x.length, 0));
    let p = 0;
    for (const body of bodies) {
      BigEndian.setUint16(file, p, body.length);
      file.set(body, p + 2);
      p += 2 + body.length;
    }
    writeFileSync(join(dir, "utf.bin"), file);
    const javaSays = java("readutf", join(dir, "utf.bin")).split("\n").slice(0, bodies.length);
    const weSay = bodies.map((body) => {
      try {
        return `ok ${units(ModifiedUtf8.decode(body, 0, body.length))}`;
      } catch (e) {
        expect(e).toBeInstanceOf(UTFDataFormatError);
        return `err ${(e as Error).message}`;
      }
    });
    expect(weSay, why).toEqual(javaSays);
    // The sample really exercised all three outcomes.
    expect(weSay.some((l) => l.startsWith("ok "))).toBe(true);
    expect(weSay.some((l) => l.includes("around byte"))).toBe(true);
    expect(weSay.some((l) => l.includes("partial character"))).toBe(true);
  });
});
