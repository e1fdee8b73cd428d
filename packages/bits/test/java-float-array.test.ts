import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type ByteOrder,
  decodeArray,
  doubleToLongBits,
  encodeArray,
  floatToIntBits,
  floatToRawIntBits,
  intBitsToFloat,
  type NumericArray,
} from "../src/index";

// The JDK as the reference for what DataView cannot say: Java's (float) rounding of a double, its
// canonical NaNs, and the bulk codecs in both byte orders (DataOutputStream knows only big-endian;
// a ByteBuffer of either order, through floatToIntBits / doubleToLongBits, is what the JDK's
// ByteArray / ByteArrayLittleEndian write).

const hasJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
if (!hasJava)
  console.warn("[@rafkit/bits] Java float/array interop tests SKIPPED: no `java` on PATH");

const FIXTURE = fileURLToPath(new URL("./fixtures/FloatAndArrayBits.java", import.meta.url));
const SEED = Date.now() ^ (process.pid << 10);
const why = `fast-check seed ${SEED}`;
const sample = <T>(arb: fc.Arbitrary<T>, n: number, k: number) =>
  fc.sample(arb, { numRuns: n, seed: SEED + k });

const bitsOfDouble = (d: number) => new BigInt64Array(new Float64Array([d]).buffer)[0]!;
const doubleOfBits = (bits: bigint) => new Float64Array(new BigInt64Array([bits]).buffer)[0]!;
const isDoubleNaN = (bits: bigint) =>
  (bits & 0x7ff0000000000000n) === 0x7ff0000000000000n && (bits & 0xfffffffffffffn) !== 0n;
const isFloatNaN = (bits: number) => (bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0;

/** Doubles as signed 64-bit bits: the float boundaries (subnormal, rounding ties, overflow) and NaNs. */
function doubleBits(): bigint[] {
  const f = (x: number) => bitsOfDouble(x);
  const specials = [
    0n,
    -(2n ** 63n), // -0
    1n, // Number.MIN_VALUE: rounds to a float 0
    f(1.401298464324817e-45), // the smallest float subnormal
    f(1.401298464324817e-45 / 2), // exactly half of it: a tie, to even (0)
    f(1.401298464324817e-45 * 1.5), // a tie between 1 and 2 units: to even (2)
    f(1.1754942106924411e-38), // the largest float subnormal
    f(1.1754943508222875e-38), // the smallest float normal
    f(3.4028234663852886e38), // the largest float
    0x47efffffe0000000n, // halfway between the largest float and 2^128: rounds to infinity
    0x47efffffdfffffffn, // just below it: the largest float
    f(Number.POSITIVE_INFINITY),
    f(Number.NEGATIVE_INFINITY),
    0x7ff8000000000000n,
    0x7ff0000000000001n, // signalling NaN
    0x7ff4000000000000n,
    -1n, // NaN, every bit set
    0xfff8000000000000n - 2n ** 64n, // negative quiet NaN
    f(1 + 2 ** -24), // a tie at 1: to even (1)
    f(1 + 3 * 2 ** -24), // a tie: to even (1 + 2^-22)
  ];
  return [
    ...specials,
    ...sample(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), 300, 1),
    ...sample(fc.double(), 300, 2).map(f),
    ...sample(fc.float(), 200, 3).map(f),
    ...sample(fc.double({ min: -1e-36, max: 1e-36 }), 200, 4).map(f),
  ];
}

/** Floats as signed 32-bit bits: subnormals, NaNs of every payload, random patterns. */
function floatBits(): number[] {
  return [
    0,
    -2147483648,
    1,
    0x007fffff,
    0x00800000,
    0x7f7fffff,
    0x7f800000,
    -8388608,
    0x7fc00000,
    0x7f800001,
    0x7fbfffff,
    -1,
    -4194304, // 0xffc00000
    ...sample(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), 400, 5),
    ...sample(fc.integer({ min: 0x7f800001, max: 0x7fffffff }), 50, 6),
    ...sample(fc.integer({ min: -8388607, max: -1 }), 50, 7), // negative NaNs
    ...sample(fc.integer({ min: 1, max: 0x007fffff }), 50, 8), // subnormals
  ];
}

type JavaType = "short" | "char" | "int" | "long" | "float" | "double";
type Ctor = { new (length: number): NumericArray; BYTES_PER_ELEMENT: number; name: string };

/** Each array type, the Java type that writes the same bytes, and how to fill one from random bits. */
const ARRAYS: ReadonlyArray<readonly [Ctor, JavaType, fc.Arbitrary<number | bigint>]> = [
  [Int16Array, "short", fc.integer({ min: -32768, max: 32767 })],
  [Uint16Array, "char", fc.integer({ min: 0, max: 65535 })],
  [Int32Array, "int", fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })],
  [Uint32Array, "int", fc.integer({ min: 0, max: 2 ** 32 - 1 })],
  [BigInt64Array, "long", fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })],
  [BigUint64Array, "long", fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })],
  [Float32Array, "float", fc.oneof(fc.constantFrom(...floatBits().slice(0, 13)), fc.integer())],
  [
    Float64Array,
    "double",
    fc.oneof(
      fc.constantFrom(...doubleBits().slice(0, 20)),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    ),
  ],
];

