import { writeFileSync } from "node:fs";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

// Issue 21's gaps to the JDK, each pinned here: a signalling NaN read as a float, skipBytes' `int` result
// from far past the end, positions beyond 2^53, and async methods that threw instead of rejecting.

const tmp = tempDir();
const backend = isNativeAvailable() ? "native" : "node";
type AnyFile = RandomAccessFile | AsyncRandomAccessFile;
const open = async (
  kind: "sync" | "async",
  p: string,
  bufferSize = 8192,
  order: "big" | "little" = "big",
) =>
  kind === "sync"
    ? new RandomAccessFile(p, "rw", { backend, bufferSize, byteOrder: order })
    : AsyncRandomAccessFile.open(p, "rw", { backend, bufferSize, byteOrder: order });

const scratch = new DataView(new ArrayBuffer(8));
/** The float32 bits a number stores as (what `Float.floatToRawIntBits` of Java's float would be). */
const float32Bits = (v: number) => {
  scratch.setFloat32(0, v);
  return scratch.getUint32(0);
};
const float64Bits = (v: number) => {
  scratch.setFloat64(0, v);
  return scratch.getBigUint64(0);
};

describe.each(["sync", "async"] as const)("a signalling NaN read back (%s class)", (kind) => {
  test.each([
    [0, "big"],
    [0, "little"],
    [8192, "big"],
    [8192, "little"],
  ] as const)("bufferSize %i, %s-endian: what each path returns", async (bufferSize, order) => {
    const f: AnyFile = await open(kind, tmp("snan.bin"), bufferSize, order);
    await f.writeInt(0x7fbfffff); // Java: Float.floatToRawIntBits(readFloat()) gives 0x7fbfffff back
    await f.writeInt(0xffa00001 | 0);
    await f.writeLong(0x7ff0000000000001n);
    await f.seek(0);
    // readFloat/readFloatAt: a NaN, but widening to a number set the quiet bit (0x00400000).
    const x = await f.readFloat();
    expect(Number.isNaN(x)).toBe(true);
    expect(float32Bits(x)).toBe(0x7fffffff);
    expect(float32Bits(await f.readFloat())).toBe(0xffe00001);
    expect(float32Bits(await f.readFloatAt(0))).toBe(0x7fffffff);
    // readInt, converted by the caller: the exact bits.
    expect((await f.readIntAt(0)) >>> 0).toBe(0x7fbfffff);
    // readFloats into a Float32Array: the elements hold the file's bits untouched.
    await f.seek(0);
    const fa = new Float32Array(2);
    await f.readFloats(fa);
    expect(Array.from(new Uint32Array(fa.buffer))).toEqual([0x7fbfffff, 0xffa00001]);
    // A double's signalling NaN keeps its bits in V8 (no widening happens).
    expect(float64Bits(await f.readDouble())).toBe(0x7ff0000000000001n);
    expect(float64Bits(await f.readDoubleAt(8))).toBe(0x7ff0000000000001n);
    // Writing the quieted float back writes Java's canonical NaN, as writeFloat does for every NaN.
    await f.writeFloatAt(0, x);
    expect((await f.readIntAt(0)) >>> 0).toBe(0x7fc00000);
    await f.close();
  });
});

describe.each(["sync", "async"] as const)(
  "results Java types as int or long (%s class)",
  (kind) => {
    test("skipBytes from far past the end wraps to Java's int, after moving back to the end", async () => {
      const p = tmp("skip.bin");
      writeFileSync(p, new Uint8Array(0));
      const f: AnyFile = await open(kind, p);
      await f.seek(4294967306);
      expect(await f.skipBytes(1)).toBe(-10); // (int) (0 - 4294967306)
      expect(await f.getFilePointer()).toBe(0);
      await f.seek(2 ** 31 + 5);
      expect(await f.skipBytes(7)).toBe(2147483643); // (int) -2147483653
      expect(await f.getFilePointer()).toBe(0);
      await f.seek(12);
      expect(await f.skipBytes(3)).toBe(-12); // small distances are exact
      await f.writeInt(1);
      await f.seek(1);
      expect(await f.skipBytes(2 ** 40)).toBe(3); // n beyond int: the distance moved, never more
      await f.close();
    });

    test("positions are exact up to 2^53 - 1; beyond, seek refuses (ERR_OUT_OF_RANGE) and nothing moves", async () => {
      const f: AnyFile = await open(kind, tmp("far.bin"));
      await f.seek(Number.MAX_SAFE_INTEGER);
      expect(await f.getFilePointer()).toBe(Number.MAX_SAFE_INTEGER);
      await f.seek(2n ** 53n - 1n);
      expect(await f.getFilePointer()).toBe(2 ** 53 - 1);
      await expect((async () => f.seek(2n ** 53n))()).rejects.toMatchObject({
        code: "ERR_OUT_OF_RANGE",
      });
      await expect((async () => f.seek(2 ** 53))()).rejects.toMatchObject({
        code: "ERR_OUT_OF_RANGE",
      });
      expect(await f.getFilePointer()).toBe(2 ** 53 - 1);
      expect(await f.length()).toBe(0);
      await f.close();
    });
  },
);

