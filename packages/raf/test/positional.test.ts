import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();

/** Both classes behind one awaitable interface: the same method names, sync results wrapped. */
async function openBoth(
  kind: "sync" | "async",
  path: string,
  bufferSize: number,
  backend: "node" | "native",
) {
  // biome-ignore lint/suspicious/noExplicitAny: the same names on both classes
  const f: any =
    kind === "sync"
      ? new RandomAccessFile(path, "rw", { bufferSize, backend })
      : await AsyncRandomAccessFile.open(path, "rw", { bufferSize, backend });
  return f as Record<string, (...args: unknown[]) => unknown>;
}

type POp =
  | { op: "writeAt"; pos: number; data: Uint8Array }
  | { op: "readAt"; pos: number; n: number }
  | { op: "readFullyAt"; pos: number; n: number }
  | { op: "writeIntAt"; pos: number; v: number }
  | { op: "readIntAt"; pos: number }
  | { op: "writeInt"; v: number }
  | { op: "readInt" }
  | { op: "seek"; pos: number }
  | { op: "flush" };

const pos = fc.nat(200);
const pOpArb: fc.Arbitrary<POp> = fc.oneof(
  fc.record({ op: fc.constant("writeAt" as const), pos, data: fc.uint8Array({ maxLength: 30 }) }),
  fc.record({ op: fc.constant("readAt" as const), pos, n: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ op: fc.constant("readFullyAt" as const), pos, n: fc.nat(30) }),
  fc.record({ op: fc.constant("writeIntAt" as const), pos, v: fc.integer() }),
  fc.record({ op: fc.constant("readIntAt" as const), pos }),
  fc.record({ op: fc.constant("writeInt" as const), v: fc.integer() }),
  fc.constant({ op: "readInt" as const }),
  fc.record({ op: fc.constant("seek" as const), pos }),
  fc.constant({ op: "flush" as const }),
);

/** The model: bytes and a pointer that positional ops never move. */
class Model {
  bytes = Buffer.alloc(0);
  pointer = 0;
  put(at: number, src: Uint8Array): void {
    if (src.length === 0) return;
    if (at + src.length > this.bytes.length) {
      const grown = Buffer.alloc(at + src.length);
      this.bytes.copy(grown);
      this.bytes = grown;
    }
    this.bytes.set(src, at);
  }
  get(at: number, n: number): Buffer | "EOF" {
    return n === 0 || at + n <= this.bytes.length ? this.bytes.subarray(at, at + n) : "EOF";
  }
}

const intBytes = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
};

