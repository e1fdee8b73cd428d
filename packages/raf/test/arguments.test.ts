import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { describe, expect, test } from "vitest";
import {
  AsyncRandomAccessFile,
  OutOfRangeError,
  RandomAccessFile,
  type RandomAccessFileOptions,
} from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();
const backend = isNativeAvailable() ? "native" : "node";

type AnyFile = RandomAccessFile | AsyncRandomAccessFile;
/** Every public method argument that feeds the pointer, a position, a length, a count or a size. */
const calls: [string, (f: AnyFile, v: number) => unknown][] = [
  ["skipBytes", (f, v) => f.skipBytes(v)],
  ["seek", (f, v) => f.seek(v)],
  ["setLength", (f, v) => f.setLength(v)],
  ["read(buf, off)", (f, v) => f.read(new Uint8Array(4), v)],
  ["read(buf, 0, len)", (f, v) => f.read(new Uint8Array(4), 0, v)],
  ["readFully(buf, off)", (f, v) => f.readFully(new Uint8Array(4), v)],
  ["readFully(buf, 0, len)", (f, v) => f.readFully(new Uint8Array(4), 0, v)],
  ["write(buf, off)", (f, v) => f.write(new Uint8Array(4), v)],
  ["write(buf, 0, len)", (f, v) => f.write(new Uint8Array(4), 0, v)],
  ["readAt", (f, v) => f.readAt(v, new Uint8Array(4))],
  ["readAt(pos, buf, 0, len)", (f, v) => f.readAt(0, new Uint8Array(4), 0, v)],
  ["readFullyAt", (f, v) => f.readFullyAt(v, new Uint8Array(4))],
  ["writeAt", (f, v) => f.writeAt(v, new Uint8Array(4))],
  ["writeAt(pos, buf, off)", (f, v) => f.writeAt(0, new Uint8Array(4), v)],
  ["readIntAt", (f, v) => f.readIntAt(v)],
  ["writeIntAt", (f, v) => f.writeIntAt(v, 1)],
  ["readUTFAt", (f, v) => f.readUTFAt(v)],
  ["writeUTFAt", (f, v) => f.writeUTFAt(v, "x")],
  ["readInts(dst, off)", (f, v) => f.readInts(new Int32Array(2), v)],
  ["readInts(dst, 0, count)", (f, v) => f.readInts(new Int32Array(2), 0, v)],
  ["writeDoubles(src, off)", (f, v) => f.writeDoubles(new Float64Array(2), v)],
  ["writeDoubles(src, 0, count)", (f, v) => f.writeDoubles(new Float64Array(2), 0, v)],
  ["createReadStream start", (f, v) => f.createReadStream({ start: v })],
  ["createReadStream end", (f, v) => f.createReadStream({ end: v })],
  ["createReadStream highWaterMark", (f, v) => f.createReadStream({ highWaterMark: v })],
  ["createWriteStream start", (f, v) => f.createWriteStream({ start: v })],
  ["createWriteStream highWaterMark", (f, v) => f.createWriteStream({ highWaterMark: v })],
];
/** The calls whose argument is a file position or length, where a bigint is as good as a number. */
const TAKES_BIGINT = new Set([
  "seek",
  "setLength",
  "readAt",
  "readFullyAt",
  "writeAt",
  "readIntAt",
  "writeIntAt",
  "readUTFAt",
  "writeUTFAt",
  "lock position",
  "lock size",
  "tryLock position",
  "tryLock size",
  "createReadStream start",
  "createReadStream end",
  "createWriteStream start",
]);
if (backend === "native") {
  calls.push(
    ["lock position", (f, v) => f.lock({ position: v })],
    ["lock size", (f, v) => f.lock({ size: v })],
    ["tryLock position", (f, v) => f.tryLock({ position: v })],
    ["tryLock size", (f, v) => f.tryLock({ size: v })],
  );
} else console.warn("native backend unavailable: lock arguments are not checked here");

