import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { getBackend, isNativeAvailable } from "@rafkit/syscall-state";
import { type FaultRule, faultBackend } from "@rafkit/syscall-state/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, DEFAULT_BUFFER_SIZE, RandomAccessFile } from "../src/index";
import { hasJava } from "./support/java";
import { opArb, runModel } from "./support/model";
import { openFdCount, tempDir } from "./support/temp";

const tmp = tempDir();

/** Every third pread/pwrite is interrupted, and every transfer moves at most `short` bytes. */
function hostile(kind: "node" | "native", short: number) {
  let n = 0;
  const rules: FaultRule[] = [
    { call: ["pread", "pwrite"], errno: "EINTR", when: () => n++ % 3 === 0 },
    { call: ["pread", "pwrite"], shortTransfer: short },
  ];
  return faultBackend(getBackend(kind), rules);
}

describe.each(["node", "native"] as const)("faults (%s backend)", (kind) => {
  test.each([0, 1, 7, 64])(
    "EINTR and short transfers are invisible: the model still holds (bufferSize %i)",
    (bufferSize) => {
      let injected = 0;
      fc.assert(
        fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
          const backend = hostile(kind, 3);
          runModel(tmp, ops, { bufferSize, backend });
          injected += backend.injected;
        }),
        { numRuns: 60, seed: 3 + bufferSize },
      );
      expect(injected).toBeGreaterThan(100);
    },
  );

  test.each([
    ["cut short", { call: "pwrite", shortTransfer: 3, times: 1 }],
    ["interrupted", { call: "pwrite", errno: "EINTR", times: 1 }],
  ] as const)(
    "a flush whose one pwrite is %s writes the rest of the range with the calls that follow",
    (name, rule) => {
      const p = tmp(`flush-${name.replace(" ", "-")}.bin`);
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(p, "rw", { backend });
      f.writeInt(0x01020304);
      f.writeInt(0x05060708);
      backend.resetCalls();
      backend.inject(rule);
      f.flush();
      expect(backend.injected).toBe(1);
      expect(backend.calls.pwrite).toBe(2);
      expect([...readFileSync(p)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      // Clean now: the next flush makes no call, and a rewrite of the same range is one pwrite again.
      f.flush();
      expect(backend.calls.pwrite).toBe(2);
      f.seek(0);
      f.writeInt(9);
      f.writeInt(10);
      f.flush();
      expect(backend.calls.pwrite).toBe(3);
      f.close();
      expect([...readFileSync(p)]).toEqual([0, 0, 0, 9, 0, 0, 0, 10]);
    },
  );

  test("ENOSPC on flush surfaces, keeps the unflushed data, and a later flush writes it", () => {
    const p = tmp("enospc.bin");
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rw", { backend });
    f.writeInt(0x01020304);
    f.writeUTF("kept");
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.flush()).toThrow(
      expect.objectContaining({ code: "ENOSPC", syscall: "write", path: p }),
    );
    expect(f.getFilePointer()).toBe(10);
    expect(f.length()).toBe(10);
    expect(readFileSync(p).length).toBe(0);
    f.seek(0);
    expect(f.readInt()).toBe(0x01020304);
    f.flush();
    expect([...readFileSync(p).subarray(0, 4)]).toEqual([1, 2, 3, 4]);
    f.seek(4);
    expect(f.readUTF()).toBe("kept");
    f.close();
  });

  test.each(["EFBIG", "EINVAL"])(
    "%s on flush (the OS refuses the offset for good) drops those writes; the instance goes on",
    (errno) => {
      const p = tmp(`refused-${errno}.bin`);
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(p, "rw", { backend });
      f.seek(100);
      f.writeInt(1);
      backend.inject({ call: "pwrite", errno, times: 1 });
      expect(() => f.flush()).toThrow(expect.objectContaining({ code: errno, syscall: "write" }));
      // Not kept for a retry that could never succeed: every later flush would fail too.
      expect(f.length()).toBe(0);
      expect(f.getFilePointer()).toBe(104);
      f.seek(0);
      f.writeInt(42);
      f.flush();
      expect(f.readIntAt(0)).toBe(42);
      f.setLength(4);
      f.close();
      expect([...readFileSync(p)]).toEqual([0, 0, 0, 42]);
    },
  );

  test.each(["rws", "rwd"] as const)(
    "in %s, a write the OS refuses for good is not done: the pointer stays before it",
    (mode) => {
      const p = tmp(`refused-${mode}.bin`);
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(p, mode, { backend });
      f.writeInt(7);
      backend.inject({ call: "pwrite", errno: "EFBIG", times: 1 });
      expect(() => f.writeInt(8)).toThrow(expect.objectContaining({ code: "EFBIG" }));
      expect(f.getFilePointer()).toBe(4);
      expect(f.length()).toBe(4);
      f.writeInt(9);
      f.close();
      expect([...readFileSync(p)]).toEqual([0, 0, 0, 7, 0, 0, 0, 9]);
    },
  );

  test.each(["rws", "rwd"] as const)(
    "in %s, a write whose flush writes a prefix and then gets EFBIG is done as far as that prefix: the pointer after it (both classes)",
    async (mode) => {
      // A first pwrite that takes 3 of the 4 bytes, then EFBIG: as write(2) past RLIMIT_FSIZE.
      const partial = (): FaultRule[] => [
        { call: "pwrite", shortTransfer: 3, times: 1 },
        { call: "pwrite", errno: "EFBIG", after: 1, times: 1 },
      ];
      const p = tmp(`partial-${mode}.bin`);
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(p, mode, { backend });
      f.writeInt(7);
      for (const r of partial()) backend.inject(r);
      expect(() => f.writeInt(0x01020304)).toThrow(expect.objectContaining({ code: "EFBIG" }));
      expect(f.getFilePointer()).toBe(7);
      expect(f.length()).toBe(7);
      f.writeInt(9); // after what reached the file, as Java's next write
      f.close();
      expect([...readFileSync(p)]).toEqual([0, 0, 0, 7, 1, 2, 3, 0, 0, 0, 9]);

      // A bulk write whose flush fails the same way, and the async class.
      const q = tmp(`partial-${mode}-async.bin`);
      const a = await AsyncRandomAccessFile.open(q, mode, { backend });
      await a.writeInt(7);
      for (const r of partial()) backend.inject(r);
      await expect(a.write(Uint8Array.of(1, 2, 3, 4))).rejects.toMatchObject({ code: "EFBIG" });
      expect(await a.getFilePointer()).toBe(7);
      await a.writeInt(9);
      await a.close();
      expect([...readFileSync(q)]).toEqual([0, 0, 0, 7, 1, 2, 3, 0, 0, 0, 9]);
    },
  );

  test.each(["rws", "rwd"] as const)(
    "in %s, a write that moves the window part-way is done as far as its bytes reached the file when a later flush of it gets EFBIG (both classes)",
    async (mode) => {
      // 12 bytes at 10 of a 16-byte window: 6 fill it and are flushed as it moves on (the write's first
      // flush, which succeeds), the other 6 are refused.
      const data = Uint8Array.from({ length: 12 }, (_, k) => k + 1);
      const expected = [...new Uint8Array(10), 1, 2, 3, 4, 5, 6];
      const p = tmp(`wrap-${mode}.bin`);
      const backend = faultBackend(getBackend(kind));
      const f = new RandomAccessFile(p, mode, { backend, bufferSize: 16 });
      f.write(new Uint8Array(10));
      backend.inject({ call: "pwrite", errno: "EFBIG", after: 1, times: 1 });
      expect(() => f.write(data)).toThrow(expect.objectContaining({ code: "EFBIG" }));
      expect(f.getFilePointer()).toBe(16);
      expect(f.length()).toBe(16);
      f.close();
      expect([...readFileSync(p)]).toEqual(expected);

      const q = tmp(`wrap-${mode}-async.bin`);
      const a = await AsyncRandomAccessFile.open(q, mode, { backend, bufferSize: 16 });
      await a.write(new Uint8Array(10));
      backend.inject({ call: "pwrite", errno: "EFBIG", after: 1, times: 1 });
      await expect(a.write(data)).rejects.toMatchObject({ code: "EFBIG" });
      expect(await a.getFilePointer()).toBe(16);
      expect(await a.length()).toBe(16);
      await a.close();
      expect([...readFileSync(q)]).toEqual(expected);

      // The same when the write's first flush is of data an earlier failure kept: none of its own bytes arrived.
      const r = tmp(`kept-then-refused-${mode}.bin`);
      const k = new RandomAccessFile(r, mode, { backend, bufferSize: 16 });
      backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
      expect(() => k.writeInt(1)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
      k.seek(100);
      backend.inject({ call: "pwrite", errno: "EFBIG", after: 1, times: 1 });
      expect(() => k.writeInt(2)).toThrow(expect.objectContaining({ code: "EFBIG" }));
      expect(k.getFilePointer()).toBe(100);
      expect(k.length()).toBe(4);
      k.close();
      expect([...readFileSync(r)]).toEqual([0, 0, 0, 1]);
    },
  );

  test("in rws, only the flush of the caller's own write takes the pointer back; kept data's does not", () => {
    const p = tmp("refused-kept.bin");
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rws", { backend });
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.writeInt(1)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(f.getFilePointer()).toBe(4); // kept, as if written
    backend.inject({ call: "pwrite", errno: "EFBIG", times: 1 });
    expect(() => f.flush()).toThrow(expect.objectContaining({ code: "EFBIG" }));
    expect(f.getFilePointer()).toBe(4); // a flush is no write of the caller's: the pointer stays
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.writeIntAt(100, 2)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    f.seek(8);
    backend.inject({ call: "pwrite", errno: "EFBIG", times: 1 });
    expect(() => f.readInt()).toThrow(expect.objectContaining({ code: "EFBIG" }));
    expect(f.getFilePointer()).toBe(8); // a read is no write either
    backend.inject({ call: "pwrite", errno: "EFBIG", times: 1 });
    expect(() => f.writeInt(3)).toThrow(expect.objectContaining({ code: "EFBIG" }));
    expect(f.getFilePointer()).toBe(8); // the caller's own write: not done
    f.close();
    expect(readFileSync(p).length).toBe(0);
  });

  test("EIO when the window moves: the triggering write fails, nothing is lost, a retry succeeds", () => {
    const p = tmp("eio.bin");
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rw", { backend, bufferSize: 64 });
    f.writeLong(11n);
    f.seek(1000);
    backend.inject({ call: "pwrite", errno: "EIO", times: 1 });
    expect(() => f.writeLong(22n)).toThrow(expect.objectContaining({ code: "EIO" }));
    expect(f.getFilePointer()).toBe(1000);
    expect(f.length()).toBe(8);
    f.writeLong(22n);
    expect(f.length()).toBe(1008);
    f.seek(0);
    expect(f.readLong()).toBe(11n);
    f.seek(1000);
    expect(f.readLong()).toBe(22n);
    f.close();
    expect(readFileSync(p).length).toBe(1008);
  });

  test("EIO on a refill: the read fails with the pointer unchanged; the next read works", () => {
    const p = tmp("eio-read.bin");
    // The int lies past the first window, which open reads (the same pread checks it is no directory).
    const bytes = new Uint8Array(DEFAULT_BUFFER_SIZE + 4);
    bytes[DEFAULT_BUFFER_SIZE + 3] = 7;
    writeFileSync(p, bytes);
    const backend = faultBackend(getBackend(kind), [
      { call: "pread", errno: "EIO", times: 1, after: 1 },
    ]);
    const f = new RandomAccessFile(p, "r", { backend });
    f.seek(DEFAULT_BUFFER_SIZE);
    expect(() => f.readInt()).toThrow(expect.objectContaining({ code: "EIO", syscall: "read" }));
    expect(f.getFilePointer()).toBe(DEFAULT_BUFFER_SIZE);
    expect(f.readInt()).toBe(7);
    f.close();
  });

  test("unbuffered: a failed write is not done (the JDK's behaviour), pointer and file unchanged", () => {
    const p = tmp("unbuf-fail.bin");
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rw", { backend, bufferSize: 0 });
    f.writeInt(1);
    backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
    expect(() => f.writeInt(2)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(f.getFilePointer()).toBe(4);
    expect(f.length()).toBe(4);
    f.flush();
    f.writeInt(3);
    f.close();
    expect([...readFileSync(p)]).toEqual([0, 0, 0, 1, 0, 0, 0, 3]);
  });

  test("rws: a failed write reports the error; its data stays pending and a later flush writes it", () => {
    const p = tmp("rws-fail.bin");
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(p, "rws", { backend });
    backend.inject({ call: "pwrite", errno: "EIO", times: 1 });
    expect(() => f.writeInt(5)).toThrow(expect.objectContaining({ code: "EIO" }));
    expect(f.getFilePointer()).toBe(4);
    expect(f.length()).toBe(4);
    f.flush();
    expect([...readFileSync(p)]).toEqual([0, 0, 0, 5]);
    f.close();
  });

  test("a flush failure in close still closes the descriptor, then throws", () => {
    const before = openFdCount();
    const backend = faultBackend(getBackend(kind));
    const f = new RandomAccessFile(tmp("close-fail.bin"), "rw", { backend });
    f.writeInt(1);
    backend.inject({ call: "pwrite", errno: "ENOSPC" });
    expect(() => f.close()).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(f.closed).toBe(true);
    expect(openFdCount()).toBe(before);
    expect(() => f.readInt()).toThrow(expect.objectContaining({ code: "ERR_RAF_CLOSED" }));
  });

  test("fsync and ftruncate failures surface as Node-shaped errors", () => {
    const backend = faultBackend(getBackend(kind), [
      { call: "sync", errno: "EIO", times: 1 },
      { call: "truncate", errno: "EFBIG", times: 1 },
      { call: "size", errno: "EIO", times: 1 },
      { call: "datasync", errno: "EIO", times: 1 },
    ]);
    const f = new RandomAccessFile(tmp("sync-fail.bin"), "rw", { backend });
    f.writeInt(1);
    expect(() => f.sync()).toThrow(expect.objectContaining({ code: "EIO", syscall: "fsync" }));
    expect(() => f.datasync()).toThrow(
      expect.objectContaining({ code: "EIO", syscall: "fdatasync" }),
    );
    expect(() => f.setLength(10)).toThrow(
      expect.objectContaining({ code: "EFBIG", syscall: "ftruncate" }),
    );
    expect(() => f.length()).toThrow(expect.objectContaining({ code: "EIO", syscall: "fstat" }));
    expect(f.length()).toBe(4);
    f.sync();
    f.datasync();
    f.close();
  });
});

// A real EFBIG: `ulimit -f 1` caps files at 1024 bytes, and with SIGXFSZ ignored write(2) past it takes what
// fits, then fails. The JDK and rafkit run the same writes under it.
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const capped = (cmd: string[]) =>
  spawnSync("bash", ["-c", `trap '' XFSZ; ulimit -f 1; exec "$@"`, "capped", ...cmd], {
    encoding: "utf8",
  });
describe.skipIf(!hasJava || process.platform !== "linux" || !existsSync(dist))(
  "a real EFBIG past RLIMIT_FSIZE in rws/rwd, against the JDK (built dist)",
  () => {
    const java = fileURLToPath(new URL("./fixtures/FileTooLarge.java", import.meta.url));
    const script = fileURLToPath(new URL("./fixtures/file-too-large.mjs", import.meta.url));
    const backends = isNativeAvailable() ? ["native", "node"] : ["node"];
    test.each(["rws", "rwd"])(
      "%s: every write method cut short by the limit, or past it, leaves the pointer where Java's does (both classes, every backend)",
      (mode) => {
        const dir = (name: string) => {
          const d = tmp(name);
          mkdirSync(d);
          return d;
        };
        const j = capped(["java", java, dir(`java-${mode}`), mode]);
        expect(j.status, j.stderr).toBe(0);
        const expected = JSON.parse(j.stdout);
        // What the limit does to Java, so the comparison below cannot pass vacuously.
        expect(expected["write@1022"]).toEqual({ pointer: 1024, length: 1024, threw: true });
        expect(expected["writeInt@2000"]).toEqual({ pointer: 2000, length: 1022, threw: true });
        expect(Object.keys(expected)).toHaveLength(22);
        for (const backend of backends) {
          for (const cls of ["sync", "async"]) {
            const out = dir(`raf-${mode}-${backend}-${cls}`);
            const r = capped(["node", script, dist, out, mode, backend, cls]);
            expect(r.status, r.stderr).toBe(0);
            expect([backend, cls, JSON.parse(r.stdout)]).toEqual([backend, cls, expected]);
          }
        }
      },
    );
  },
);