describe.each(["sync", "async"] as const)("positional I/O (%s class)", (kind) => {
  test.each([
    [0, "native"],
    [16, "node"],
    [16, "native"],
    [8192, "native"],
  ] as const)(
    "random positional and pointer ops equal the model; the pointer never moves for *At (bufferSize %i, %s)",
    async (bufferSize, backend) => {
      await fc.assert(
        fc.asyncProperty(fc.array(pOpArb, { maxLength: 60 }), async (ops) => {
          const path = tmp("pos.bin");
          const f = await openBoth(kind, path, bufferSize, backend);
          const m = new Model();
          for (const o of ops) {
            const before = m.pointer;
            switch (o.op) {
              case "writeAt":
                await f.writeAt!(o.pos, o.data);
                m.put(o.pos, o.data);
                break;
              case "readAt": {
                const buf = new Uint8Array(o.n);
                const n = (await f.readAt!(o.pos, buf)) as number;
                const avail = Math.min(o.n, m.bytes.length - o.pos);
                if (avail <= 0) expect(n).toBe(-1);
                else {
                  expect(n).toBeGreaterThan(0);
                  expect(Buffer.from(buf.subarray(0, n))).toEqual(
                    m.bytes.subarray(o.pos, o.pos + n),
                  );
                }
                break;
              }
              case "readFullyAt": {
                const buf = new Uint8Array(o.n);
                const want = m.get(o.pos, o.n);
                const got = await Promise.resolve()
                  .then(() => f.readFullyAt!(o.pos, buf))
                  .then(
                    () => Buffer.from(buf),
                    (e: unknown) => (e instanceof EOFError ? "EOF" : e),
                  );
                expect(got).toEqual(want);
                break;
              }
              case "writeIntAt":
                await f.writeIntAt!(o.pos, o.v);
                m.put(o.pos, intBytes(o.v));
                break;
              case "readIntAt": {
                const want = m.get(o.pos, 4);
                const got = await Promise.resolve()
                  .then(() => f.readIntAt!(o.pos))
                  .catch((e: unknown) => (e instanceof EOFError ? "EOF" : e));
                expect(got).toEqual(want === "EOF" ? "EOF" : want.readInt32BE(0));
                break;
              }
              case "writeInt":
                await f.writeInt!(o.v);
                m.put(m.pointer, intBytes(o.v));
                m.pointer += 4;
                break;
              case "readInt": {
                const want = m.get(m.pointer, 4);
                const got = await Promise.resolve()
                  .then(() => f.readInt!())
                  .catch((e: unknown) => (e instanceof EOFError ? "EOF" : e));
                if (want === "EOF") {
                  expect(got).toBe("EOF");
                  m.pointer = Math.max(m.pointer, Math.min(m.bytes.length, m.pointer + 4));
                } else {
                  expect(got).toBe(want.readInt32BE(0));
                  m.pointer += 4;
                }
                break;
              }
              case "seek":
                await f.seek!(o.pos);
                m.pointer = o.pos;
                break;
              case "flush":
                await f.flush!();
                break;
            }
            if (o.op.endsWith("At")) expect(await f.getFilePointer!()).toBe(before);
            expect(await f.getFilePointer!()).toBe(m.pointer);
          }
          expect(await f.length!()).toBe(m.bytes.length);
          await f.close!();
          expect(readFileSync(path)).toEqual(m.bytes);
        }),
        { numRuns: 40, seed: 23 + bufferSize },
      );
    },
  );

  test("every primitive round-trips at a position, sees unflushed writes, and leaves the pointer alone", async () => {
    const path = tmp("prims.bin");
    const f = await openBoth(kind, path, 8192, "native");
    await f.seek!(3);
    const at = 1000;
    await f.writeBooleanAt!(at, true);
    await f.writeByteAt!(at + 1, -2);
    await f.writeShortAt!(at + 2, -3);
    await f.writeCharAt!(at + 4, "é");
    await f.writeIntAt!(at + 6, -4);
    await f.writeLongAt!(at + 10, -5n);
    await f.writeFloatAt!(at + 18, 1.5);
    await f.writeDoubleAt!(at + 22, Math.E);
    await f.writeUTFAt!(at + 30, "ünï\0😀");
    expect(readFileSync(path).length).toBe(0); // nothing flushed yet
    expect(await f.readBooleanAt!(at)).toBe(true);
    expect(await f.readByteAt!(at + 1)).toBe(-2);
    expect(await f.readUnsignedByteAt!(at + 1)).toBe(254);
    expect(await f.readShortAt!(at + 2)).toBe(-3);
    expect(await f.readUnsignedShortAt!(at + 2)).toBe(65533);
    expect(await f.readCharAt!(at + 4)).toBe("é");
    expect(await f.readIntAt!(at + 6)).toBe(-4);
    expect(await f.readLongAt!(at + 10)).toBe(-5n);
    expect(await f.readLongAsNumberAt!(BigInt(at + 10))).toBe(-5);
    expect(await f.readFloatAt!(at + 18)).toBe(1.5);
    expect(await f.readDoubleAt!(at + 22)).toBe(Math.E);
    expect(await f.readUTFAt!(at + 30)).toBe("ünï\0😀");
    expect(await f.getFilePointer!()).toBe(3);
    await expect(Promise.resolve().then(() => f.readIntAt!(-1))).rejects.toMatchObject({
      code: "ERR_OUT_OF_RANGE",
    });
    await expect(Promise.resolve().then(() => f.readLongAt!(at + 40))).rejects.toBeInstanceOf(
      EOFError,
    );
    // Positions must be non-negative safe integers (number or bigint), on the fast paths too.
    for (const bad of [1.5, -4, 2 ** 53]) {
      await expect(Promise.resolve().then(() => f.readIntAt!(bad))).rejects.toMatchObject({
        code: "ERR_OUT_OF_RANGE",
      });
      await expect(Promise.resolve().then(() => f.writeIntAt!(bad, 1))).rejects.toMatchObject({
        code: "ERR_OUT_OF_RANGE",
      });
    }
    await expect(Promise.resolve().then(() => f.writeLongAt!(0, 2 ** 60))).rejects.toMatchObject({
      name: "RangeError",
    });
    expect(await f.readIntAt!(at + 6)).toBe(-4);
    expect(await f.getFilePointer!()).toBe(3);
    await f.close!();
    // A plain reader sees what the positional writes wrote, at the same offsets.
    const disk = readFileSync(path);
    expect(disk.readInt32BE(at + 6)).toBe(-4);
    expect(disk.readDoubleBE(at + 22)).toBe(Math.E);
  });
});

describe("concurrent positional readers (async class)", () => {
  test.each(["node", "native"] as const)(
    "hundreds of readIntAt/readAt in flight at once, interleaved with writes, each gets its own bytes (%s)",
    async (backend) => {
      const path = tmp("concurrent.bin");
      const n = 4096;
      const s = new RandomAccessFile(path, "rw");
      for (let k = 0; k < n; k++) s.writeInt(k * 2654435761);
      s.close();
      const f = await AsyncRandomAccessFile.open(path, "rw", { bufferSize: 64, backend });
      const order = fc.sample(fc.nat(n - 1), { numRuns: 600, seed: 5 });
      const reads = order.map((k) => f.readIntAt(k * 4));
      const pairs = order.slice(0, 100).map((k) => Math.min(k, n - 2));
      const bufs = pairs.map((k) => {
        const b = new Uint8Array(8);
        return f.readFullyAt(k * 4, b).then(() => Buffer.from(b));
      });
      // Writes in between: reads issued after them see them, reads before do not.
      const w = f.writeIntAt(0, -1);
      const after = f.readIntAt(0);
      const got = await Promise.all(reads);
      expect(got).toEqual(order.map((k) => (k * 2654435761) | 0));
      const b = await Promise.all(bufs);
      b.forEach((buf, j) => {
        const k = pairs[j]!;
        expect(buf.readInt32BE(0)).toBe((k * 2654435761) | 0);
        expect(buf.readInt32BE(4)).toBe(((k + 1) * 2654435761) | 0);
      });
      await w;
      expect(await after).toBe(-1);
      expect(await f.getFilePointer()).toBe(0);
      await f.close();
    },
  );
});