/** `p` opened by the `kind` class on this run's backend, in `mode` ("rw" by default), with `options`. */
const open = async (
  kind: "sync" | "async",
  p: string,
  mode: "r" | "rw" = "rw",
  options: RandomAccessFileOptions = {},
): Promise<AnyFile> =>
  kind === "sync"
    ? new RandomAccessFile(p, mode, { backend, ...options })
    : AsyncRandomAccessFile.open(p, mode, { backend, ...options });

/**
 * Every call of {@link calls} with `bad` fails with `expected` ("name code") and changes nothing: not the pointer
 * (at 3 after a buffered write), the length, or the file's bytes once closed. A bigint skips the calls that take one.
 */
async function everyCallFails(
  kind: "sync" | "async",
  bad: unknown,
  expected: string,
): Promise<void> {
  const p = tmp("args.bin");
  const original = Uint8Array.from({ length: 16 }, (_, k) => k);
  writeFileSync(p, original);
  const f = await open(kind, p);
  await f.seek(2);
  await f.writeByte(0xee); // buffered: the window is dirty, the pointer at 3
  const failures: string[] = [];
  for (const [name, call] of calls) {
    if (typeof bad === "bigint" && TAKES_BIGINT.has(name)) continue;
    const outcome = await (async () => call(f, bad as number))().then(
      () => "no error",
      (e: { name?: string; code?: string }) => `${e.name} ${e.code}`,
    );
    if (outcome !== expected) failures.push(`${name}: ${outcome}`);
    if ((await f.getFilePointer()) !== 3) failures.push(`${name}: moved the pointer`);
  }
  expect(failures).toEqual([]);
  expect(await f.length()).toBe(16);
  await f.close();
  const expectedBytes = Uint8Array.from(original);
  expectedBytes[2] = 0xee;
  expect(new Uint8Array(readFileSync(p))).toEqual(expectedBytes);
}

describe.each(["sync", "async"] as const)("numeric arguments (%s class)", (kind) => {
  test.each([Number.NaN, 1.5, -1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    "%d: every method fails with ERR_OUT_OF_RANGE before changing the pointer, the window or the file",
    (bad) => everyCallFails(kind, bad, "RangeError ERR_OUT_OF_RANGE"),
  );

  test.each([
    ["a numeric string", "1"],
    ["null", null],
    ["an object", { valueOf: (): number => 1 }],
    ["a symbol", Symbol("one")],
    ["a bigint", 1n],
  ])(
    "%s: every method fails with ERR_INVALID_ARG_TYPE before changing the pointer, the window or the file",
    (_, bad) => everyCallFails(kind, bad, "TypeError ERR_INVALID_ARG_TYPE"),
  );

  test.each([0, 8192])(
    "-0 is 0: seek and setLength leave a pointer of +0 (bufferSize %d)",
    async (bufferSize) => {
      const p = tmp(`args-negzero-${bufferSize}.bin`);
      writeFileSync(p, new Uint8Array(8));
      const f = await open(kind, p, "rw", { bufferSize });
      await f.seek(4);
      await f.seek(-0);
      expect(Object.is(await f.getFilePointer(), 0)).toBe(true);
      await f.setLength(-0);
      expect(Object.is(await f.getFilePointer(), 0)).toBe(true);
      await f.close();
    },
  );

  test("an unsafe long read as a number is an OutOfRangeError, as every ERR_OUT_OF_RANGE", async () => {
    const p = tmp("args-unsafe-long.bin");
    writeFileSync(p, new Uint8Array([0, 0x20, 0, 0, 0, 0, 0, 0]));
    const f = await open(kind, p);
    await expect((async () => f.readLongAsNumber())()).rejects.toBeInstanceOf(OutOfRangeError);
    await expect((async () => f.readLongAsNumberAt(0))()).rejects.toBeInstanceOf(OutOfRangeError);
    await f.close();
  });

  test("setLength: Java's EINVAL for a negative integer only", async () => {
    const p = tmp("args-setlength.bin");
    writeFileSync(p, new Uint8Array(8));
    const f = await open(kind, p);
    for (const negative of [-1, -1n, -(2 ** 53)]) {
      await expect((async () => f.setLength(negative))()).rejects.toMatchObject({
        code: "EINVAL",
        syscall: "ftruncate",
        path: p,
      });
    }
    expect(await f.length()).toBe(8);
    await f.close();
  });

  test("skipBytes and highWaterMark take a non-number as a TypeError (ERR_INVALID_ARG_TYPE)", async () => {
    const p = tmp("args-type.bin");
    writeFileSync(p, new Uint8Array(8));
    const f = await open(kind, p);
    await expect((async () => f.skipBytes("2" as unknown as number))()).rejects.toMatchObject({
      name: "TypeError",
      code: "ERR_INVALID_ARG_TYPE",
    });
    expect(() => f.createReadStream({ highWaterMark: "1" as unknown as number })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARG_TYPE" }),
    );
    expect(() => f.createReadStream({ highWaterMark: -1 })).toThrow(
      expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }),
    );
    // Negative counts are Java's: skipBytes moves nothing.
    expect(await f.skipBytes(-3)).toBe(0);
    expect(await f.skipBytes(5)).toBe(5);
    expect(await f.getFilePointer()).toBe(5);
    await f.close();
  });
});

