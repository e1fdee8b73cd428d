import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { type Backend, getBackend } from "@rafkit/syscall-state";
import { type FaultRule, faultBackend } from "@rafkit/syscall-state/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "../src/index";
import { opArb } from "./support/model";
import { openFdCount, tempDir } from "./support/temp";

const tmp = tempDir();

type AnyOp = typeof opArb extends fc.Arbitrary<infer T> ? T : never;
type AnyFile = RandomAccessFile | AsyncRandomAccessFile;

/** Calls the method `o` names; the same code for both classes (same names), sync or async. */
function call(f: AnyFile, o: AnyOp): unknown {
  // biome-ignore lint/suspicious/noExplicitAny: one call site for both classes
  const g = f as any;
  switch (o.op) {
    case "seek":
      return g.seek(o.pos);
    case "read1":
      return g.read();
    case "readShort":
      return g.readShort();
    case "readInt":
      return g.readInt();
    case "readLong":
      return g.readLong();
    case "readFully": {
      const buf = new Uint8Array(o.n);
      return then(g.readFully(buf), () => [...buf]);
    }
    case "readSome": {
      const buf = new Uint8Array(o.n);
      return then(g.read(buf), (n) => [n, [...buf]]);
    }
    case "readLine":
      return g.readLine();
    case "skip":
      return g.skipBytes(o.n);
    case "writeByte":
      return g.writeByte(o.v);
    case "writeShort":
      return g.writeShort(o.v);
    case "writeInt":
      return g.writeInt(o.v);
    case "writeLong":
      return g.writeLong(o.v);
    case "write":
      return g.write(o.data);
    case "setLength":
      return g.setLength(o.n);
    case "length":
      return g.length();
    case "flush":
      return g.flush();
    case "pointer":
      return g.getFilePointer();
    case "readInts": {
      const dst = new Int32Array(o.n);
      return then(g.readInts(dst), () => [...dst]);
    }
    case "writeInts":
      return g.writeInts(o.values);
    case "readDoubles": {
      const dst = new Float64Array(o.n);
      return then(g.readDoubles(dst), () => [...dst]);
    }
    case "writeUTF":
      return g.writeUTF(o.s);
    case "readUTF":
      return g.readUTF();
    case "writeDouble":
      return g.writeDouble(o.v);
    case "readDouble":
      return g.readDouble();
    case "writeIntAt":
      return g.writeIntAt(o.pos, o.v);
    case "readIntAt":
      return g.readIntAt(o.pos);
  }
}

function then(r: unknown, f: (v: unknown) => unknown): unknown {
  return r instanceof Promise ? r.then(f) : f(r);
}

const outcome = (e: unknown) => (e instanceof EOFError ? "EOF" : `${(e as Error).name}`);

function syncOutcomes(path: string, ops: readonly AnyOp[], bufferSize: number): unknown[] {
  const f = new RandomAccessFile(path, "rw", { bufferSize });
  const out = ops.map((o) => {
    try {
      const r = call(f, o);
      return r === undefined ? null : r;
    } catch (e) {
      return outcome(e);
    }
  });
  f.close();
  return out;
}

/** Runs `ops` on the async class: all issued at once (`pipelined`) or awaited one by one. */
async function asyncOutcomes(
  path: string,
  ops: readonly AnyOp[],
  bufferSize: number,
  backend: Backend,
  pipelined: boolean,
): Promise<unknown[]> {
  const f = await AsyncRandomAccessFile.open(path, "rw", { bufferSize, backend });
  const settle = (p: unknown) =>
    Promise.resolve(p).then(
      (r) => (r === undefined ? null : r),
      (e: unknown) => outcome(e),
    );
  let out: unknown[];
  if (pipelined) out = await Promise.all(ops.map((o) => settle(call(f, o))));
  else {
    out = [];
    for (const o of ops) out.push(await settle(call(f, o)));
  }
  await f.close();
  return out;
}

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

let dirCount = 0;
function tmpDirPath(): string {
  const d = tmp(`dir-${dirCount++}`);
  mkdirSync(d);
  return d;
}