/** Methods of the async class that return something other than a Promise, and so may throw: streams. */
const RETURNS_NO_PROMISE = new Set(["createReadStream", "createWriteStream"]);
const BAD: readonly unknown[] = [
  null,
  undefined,
  {},
  "1",
  -1,
  Number.NaN,
  2 ** 60,
  -(2n ** 70n),
  Symbol("x"),
];

describe("AsyncRandomAccessFile: a bad argument rejects, never throws", () => {
  const prototype = AsyncRandomAccessFile.prototype as unknown as Record<
    string | symbol,
    (...args: unknown[]) => unknown
  >;
  // The whole prototype chain: the primitive methods live on the class's generated base class.
  const methods: (string | symbol)[] = [];
  for (let p: object = prototype; p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const key of Reflect.ownKeys(p)) {
      const d = Object.getOwnPropertyDescriptor(p, key)!;
      if (key !== "constructor" && typeof d.value === "function" && !methods.includes(key))
        methods.push(key);
    }
  }

  test("the surface enumerated is the whole surface", () => {
    // A new method joins the sweep below by itself; this only guards against enumerating nothing.
    expect(methods.length).toBeGreaterThanOrEqual(75);
    expect(methods).toContain("readFully");
    expect(methods).toContain(Symbol.asyncDispose);
  });

  test.each([false, true])(
    "every method, each argument bad in turn (instance busy: %s)",
    async (busy) => {
      const p = tmp("reject.bin");
      writeFileSync(p, new Uint8Array(16));
      const threw: string[] = [];
      let calls = 0;
      for (const key of methods) {
        if (typeof key === "string" && RETURNS_NO_PROMISE.has(key)) continue;
        for (let at = 0; at < 4; at++) {
          for (const bad of BAD) {
            const f = await AsyncRandomAccessFile.open(p, "rw", { backend });
            const pending = busy ? f.length() : undefined;
            const args = [new Uint8Array(8), 0, 4, 0].map((ok, k) => (k === at ? bad : ok));
            args.length = at + 1;
            const call = `${String(key)}(${args.map(String).join(", ")})`;
            let result: unknown;
            try {
              result = prototype[key]!.apply(f, args);
            } catch (error) {
              threw.push(`${call} threw ${error}`);
            }
            calls++;
            if (result instanceof Promise) await result.catch(() => undefined);
            else if (result !== undefined) threw.push(`${call} returned no Promise`);
            await pending;
            await f.close().catch(() => undefined);
          }
        }
      }
      expect(threw).toEqual([]);
      expect(calls).toBeGreaterThan(2000);
    },
    120_000,
  );

  test("the static open rejects for every bad argument", async () => {
    const statics = Reflect.ownKeys(AsyncRandomAccessFile).filter(
      (key) =>
        typeof (AsyncRandomAccessFile as unknown as Record<string | symbol, unknown>)[key] ===
        "function",
    );
    expect(statics).toEqual(["open"]);
    for (let at = 0; at < 3; at++) {
      // A string path is a good one (it would create the file here): bad paths are the other values.
      for (const bad of BAD.filter((v) => at !== 0 || typeof v !== "string")) {
        const args: unknown[] = [tmp("open.bin"), "rw", {}].map((ok, k) => (k === at ? bad : ok));
        let result: unknown;
        expect(() => {
          result = (AsyncRandomAccessFile.open as (...a: unknown[]) => unknown)(...args);
        }).not.toThrow();
        expect(result).toBeInstanceOf(Promise);
        const f = await (result as Promise<AsyncRandomAccessFile>).catch(() => undefined);
        await f?.close();
      }
    }
  });

  test("readFully(null) and the bulk reads' default counts reject with the TypeError", async () => {
    const f = await AsyncRandomAccessFile.open(tmp("null.bin"), "rw", { backend });
    const calls: (() => Promise<unknown>)[] = [
      () => f.readFully(null as unknown as Uint8Array),
      () => f.readInts(null as unknown as Int32Array),
      () => f.writeDoubles(undefined as unknown as Float64Array, 1),
      () => f.readAt(0, null as unknown as Uint8Array),
      () => f.writeAt(0, null as unknown as Uint8Array),
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(TypeError);
    await f.close();
  });
});