describe("open options", () => {
  test.each([
    ["options null", null, "ERR_INVALID_ARG_TYPE"],
    ["bufferSize a string", { bufferSize: "8" }, "ERR_INVALID_ARG_TYPE"],
    ["bufferSize a bigint", { bufferSize: 8n }, "ERR_INVALID_ARG_TYPE"],
    ["bufferSize null", { bufferSize: null }, "ERR_INVALID_ARG_TYPE"],
    ["backend null", { backend: null }, "ERR_INVALID_ARG_TYPE"],
    ["backend an empty object", { backend: {} }, "ERR_INVALID_ARG_TYPE"],
    ["backend an array", { backend: [] }, "ERR_INVALID_ARG_TYPE"],
    // A value of the right type that is no byte order, as @rafkit/bits answers it.
    ["byteOrder null", { byteOrder: null }, "ERR_INVALID_ARG_VALUE"],
  ])("%s: a TypeError from both classes, before any I/O", async (_, options, code) => {
    const p = tmp("options.bin");
    const opts = options as unknown as RandomAccessFileOptions;
    expect(() => new RandomAccessFile(p, "rw", opts)).toThrow(
      expect.objectContaining({ name: "TypeError", code }),
    );
    await expect(AsyncRandomAccessFile.open(p, "rw", opts)).rejects.toMatchObject({
      name: "TypeError",
      code,
    });
    expect(existsSync(p)).toBe(false);
  });
});

describe("positional byte transfers with more than one bad argument", () => {
  test("throw the same error from both classes: the buffer and its range are checked before the position", async () => {
    const p = tmp("two-bad.bin");
    const sync = new RandomAccessFile(p, "rw");
    const async = await AsyncRandomAccessFile.open(p, "rw");
    const calls: [string, unknown[]][] = [
      ["a bad range and a fractional position", [1.5, new Uint8Array(4), 0, 10]],
      ["no buffer and a negative position", [-1, null]],
    ];
    for (const method of ["readAt", "readFullyAt", "writeAt"] as const) {
      for (const [what, args] of calls) {
        const outcome = async (f: AnyFile) =>
          (async () => (f[method] as (...a: unknown[]) => unknown)(...args))().then(
            () => "no error",
            (e: Error & { code?: string }) => `${e.name} ${e.code} ${e.message}`,
          );
        expect(await outcome(async), `${method}: ${what}`).toBe(await outcome(sync));
      }
    }
    sync.close();
    await async.close();
  });
});

