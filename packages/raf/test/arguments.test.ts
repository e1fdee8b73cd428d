import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { describe, expect, test } from "vitest";
import {
  AsyncRandomAccessFile,
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

const open = async (kind: "sync" | "async", p: string): Promise<AnyFile> =>
  kind === "sync"
    ? new RandomAccessFile(p, "rw", { backend })
    : AsyncRandomAccessFile.open(p, "rw", { backend });

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

describe.each(["sync", "async"] as const)("method options (%s class)", (kind) => {
  test("null options of lock, tryLock and the stream factories: ERR_INVALID_ARG_TYPE", async () => {
    const p = tmp("method-options.bin");
    writeFileSync(p, new Uint8Array(8));
    const f = await open(kind, p);
    const none = null as unknown as object;
    const calls: [string, () => unknown][] = [
      ["createReadStream", () => f.createReadStream(none)],
      ["createWriteStream", () => f.createWriteStream(none)],
    ];
    if (backend === "native")
      calls.push(["lock", () => f.lock(none)], ["tryLock", () => f.tryLock(none)]);
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