describe("AsyncRandomAccessFile: every DataInput/DataOutput method, byte-compatible with the sync class", () => {
  test.each([
    ["big", 8192],
    ["little", 5],
  ] as const)(
    "byteOrder %s, bufferSize %i: async writes, sync reads, and back",
    async (byteOrder, bufferSize) => {
      const p = tmp("all.bin");
      const a = await AsyncRandomAccessFile.open(p, "rw", { byteOrder, bufferSize });
      // All issued without awaiting: call order is file order.
      const writes = [
        a.writeBoolean(true),
        a.writeByte(-5),
        a.write(200),
        a.writeShort(-300),
        a.writeChar("é"),
        a.writeChar(0x41),
        a.writeInt(-70000),
        a.writeLong(-(2n ** 40n)),
        a.writeLong(123),
        a.writeFloat(Number.NaN),
        a.writeDouble(-0.5),
        a.writeBytes("line one\r\n"),
        a.writeChars("hé"),
        a.writeUTF("ü\0😀"),
        a.write(Uint8Array.of(9, 8, 7, 6), 1, 2),
        a.writeShorts(Int16Array.of(1, -2, 3)),
        a.writeInts(Int32Array.of(4, -5), 1),
        a.writeLongs(BigInt64Array.of(6n, -7n)),
        a.writeFloats(Float32Array.of(0.25, 8)),
        a.writeDoubles(Float64Array.of(1e300, -1e-300), 0, 1),
      ];
      await Promise.all(writes);
      await a.sync();
      await a.datasync();
      const s = new RandomAccessFile(p, "r", { byteOrder });
      const readAll = async (f: AnyFile) => {
        // biome-ignore lint/suspicious/noExplicitAny: the same names on both classes
        const g = f as any;
        const out: unknown[] = [];
        for (const m of [
          "readBoolean",
          "readByte",
          "readUnsignedByte",
          "readShort",
          "readChar",
          "readChar",
        ]) {
          out.push(await g[m]());
        }
        out.push(
          await g.readInt(),
          await g.readLong(),
          await g.readLongAsNumber(),
          await g.readFloat(),
        );
        out.push(
          await g.readDouble(),
          await g.readLine(),
          await g.readUnsignedShort(),
          await g.readChar(),
        );
        out.push(await g.readUTF());
        const two = new Uint8Array(2);
        out.push(await g.read(two), [...two]);
        const sh = new Int16Array(3);
        const it = new Int32Array(1);
        const lg = new BigInt64Array(2);
        const fl = new Float32Array(2);
        const db = new Float64Array(2);
        await g.readShorts(sh);
        await g.readInts(it);
        await g.readLongs(lg);
        await g.readFloats(fl);
        await g.readDoubles(db, 1, 1);
        out.push([...sh], [...it], [...lg], [...fl], [...db]);
        out.push(await g.read(), await g.getFilePointer(), await g.length());
        return out;
      };
      const fromSync = await readAll(s);
      s.close();
      await a.seek(0);
      const fromAsync = await readAll(a);
      expect(fromAsync).toEqual(fromSync);
      expect(fromSync.slice(0, 12)).toEqual([
        true,
        -5,
        200,
        -300,
        "é",
        "A",
        -70000,
        -(2n ** 40n),
        123,
        Number.NaN,
        -0.5,
        "line one",
      ]);
      expect(fromSync.at(-3)).toBe(-1);
      // skipBytes never passes EOF; readFully past it is an EOFError that consumed what there was.
      await a.seek(3);
      expect(await a.skipBytes(-1)).toBe(0);
      expect(await a.skipBytes(1 << 20)).toBe((fromSync.at(-1) as number) - 3);
      await a.seek((fromSync.at(-1) as number) - 1);
      await expect(a.readFully(new Uint8Array(4))).rejects.toBeInstanceOf(EOFError);
      expect(await a.getFilePointer()).toBe(fromSync.at(-1));
      await a.close();
    },
  );

  test("OS failures of length, setLength, sync, datasync and close reject with Node-shaped errors; the file stays usable", async () => {
    const backend = faultBackend(getBackend("native"), [
      { call: "sync", errno: "EIO", times: 1 },
      { call: "truncate", errno: "EFBIG", times: 1 },
      { call: "size", errno: "EIO", times: 1 },
      { call: "datasync", errno: "EIO", times: 1 },
    ]);
    const before = openFdCount();
    const f = await AsyncRandomAccessFile.open(tmp("fail.bin"), "rw", { backend });
    await f.writeInt(1);
    await expect(f.sync()).rejects.toMatchObject({ code: "EIO", syscall: "fsync" });
    await expect(f.datasync()).rejects.toMatchObject({ code: "EIO", syscall: "fdatasync" });
    await expect(f.setLength(10)).rejects.toMatchObject({ code: "EFBIG", syscall: "ftruncate" });
    await expect(f.setLength(-1)).rejects.toMatchObject({ code: "EINVAL", syscall: "ftruncate" });
    await expect(f.length()).rejects.toMatchObject({ code: "EIO", syscall: "fstat" });
    await expect(f.skipBytes(1)).resolves.toBe(0);
    expect(await f.length()).toBe(4);
    await f.setLength(2);
    expect(await f.getFilePointer()).toBe(2);
    await f.writeInt(5);
    backend.inject({ call: "pwrite", errno: "ENOSPC" });
    await expect(f.close()).rejects.toMatchObject({ code: "ENOSPC" });
    expect(f.closed).toBe(true);
    expect(openFdCount()).toBe(before);
  });
});