describe("options left undefined", () => {
  // A variable of type `T | undefined`, as `exactOptionalPropertyTypes` users pass them: the types accept it.
  const unset = <T>(): T | undefined => undefined;

  test("mean their defaults, in the open, lock and stream options alike", async () => {
    const p = tmp("undefined-options.bin");
    const options: RandomAccessFileOptions = {
      bufferSize: unset<number>(),
      byteOrder: unset<"big">(),
      backend: unset<"auto">(),
    };
    for (const f of [
      new RandomAccessFile(p, "rw", options),
      await AsyncRandomAccessFile.open(p, "rw", options),
    ]) {
      await f.writeInt(0x01020304); // big-endian, buffered
      await f.seek(0);
      expect(await f.readUnsignedByte()).toBe(1);
      if (backend === "native") {
        const lock = await f.lock({
          shared: unset<boolean>(),
          position: unset<number>(),
          size: unset<number>(),
        });
        expect(lock).toMatchObject({ shared: false, position: 0 });
        await lock.release();
      }
      f.createReadStream({
        start: unset<number>(),
        end: unset<number>(),
        highWaterMark: unset<number>(),
      }).destroy();
      f.createWriteStream({ start: unset<number>(), highWaterMark: unset<number>() }).destroy();
      await f.close();
    }
  });
});

describe.each(["sync", "async"] as const)("method options (%s class)", (kind) => {
  test("null options of lock, tryLock and the stream factories, a non-boolean shared: ERR_INVALID_ARG_TYPE", async () => {
    const p = tmp("method-options.bin");
    writeFileSync(p, new Uint8Array(8));
    const f = await open(kind, p);
    const none = null as unknown as object;
    const calls: [string, () => unknown][] = [
      ["createReadStream", () => f.createReadStream(none)],
      ["createWriteStream", () => f.createWriteStream(none)],
    ];
    if (backend === "native")
      calls.push(
        ["lock", () => f.lock(none)],
        ["tryLock", () => f.tryLock(none)],
        // Not truthiness: "yes" would have taken an exclusive lock.
        ["lock shared 'yes'", () => f.lock({ shared: "yes" as never })],
        ["tryLock shared 1", () => f.tryLock({ shared: 1 as never })],
      );
    for (const [name, call] of calls) {
      const outcome = await (async () => call())().then(
        () => "no error",
        (e: { name?: string; code?: string }) => `${e.name} ${e.code}`,
      );
      expect(outcome, name).toBe("TypeError ERR_INVALID_ARG_TYPE");
    }
    await f.close();
  });
});

/** Calls that take a buffer or a typed array, each with a wrong one. */
const wrongContainers: [string, (f: AnyFile, mem: ArrayBuffer) => unknown][] = [
  // A method's element width, not the array's: the bytes beside the view would be read or written.
  ["readInts(Int16Array view)", (f, mem) => f.readInts(new Int16Array(mem, 0, 4) as never)],
  ["readShorts(Int32Array)", (f) => f.readShorts(new Int32Array(1) as never)],
  ["readInts(Float32Array)", (f) => f.readInts(new Float32Array(2) as never)],
  ["readDoubles(Int32Array)", (f) => f.readDoubles(new Int32Array(2) as never)],
  ["readLongs(Float64Array)", (f) => f.readLongs(new Float64Array(1) as never)],
  ["readInts(number[])", (f) => f.readInts([0, 0] as never)],
  ["readInts(null)", (f) => f.readInts(null as never)],
  ["writeLongs(Int32Array)", (f) => f.writeLongs(Int32Array.of(1, 2) as never)],
  ["writeInts(Float64Array)", (f) => f.writeInts(new Float64Array(1) as never)],
  ["writeDoubles(Float32Array)", (f) => f.writeDoubles(new Float32Array(2) as never)],
  ["writeShorts(Uint32Array)", (f) => f.writeShorts(new Uint32Array(1) as never)],
  ["writeFloats(undefined)", (f) => f.writeFloats(undefined as never)],
  // Bytes are a Uint8Array: another typed array would be cut to its low bytes, or read as one.
  ["write(Uint16Array)", (f) => f.write(Uint16Array.of(0x4142) as never)],
  ["write(string)", (f) => f.write("abc" as never)],
  ["write([1, 2])", (f) => f.write([1, 2] as never)],
  ["read(Uint8ClampedArray)", (f) => f.read(new Uint8ClampedArray(2) as never)],
  ["read(null)", (f) => f.read(null as never)],
  ["readFully(Int8Array)", (f) => f.readFully(new Int8Array(2) as never)],
  ["readFully(null)", (f) => f.readFully(null as never)],
  ["readAt(0, DataView)", (f, mem) => f.readAt(0, new DataView(mem) as never)],
  ["readFullyAt(0, ArrayBuffer)", (f, mem) => f.readFullyAt(0, mem as never)],
  ["writeAt(0, Uint16Array)", (f) => f.writeAt(0, new Uint16Array(1) as never)],
];