/** An array of `Type` whose elements have exactly `bits` (raw bit patterns for floats: NaN payloads kept). */
function arrayOf(Type: Ctor, bits: Array<number | bigint>): NumericArray {
  const a = new Type(bits.length);
  if (Type === Float32Array) new Int32Array(a.buffer).set(bits as number[]);
  else if (Type === Float64Array) new BigInt64Array(a.buffer).set(bits as bigint[]);
  else (a as { set(v: ArrayLike<number | bigint>): void }).set(bits);
  return a;
}

/** What Java is told an element is: signed, as its type has it. */
function javaValue(type: JavaType, v: number | bigint): string {
  if (type === "int") return String((v as number) | 0);
  if (type === "long") return String(BigInt.asIntN(64, v as bigint));
  return String(v);
}

describe.skipIf(!hasJava)("Java interop (float conversions, bulk codecs in both orders)", () => {
  let dir = "";
  const java = (...args: string[]) =>
    execFileSync("java", [FIXTURE, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "rafkit-bits-java-floats-"));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("floatToIntBits rounds a double as Java's (float) does, and every NaN is canonical", () => {
    const bits = doubleBits();
    writeFileSync(join(dir, "doubles.txt"), `${bits.join("\n")}\n`);
    const javaSays = java("doubles", join(dir, "doubles.txt")).trim().split("\n");
    expect(javaSays.length).toBe(bits.length);
    bits.forEach((b, i) => {
      const d = doubleOfBits(b);
      const [canonical, raw, long] = javaSays[i]!.split(" ");
      const at = `double bits ${b}; ${why}`;
      expect(floatToIntBits(d), at).toBe(Number(canonical));
      expect(doubleToLongBits(d), at).toBe(BigInt(long!));
      // A NaN's raw bits depend on how the engine carries it; others must match Java exactly.
      if (!isDoubleNaN(b)) expect(floatToRawIntBits(d), at).toBe(Number(raw));
    });
    // The sample holds what it is there for.
    expect(javaSays.some((l) => l.startsWith("2143289344 "))).toBe(true); // a canonical NaN
    expect(javaSays.some((l) => /^[1-9]\d{0,6} /.test(l))).toBe(true); // a float subnormal
  });

  test("intBitsToFloat gives Java's float, widened to the same double", () => {
    const bits = floatBits();
    writeFileSync(join(dir, "ints.txt"), `${bits.join("\n")}\n`);
    const javaSays = java("ints", join(dir, "ints.txt")).trim().split("\n");
    expect(javaSays.length).toBe(bits.length);
    bits.forEach((b, i) => {
      const f = intBitsToFloat(b);
      const [canonical, widened] = javaSays[i]!.split(" ");
      const at = `float bits ${b}; ${why}`;
      expect(floatToIntBits(f), at).toBe(Number(canonical));
      expect(doubleToLongBits(f), at).toBe(BigInt(widened!));
      if (!isFloatNaN(b)) expect(floatToIntBits(f), at).toBe(b);
    });
  });

  test("encodeArray writes, in both orders and at unaligned offsets, the bytes Java writes; decodeArray reads them back", () => {
    const arrays = ARRAYS.flatMap(([Type, javaType, element], k) =>
      sample(fc.array(element, { maxLength: 24 }), 12, 20 + k).map(
        (bits) => [Type, javaType, bits] as const,
      ),
    );
    writeFileSync(
      join(dir, "arrays.txt"),
      `${arrays.map(([, t, bits]) => `${t} ${bits.map((v) => javaValue(t, v)).join(",")}`).join("\n")}\n`,
    );
    java("arrays", join(dir, "arrays.txt"), join(dir, "big.bin"), join(dir, "little.bin"));
    for (const order of ["big", "little"] as ByteOrder[]) {
      const theirs = new Uint8Array(readFileSync(join(dir, `${order}.bin`)));
      // Ours one after the other from byte 1 (odd, so every element is unaligned somewhere).
      const ours = new Uint8Array(1 + theirs.length);
      let p = 1;
      for (const [Type, , bits] of arrays) {
        encodeArray(arrayOf(Type, bits), 0, bits.length, ours, p, order);
        p += bits.length * Type.BYTES_PER_ELEMENT;
      }
      expect(p - 1, why).toBe(theirs.length);
      expect(Buffer.from(ours.subarray(1)).equals(Buffer.from(theirs)), `${order}; ${why}`).toBe(
        true,
      );
      // Java's bytes decode to the elements Java wrote (floats as Java's canonical bits).
      p = 0;
      for (const [Type, javaType, bits] of arrays) {
        const back = new Type(bits.length);
        decodeArray(theirs, p, back, 0, bits.length, order);
        const expected = arrayOf(
          Type,
          javaType === "float"
            ? (bits as number[]).map((b) => (isFloatNaN(b) ? 0x7fc00000 : b))
            : javaType === "double"
              ? (bits as bigint[]).map((b) => (isDoubleNaN(b) ? 0x7ff8000000000000n : b))
              : bits,
        );
        expect(new Uint8Array(back.buffer), `${Type.name} at ${p}, ${order}; ${why}`).toEqual(
          new Uint8Array(expected.buffer),
        );
        p += bits.length * Type.BYTES_PER_ELEMENT;
      }
    }
  });
});
