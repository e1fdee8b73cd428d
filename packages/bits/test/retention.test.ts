import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, test } from "vitest";
import { BigEndian, ModifiedUtf8 } from "../src/index";
import { resizableBuffer } from "./helpers";

// A full collection on demand, without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MIB = 1 << 20;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Large objects are made and used in functions of their own: a frame that is gone holds nothing, where the
// test's own frame (interpreted, as under coverage) may keep a temporary copy of a variable set to null.

/** Uses a 64 MiB array with the codec, then a small one; a weak reference to the large one's buffer. */
function useLargeThenSmall(window: boolean): WeakRef<ArrayBuffer> {
  const buffer = new ArrayBuffer(64 * MIB);
  BigEndian.setInt32(window ? new Uint8Array(buffer, 1000, 16) : new Uint8Array(buffer), 0, 1);
  BigEndian.getInt32(new Uint8Array(8), 0); // the large array moves to the second slot
  return new WeakRef(buffer);
}

test("the view cache lets a large array go a second after its last lookup", async () => {
  const ref = useLargeThenSmall(false);
  gc();
  // Compared, not printed: a failure message must not format 64 MiB.
  expect(ref.deref() !== undefined, "held by the cache until the release").toBe(true);
  await pause(1200);
  gc();
  expect(ref.deref() === undefined, "let go after the release").toBe(true);
});

test("a window into a large buffer counts as large: the buffer is let go of too", async () => {
  const ref = useLargeThenSmall(true);
  await pause(1200);
  gc();
  expect(ref.deref() === undefined, "let go after the release").toBe(true);
});

/** Uses a small growable SharedArrayBuffer, then a small array, then grows the first to 64 MiB; a weak reference to it. */
function useGrowableThenSmall(): WeakRef<SharedArrayBuffer> {
  const Growable = SharedArrayBuffer as unknown as new (
    n: number,
    o: { maxByteLength: number },
  ) => SharedArrayBuffer & { grow(n: number): void };
  const buffer = new Growable(64, { maxByteLength: 64 * MIB });
  BigEndian.setInt32(new Uint8Array(buffer), 0, 1); // small when its view is made
  BigEndian.getInt32(new Uint8Array(8), 0);
  buffer.grow(64 * MIB); // as another thread may, with no access here to renew the view
  return new WeakRef(buffer);
}

test("a growable SharedArrayBuffer counts as large, as a resizable ArrayBuffer does", async () => {
  // It was judged by its size when first seen (64 bytes), so once grown it stayed in the cache.
  const ref = useGrowableThenSmall();
  await pause(1200);
  gc();
  expect(ref.deref() === undefined, "let go after the release").toBe(true);
});

test("an array in use is found again after the release", async () => {
  const big = new Uint8Array(2 * MIB);
  BigEndian.setFloat64(big, 8, 1.5);
  await pause(1200);
  expect(BigEndian.getFloat64(big, 8)).toBe(1.5);
  BigEndian.setFloat64(big, 2 * MIB - 8, -2);
  expect(BigEndian.getFloat64(big, 2 * MIB - 8)).toBe(-2);
});

test("the release survives cached arrays whose buffer was detached or shrunk", async () => {
  // Arms the timer, then leaves views that throw when asked their length in both slots.
  BigEndian.getInt32(new Uint8Array(2 * MIB), 0);
  const resizable = resizableBuffer(2 * MIB, 4 * MIB);
  const tracking = new Uint8Array(resizable);
  BigEndian.setInt32(tracking, 2 * MIB - 4, 7);
  const small = new Uint8Array(64);
  BigEndian.setInt32(small, 0, 1);
  resizable.resize(1024);
  structuredClone(small.buffer, { transfer: [small.buffer] });
  // Detached: an out-of-range error, as before the view cache had a timer.
  expect(() => BigEndian.getBigInt64(small, 0)).toThrow(RangeError);
  // An uncaught error in the timer would end the test process.
  await pause(1200);
  expect(BigEndian.getInt32(tracking, 1020)).toBe(0);
  expect(() => BigEndian.getInt32(tracking, 2 * MIB - 4)).toThrow(RangeError);
});

/** Decodes 16 Mi two-byte characters (32 MiB of input); the decoded length. */
function decodeLong(): number {
  const units = 16 * MIB;
  const bytes = new Uint8Array(units * 2);
  for (let i = 0; i < bytes.length; i += 2) {
    bytes[i] = 0xc3; // "é" as two bytes
    bytes[i + 1] = 0xa9;
  }
  const s = ModifiedUtf8.decode(bytes, 0, bytes.length);
  return s.charCodeAt(units - 1) === 0xe9 ? s.length : -1;
}

/** `arrayBuffers` once collected memory is accounted for: V8 frees array buffers' memory after a GC, a little later. */
async function settledArrayBuffers(atMost: number): Promise<number> {
  let bytes = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 50 && bytes > atMost; i++) {
    gc();
    await pause(20);
    bytes = process.memoryUsage().arrayBuffers;
  }
  return bytes;
}

test("a long non-ASCII decode does not keep its scratch array", async () => {
  expect(ModifiedUtf8.decode(new Uint8Array([0xc3, 0xa9]), 0, 2)).toBe("é");
  const before = await settledArrayBuffers(0);
  expect(decodeLong()).toBe(16 * MIB);
  // Without the cap, the scratch array alone would stay 32 MiB more.
  expect(await settledArrayBuffers(before + 8 * MIB)).toBeLessThan(before + 8 * MIB);
});