describe.each(["sync", "async"] as const)(
  "buffers and arrays of the wrong kind (%s class)",
  (kind) => {
    test.each([{}, { bufferSize: 0 }, { bufferSize: 8 }])(
      "ERR_INVALID_ARG_TYPE with every bufferSize (%o), before any I/O: nothing read, written or moved",
      async (options) => {
        const p = tmp("containers.bin");
        const original = Uint8Array.from({ length: 64 }, (_, k) => 0x40 + k);
        writeFileSync(p, original);
        const f = await open(kind, p, "rw", options);
        await f.readInt(); // some of the file in the window
        await f.seek(32);
        const failures: string[] = [];
        for (const [name, call] of wrongContainers) {
          const mem = new ArrayBuffer(16);
          const outcome = await (async () => call(f, mem))().then(
            () => "no error",
            (e: { name?: string; code?: string }) => `${e.name} ${e.code}`,
          );
          if (outcome !== "TypeError ERR_INVALID_ARG_TYPE") failures.push(`${name}: ${outcome}`);
          if ((await f.getFilePointer()) !== 32) failures.push(`${name}: moved the pointer`);
          if (new Uint8Array(mem).some((b) => b !== 0)) failures.push(`${name}: wrote into memory`);
        }
        expect(failures).toEqual([]);
        await f.close();
        expect(new Uint8Array(readFileSync(p))).toEqual(original);
      },
    );

    test("a bulk array's subclass cannot point the read outside its view (byteOffset, buffer, length overridden)", async () => {
      const p = tmp("lying-array.bin");
      writeFileSync(p, Uint8Array.of(0, 0, 0, 1, 0, 0, 0, 2));
      const f = await open(kind, p, "r");
      class Lying extends Int32Array {
        override get byteOffset(): number {
          return 0;
        }
        override get length(): number {
          return 4;
        }
      }
      const memory = new ArrayBuffer(16);
      const view = new Lying(memory, 8, 2);
      await f.readInts(view);
      expect([...view]).toEqual([1, 2]);
      expect([...new Int32Array(memory, 0, 2)]).toEqual([0, 0]);
      await f.close();
    });

    test("a Buffer is bytes; a Uint8Array subclass's own length and subarray are not believed", async () => {
      const p = tmp("subclass.bin");
      const f = await open(kind, p);
      class Lying extends Uint8Array {
        override get length(): number {
          return 100;
        }
        override subarray(): Uint8Array<ArrayBuffer> {
          return new Uint8Array(64).fill(0x45);
        }
      }
      await f.write(Buffer.from("ab"));
      await f.write(Lying.of(1, 2, 3, 4));
      expect(await f.length()).toBe(6);
      await f.close();
      expect([...readFileSync(p)]).toEqual([0x61, 0x62, 1, 2, 3, 4]);
    });

    test("a plain array's own length, byteOffset or buffer property is not believed either", async () => {
      const p = tmp("own-props.bin");
      writeFileSync(p, Uint8Array.of(0, 0, 0, 1, 0, 0, 0, 2));
      const f = await open(kind, p, "rw");
      const memory = new ArrayBuffer(16);
      const ints = new Int32Array(memory, 8, 2);
      Object.defineProperty(ints, "length", { value: 4 }); // used to fill memory[16…24), past the view's end
      await f.readInts(ints);
      expect([...new Int32Array(memory)]).toEqual([0, 0, 1, 2]);
      const other = Int32Array.of(0x41414141, 0x41414141);
      const zeros = new Int32Array(2);
      Object.defineProperty(zeros, "buffer", { value: other.buffer }); // used to write other's bytes
      await f.seek(0);
      await f.writeInts(zeros);
      const bytes = Uint8Array.of(7, 7, 7, 7);
      Object.defineProperty(bytes, "length", { value: 200 }); // used to write 196 of the window's other bytes
      await f.write(bytes);
      await f.close();
      expect([...readFileSync(p)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 7, 7, 7, 7]);
    });

    test("a bulk read of 0 elements into a detached array does nothing, unbuffered too (an engine TypeError before)", async () => {
      for (const bufferSize of [0, 8192]) {
        const f = await open(kind, tmp("detached.bin"), "rw", { bufferSize });
        const ints = new Int32Array(4);
        structuredClone(ints.buffer, { transfer: [ints.buffer] });
        await f.readInts(ints);
        await expect((async () => f.readInts(ints, 0, 1))()).rejects.toMatchObject({
          code: "ERR_OUT_OF_RANGE",
        });
        await f.close();
        await expect((async () => f.readInts(ints))()).rejects.toMatchObject({
          code: "ERR_RAF_CLOSED",
        });
      }
    });

    // A resizable buffer may shrink between an async call and its turn: a call behind a flush copied what was left and
    // counted the rest, writing bytes of the window from elsewhere in the file.
    test.runIf(kind === "async")(
      "bytes whose buffer shrank before the call's turn are refused, nothing of them written",
      async () => {
        const p = tmp("shrunk.bin");
        const f = (await open(kind, p, "rw")) as AsyncRandomAccessFile;
        await f.write(new Uint8Array(200).fill(0x53)); // pending in the window
        await f.seek(100_000); // the next write flushes first
        // Resizable buffers (ES2024) are beyond the ES2023 lib the tests compile with.
        const Resizable = ArrayBuffer as unknown as new (
          length: number,
          options: { maxByteLength: number },
        ) => ArrayBuffer & { resize(length: number): void };
        const memory = new Resizable(100, { maxByteLength: 100 });
        const src = new Uint8Array(memory).fill(0x41);
        const write = f.write(src, 0, 100);
        const read = f.readAt(0, new Uint8Array(memory), 0, 50);
        memory.resize(10);
        await expect(write).rejects.toMatchObject({ code: "ERR_OUT_OF_RANGE" });
        await expect(read).rejects.toMatchObject({ code: "ERR_OUT_OF_RANGE" });
        expect(await f.getFilePointer()).toBe(100_000);
        await f.close();
        expect(readFileSync(p).length).toBe(200);
      },
    );
  },
);

describe.each(["sync", "async"] as const)("writers' values (%s class)", (kind) => {
  test("a value of the wrong type is refused before the full window is flushed, writeLong too; in mode r too", async () => {
    const p = tmp("values.bin");
    const f = await open(kind, p, "rw", { bufferSize: 8 });
    await f.writeLong(1n); // the window is full, nothing flushed yet
    const refused = { name: "TypeError", code: "ERR_INVALID_ARG_TYPE" };
    const outcome = (call: () => unknown) =>
      (async () => call())().then(
        () => ({ name: "no error", code: undefined }),
        (e: { name?: string; code?: string }) => ({ name: e.name, code: e.code }),
      );
    for (const call of [
      () => f.writeLong("x" as never),
      () => f.writeLong(undefined as never),
      () => f.writeLongAt(0, {} as never),
      () => f.writeInt("x" as never),
      () => f.writeDoubleAt(0, "1" as never),
    ])
      expect(await outcome(call)).toEqual(refused);
    expect(readFileSync(p).length).toBe(0);
    await f.close();
    const r = await open(kind, p, "r");
    for (const call of [() => r.writeLong("x" as never), () => r.writeLongAt(0, null as never)])
      expect(await outcome(call)).toEqual(refused);
    await r.close();
  });
});
