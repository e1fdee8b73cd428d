import { readFileSync, writeFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { type FaultRule, faultBackend } from "@rafkit/syscall-state/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "../src/index";
import { asyncOutcomes, syncOutcomes, tmp, tmpDirPath } from "./support/async-ops";
import { opArb } from "./support/model";
import { openFdCount } from "./support/temp";

describe.each(["node", "native"] as const)("AsyncRandomAccessFile (%s backend)", (kind) => {
  test.each([0, 7, 64, 8192])(
    "same results and bytes as the sync class, ops pipelined without awaiting or awaited one by one (bufferSize %i)",
    async (bufferSize) => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 80 }), fc.boolean(), async (ops, piped) => {
          const ps = tmp("sync.bin");
          const pa = tmp("async.bin");
          const want = syncOutcomes(ps, ops, bufferSize);
          const got = await asyncOutcomes(pa, ops, bufferSize, getBackend(kind), piped);
          expect(got).toEqual(want);
          expect(readFileSync(pa)).toEqual(readFileSync(ps));
        }),
        { numRuns: 40, seed: 17 + bufferSize },
      );
    },
  );

  test("EINTR and short transfers on the async calls are invisible (pipelined ops)", async () => {
    let injected = 0;
    await fc.assert(
      fc.asyncProperty(
        // read(buf) may legitimately return fewer bytes when transfers are short.
        fc.array(
          opArb.filter((o) => o.op !== "readSome"),
          { maxLength: 60 },
        ),
        async (ops) => {
          let n = 0;
          const rules: FaultRule[] = [
            { call: ["pread", "pwrite"], errno: "EINTR", when: () => n++ % 3 === 0 },
            { call: ["pread", "pwrite"], shortTransfer: 3 },
          ];
          const backend = faultBackend(getBackend(kind), rules);
          const ps = tmp("sync.bin");
          const pa = tmp("async.bin");
          const want = syncOutcomes(ps, ops, 7);
          expect(await asyncOutcomes(pa, ops, 7, backend, true)).toEqual(want);
          expect(readFileSync(pa)).toEqual(readFileSync(ps));
          injected += backend.injected;
        },
      ),
      { numRuns: 30, seed: 99 },
    );
    expect(injected).toBeGreaterThan(50);
  });

  test("Promise.all of two readInts yields two consecutive ints, across a window refill too", async () => {
    const p = tmp("ints.bin");
    const s = new RandomAccessFile(p, "rw");
    for (let k = 0; k < 64; k++) s.writeInt(k * 7 + 1);
    s.close();
    const f = await AsyncRandomAccessFile.open(p, "r", { bufferSize: 10, backend: kind });
    const got: number[] = [];
    for (let k = 0; k < 32; k++) got.push(...(await Promise.all([f.readInt(), f.readInt()])));
    expect(got).toEqual(Array.from({ length: 64 }, (_, k) => k * 7 + 1));
    await f.close();
  });

  test("reads served from the window make no system call; every OS call runs async (off the main thread)", async () => {
    let syncIo = 0;
    const backend = faultBackend(getBackend(kind), [
      // Never fires (`when` is false): it only watches for synchronous I/O calls.
      {
        call: ["pread", "pwrite", "size", "truncate", "sync", "close"],
        errno: "EIO",
        when: (c) => {
          if (!c.async) syncIo++;
          return false;
        },
      },
    ]);
    const p = tmp("calls.bin");
    writeFileSync(p, Buffer.alloc(64, 1));
    const f = await AsyncRandomAccessFile.open(p, "rw", { backend });
    await f.readInt(); // fills the window
    backend.resetCalls();
    const reads = [];
    for (let k = 0; k < 14; k++) reads.push(f.readInt());
    reads.push(f.readShortAt(2), f.readIntAt(60), f.readByte());
    expect(await Promise.all(reads)).toEqual([
      ...Array(14).fill(0x01010101),
      0x0101,
      0x01010101,
      1,
    ]);
    await f.writeInt(5);
    expect(await f.readIntAt(61)).toBe(5); // readByte moved the pointer to 61
    expect(backend.totalCalls()).toBe(0);
    await f.setLength(128);
    await f.sync();
    expect(await f.length()).toBe(128);
    await f.close();
    expect(backend.totalCalls()).toBeGreaterThan(3);
    expect(syncIo).toBe(0);
  });

  test("a failed operation rejects only its own promise; the queued ones still run, in order", async () => {
    const p = tmp("eio.bin");
    writeFileSync(p, Buffer.from([0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]));
    const backend = faultBackend(getBackend(kind));
    const f = await AsyncRandomAccessFile.open(p, "rw", { backend, bufferSize: 4 });
    backend.inject({ call: "pread", errno: "EIO", times: 1 });
    const [a, b, c, d] = await Promise.allSettled([
      f.readInt(),
      f.readInt(),
      f.readInt(),
      f.readInt(),
    ]);
    expect(a).toMatchObject({ status: "rejected", reason: { code: "EIO", syscall: "read" } });
    expect(b).toEqual({ status: "fulfilled", value: 1 });
    expect(c).toEqual({ status: "fulfilled", value: 2 });
    expect(d).toEqual({ status: "fulfilled", value: 3 });
    expect(await f.readInt().catch((e: unknown) => e)).toBeInstanceOf(EOFError);
    // A failed flush keeps the data: a later flush writes it.
    await f.seek(0);
    await f.writeInt(42);
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    await expect(f.flush()).rejects.toMatchObject({ code: "ENOSPC" });
    expect(await f.getFilePointer()).toBe(4);
    await f.flush();
    expect(readFileSync(p).readInt32BE(0)).toBe(42);
    // Bad arguments reject (no throw), before any I/O, and change nothing.
    await expect(f.seek(-1)).rejects.toMatchObject({ code: "ERR_OUT_OF_RANGE" });
    await expect(f.read(new Uint8Array(2), 1, 5)).rejects.toMatchObject({
      code: "ERR_OUT_OF_RANGE",
    });
    await expect(f.writeUTF("x".repeat(70000))).rejects.toMatchObject({
      name: "UTFDataFormatError",
    });
    expect(await f.getFilePointer()).toBe(4);
    await f.close();
  });

  test("open errors, modes, close, Symbol.asyncDispose, no leaked descriptors", async () => {
    const before = openFdCount();
    await expect(
      AsyncRandomAccessFile.open(tmp("x"), "rx" as "r", { backend: kind }),
    ).rejects.toThrow(/Illegal mode "rx"/);
    await expect(
      AsyncRandomAccessFile.open(tmp("missing"), "r", { backend: kind }),
    ).rejects.toMatchObject({ code: "ENOENT", syscall: "open" });
    await expect(
      AsyncRandomAccessFile.open(tmpDirPath(), "r", { backend: kind }),
    ).rejects.toMatchObject({ code: "EISDIR" });
    const p = tmp("dispose.bin");
    const f = await AsyncRandomAccessFile.open(p, "rw", { backend: kind });
    expect([f.path, f.mode, f.backendName, f.byteOrder, f.bufferSize]).toEqual([
      p,
      "rw",
      kind,
      "big",
      8192,
    ]);
    const pending = f.writeLong(7n); // not awaited: close still runs after it
    await f[Symbol.asyncDispose]();
    await pending;
    expect(f.closed).toBe(true);
    expect(f.fd).toBe(-1);
    await f.close(); // idempotent
    await expect(f.readInt()).rejects.toMatchObject({ code: "ERR_RAF_CLOSED" });
    await expect(f.getFilePointer()).rejects.toMatchObject({ code: "ERR_RAF_CLOSED" });
    await expect(f.writeInt(1)).rejects.toMatchObject({ code: "ERR_RAF_CLOSED" });
    expect(readFileSync(p).readBigInt64BE(0)).toBe(7n);
    const r = await AsyncRandomAccessFile.open(p, "r", { backend: kind });
    await expect(r.writeInt(1)).rejects.toMatchObject({ code: "EBADF" });
    expect(await r.readLong()).toBe(7n);
    await r.close();
    expect(openFdCount()).toBe(before);
  });

  test("rws: every write reaches the OS before its promise resolves", async () => {
    const p = tmp("rws.bin");
    const f = await AsyncRandomAccessFile.open(p, "rws", { backend: kind });
    await f.writeInt(0x01020304);
    expect([...readFileSync(p)]).toEqual([1, 2, 3, 4]);
    await f.writeUTF("ok");
    expect(readFileSync(p).length).toBe(8);
    await f.close();
  });
});
