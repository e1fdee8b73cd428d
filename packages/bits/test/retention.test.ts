import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, test } from "vitest";
import { BigEndian, ModifiedUtf8 } from "../src/index";

// A full collection on demand, without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MIB = 1 << 20;

test("the view cache lets a large array go a second after its last lookup", async () => {
  let big: Uint8Array | null = new Uint8Array(64 * MIB);
  BigEndian.setInt32(big, 0, 1);
  const ref = new WeakRef(big);
  big = null;
  BigEndian.getInt32(new Uint8Array(8), 0); // the large array moves to the second slot
  gc();
  // Compared, not printed: a failure message must not format 64 MiB.
  expect(ref.deref() !== undefined, "held by the cache until the release").toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  gc();
  expect(ref.deref() === undefined, "let go after the release").toBe(true);
});

test("an array in use is found again after the release", async () => {
  const big = new Uint8Array(2 * MIB);
  BigEndian.setFloat64(big, 8, 1.5);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  expect(BigEndian.getFloat64(big, 8)).toBe(1.5);
  BigEndian.setFloat64(big, 2 * MIB - 8, -2);
  expect(BigEndian.getFloat64(big, 2 * MIB - 8)).toBe(-2);
});

test("a long non-ASCII decode does not keep its scratch array", () => {
  const units = 16 * MIB; // 32 MiB of UTF-16 scratch if kept
  let bytes: Uint8Array | null = new Uint8Array(units * 2);
  for (let i = 0; i < bytes.length; i += 2) {
    bytes[i] = 0xc3; // "é" as two bytes
    bytes[i + 1] = 0xa9;
  }
  const short = ModifiedUtf8.decode(new Uint8Array([0xc3, 0xa9]), 0, 2);
  expect(short).toBe("é");
  gc();
  const before = process.memoryUsage().arrayBuffers;
  let s: string | null = ModifiedUtf8.decode(bytes, 0, bytes.length);
  expect(s.length).toBe(units);
  expect(s.charCodeAt(units - 1)).toBe(0xe9);
  s = null;
  bytes = null;
  gc();
  const after = process.memoryUsage().arrayBuffers;
  // The input (32 MiB) is gone too: without the cap, the scratch alone would be 32 MiB more.
  expect(after - before).toBeLessThan(8 * MIB);
});
