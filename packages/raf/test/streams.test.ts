import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();

async function open(kind: "sync" | "async", path: string, mode: "r" | "rw") {
  return kind === "sync"
    ? new RandomAccessFile(path, mode)
    : await AsyncRandomAccessFile.open(path, mode);
}

/** A consumer that takes one chunk per macrotask turn, collecting them. */
function slowSink(chunks: Buffer[], onWrite: () => void): Writable {
  return new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, cb) {
      onWrite();
      chunks.push(chunk);
      setImmediate(cb);
    },
  });
}

describe.each(["sync", "async"] as const)("streams (%s class)", (kind) => {
  test("createReadStream with highWaterMark 0 (no read-ahead) still reads every byte", async () => {
    const p = tmp("hwm0.bin");
    const data = randomBytes(100_000);
    writeFileSync(p, data);
    const f = await open(kind, p, "r");
    const chunks: Buffer[] = [];
    for await (const c of f.createReadStream({ highWaterMark: 0 })) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    await f.close();
  });

  test("a short last chunk holds only its own bytes, as fs's does (a view kept the whole highWaterMark alive)", async () => {
    const p = tmp("short-chunk.bin");
    writeFileSync(p, "0123456789");
    const f = await open(kind, p, "r");
    const chunks: Buffer[] = [];
    for await (const c of f.createReadStream({ highWaterMark: 1 << 20 })) chunks.push(c as Buffer);
    expect(chunks.map((c) => [c.toString(), c.buffer.byteLength])).toEqual([["0123456789", 10]]);
    await f.close();
  });

  test("a highWaterMark past 2^30 is refused by both factories, before any read", async () => {
    const p = tmp("huge-hwm.bin");
    writeFileSync(p, "0123456789");
    const f = await open(kind, p, "rw");
    for (const make of [
      () => f.createReadStream({ highWaterMark: 2 ** 40 }),
      () => f.createWriteStream({ highWaterMark: 2 ** 30 + 1 }),
    ]) {
      expect(make).toThrow(
        expect.objectContaining({
          code: "ERR_OUT_OF_RANGE",
          message: expect.stringMatching(/at most 2\^30/),
        }),
      );
    }
    expect(f.createReadStream({ highWaterMark: 2 ** 30, end: 9 })).toBeInstanceOf(Readable);
    await f.close();
  });

  test("createReadStream over [start, end] through pipeline into a slow consumer: exact bytes, bounded buffering", async () => {
    const p = tmp("read.bin");
    const data = randomBytes(1 << 20);
    writeFileSync(p, data);
    const f = await open(kind, p, "r");
    const hwm = 16 * 1024;
    const rs = f.createReadStream({ start: 1000, end: 500_000, highWaterMark: hwm });
    const chunks: Buffer[] = [];
    let maxBuffered = 0;
    await pipeline(
      rs,
      slowSink(chunks, () => {
        maxBuffered = Math.max(maxBuffered, rs.readableLength);
      }),
    );
    expect(Buffer.concat(chunks).equals(data.subarray(1000, 500_001))).toBe(true);
    // Backpressure: the reader never ran more than its high-water mark (plus one read) ahead.
    expect(maxBuffered).toBeLessThanOrEqual(2 * hwm);
    expect(chunks.length).toBeGreaterThan(20);
    // The stream used positional reads: the pointer did not move, the file is still open.
    expect(await f.getFilePointer()).toBe(0);
    expect(await f.readInt()).toBe(data.readInt32BE(0));
    // Defaults: the whole file; an empty range ends at once.
    const all: Buffer[] = [];
    await pipeline(
      f.createReadStream(),
      slowSink(all, () => {}),
    );
    expect(Buffer.concat(all).equals(data)).toBe(true);
    const none: Buffer[] = [];
    await pipeline(
      f.createReadStream({ start: 5, end: 4 }),
      slowSink(none, () => {}),
    );
    expect(none).toEqual([]);
    expect(() => f.createReadStream({ start: 5, end: 2 })).toThrow(
      expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }),
    );
    await f.close();
  });

  test("createWriteStream from start onwards: write() reports backpressure, pipeline writes everything, finish flushes", async () => {
    const p = tmp("write.bin");
    const f = await open(kind, p, "rw");
    const hwm = 8 * 1024;
    const ws = f.createWriteStream({ start: 10, highWaterMark: hwm });
    const chunk = Buffer.alloc(1024, 7);
    let accepted = 0;
    while (ws.write(chunk)) accepted++;
    expect(accepted).toBeLessThan(hwm / chunk.length);
    expect(ws.writableLength).toBeLessThanOrEqual(hwm);
    await once(ws, "drain");
    const payload = randomBytes(300_000);
    const source = Readable.from(
      (function* () {
        for (let k = 0; k < payload.length; k += 4096) yield payload.subarray(k, k + 4096);
      })(),
    );
    await pipeline(source, ws);
    const written = (accepted + 1) * chunk.length;
    const disk = readFileSync(p);
    expect(disk.length).toBe(10 + written + payload.length);
    expect(disk.subarray(10, 10 + written).equals(Buffer.alloc(written, 7))).toBe(true);
    expect(disk.subarray(10 + written).equals(payload)).toBe(true);
    expect(await f.getFilePointer()).toBe(0);
    await f.close();
  });

  test("a stream over a closed file fails the pipeline with ERR_RAF_CLOSED", async () => {
    const p = tmp("closed.bin");
    writeFileSync(p, "abc");
    const f = await open(kind, p, "rw");
    await f.close();
    await expect(
      pipeline(
        f.createReadStream(),
        slowSink([], () => {}),
      ),
    ).rejects.toMatchObject({
      code: "ERR_RAF_CLOSED",
    });
    await expect(
      pipeline(Readable.from([Buffer.from("x")]), f.createWriteStream()),
    ).rejects.toMatchObject({
      code: "ERR_RAF_CLOSED",
    });
  });
});
