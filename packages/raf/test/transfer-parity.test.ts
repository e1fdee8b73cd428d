import { readFileSync, writeFileSync } from "node:fs";
import { getBackend, isNativeAvailable } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { BACKENDS, tempDir } from "./support/temp";

const tmp = tempDir();
const SIZE = 20_000;
const backends = BACKENDS.filter((b) => b === "node" || isNativeAvailable());

function pattern(): Uint8Array {
  return Uint8Array.from({ length: SIZE }, (_, k) => (k * 7 + 3) & 0xff);
}

/** Each large transfer (at least `bufferSize`), sharing no byte with the window, which holds a pending write at 10 000. */
type Transfer = {
  readonly name: string;
  readonly sync: (f: RandomAccessFile) => unknown;
  readonly async: (f: AsyncRandomAccessFile) => Promise<unknown>;
};

const big = new Uint8Array(1000).fill(0xee);
const large = new Uint8Array(3000).fill(0xee);
const transfers: Transfer[] = [
  {
    name: "read",
    sync: (f) => f.read(new Uint8Array(1000)),
    async: (f) => f.read(new Uint8Array(1000)),
  },
  {
    name: "readFully",
    sync: (f) => f.readFully(new Uint8Array(1000)),
    async: (f) => f.readFully(new Uint8Array(1000)),
  },
  {
    name: "readFully past the end",
    sync: (f) => {
      f.seek(SIZE - 500);
      f.readFully(new Uint8Array(1000));
    },
    async: async (f) => {
      await f.seek(SIZE - 500);
      await f.readFully(new Uint8Array(1000));
    },
  },
  {
    name: "readAt",
    sync: (f) => f.readAt(2000, new Uint8Array(1000)),
    async: (f) => f.readAt(2000, new Uint8Array(1000)),
  },
  {
    name: "readFullyAt",
    sync: (f) => f.readFullyAt(2000, new Uint8Array(1000)),
    async: (f) => f.readFullyAt(2000, new Uint8Array(1000)),
  },
  { name: "write", sync: (f) => f.write(big), async: (f) => f.write(big) },
  { name: "writeAt", sync: (f) => f.writeAt(2000, big), async: (f) => f.writeAt(2000, big) },
];

const codeOf = (e: unknown) => (e as { code?: string }).code ?? String(e);

describe.each(backends)(
  "sync and async agree on large transfers next to pending writes (%s backend)",
  (kind) => {
    test.each(transfers.map((t) => [t.name, t] as const))(
      "%s: same result, pointer and file, when flushing the pending write fails with ENOSPC",
      async (_name, t) => {
        const outcomes = [];
        for (const cls of ["sync", "async"] as const) {
          const p = tmp(`${cls}.bin`);
          writeFileSync(p, pattern());
          const backend = faultBackend(getBackend(kind));
          const options = { backend, bufferSize: 64 };
          let result: unknown;
          let pointer: number;
          let pendingOnDisk: unknown;
          let closed: unknown = "ok";
          if (cls === "sync") {
            const f = new RandomAccessFile(p, "rw", options);
            f.writeIntAt(10_000, 0x01020304);
            backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
            try {
              result = t.sync(f);
            } catch (e) {
              result = codeOf(e);
            }
            pointer = f.getFilePointer();
            const onDisk = readFileSync(p);
            pendingOnDisk = onDisk.subarray(10_000, 10_004).equals(Buffer.from([1, 2, 3, 4]));
            try {
              f.close();
            } catch (e) {
              closed = codeOf(e);
            }
          } else {
            const f = await AsyncRandomAccessFile.open(p, "rw", options);
            await f.writeIntAt(10_000, 0x01020304);
            backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
            try {
              result = await t.async(f);
            } catch (e) {
              result = codeOf(e);
            }
            pointer = await f.getFilePointer();
            const onDisk = readFileSync(p);
            pendingOnDisk = onDisk.subarray(10_000, 10_004).equals(Buffer.from([1, 2, 3, 4]));
            await f.close().catch((e: unknown) => {
              closed = codeOf(e);
            });
          }
          outcomes.push({ result, pointer, pendingOnDisk, closed, file: [...readFileSync(p)] });
        }
        const [sync, async] = outcomes;
        expect(sync).toEqual(async);
        // Both: the failing flush surfaced on this call (the write it kept reached the file at close).
        expect(async?.result).toBe("ENOSPC");
        expect(async?.file.slice(10_000, 10_004)).toEqual([1, 2, 3, 4]);
      },
    );

    test.each([
      ["clean", false],
      ["next to a pending write", true],
    ] as const)(
      "a large write whose first pwrite is short, then fails, fails in both classes (%s): the rest is not kept",
      async (_name, pending) => {
        for (const cls of ["sync", "async"] as const) {
          const p = tmp(`${cls}-short.bin`);
          writeFileSync(p, pattern());
          const backend = faultBackend(getBackend(kind));
          // 2500 of 3000 bytes reach the file, then the disk is full: the 500 left fit the window.
          const options = { backend, bufferSize: 1024 };
          const rules = () => {
            backend.inject({
              call: "pwrite",
              shortTransfer: 2500,
              times: 1,
              when: (c) => c.length === 3000,
            });
            backend.inject({
              call: "pwrite",
              errno: "ENOSPC",
              when: (c) => c.position >= 4500 && c.position < 5000,
            });
          };
          let result: unknown = "ok";
          let pointer: number;
          let closed: unknown = "ok";
          if (cls === "sync") {
            const f = new RandomAccessFile(p, "rw", options);
            if (pending) f.writeIntAt(10_000, 0x01020304);
            f.seek(2000);
            rules();
            try {
              f.write(large);
            } catch (e) {
              result = codeOf(e);
            }
            pointer = f.getFilePointer();
            try {
              f.close();
            } catch (e) {
              closed = codeOf(e);
            }
          } else {
            const f = await AsyncRandomAccessFile.open(p, "rw", options);
            if (pending) await f.writeIntAt(10_000, 0x01020304);
            await f.seek(2000);
            rules();
            await f.write(large).catch((e: unknown) => {
              result = codeOf(e);
            });
            pointer = await f.getFilePointer();
            await f.close().catch((e: unknown) => {
              closed = codeOf(e);
            });
          }
          // As the JDK: the write throws, the pointer is after the bytes that reached the file.
          const expected = pattern();
          expected.fill(0xee, 2000, 4500);
          if (pending) expected.set([1, 2, 3, 4], 10_000);
          expect({ cls, result, pointer, closed }).toEqual({
            cls,
            result: "ENOSPC",
            pointer: 4500,
            closed: "ok",
          });
          expect(readFileSync(p).equals(expected)).toBe(true);
        }
      },
    );

    test.each(transfers.map((t) => [t.name, t] as const))(
      "%s: the pending write reaches the file first, in both classes (for a write: program order at the OS)",
      async (_name, t) => {
        for (const cls of ["sync", "async"] as const) {
          const p = tmp(`${cls}-order.bin`);
          writeFileSync(p, pattern());
          const options = { backend: getBackend(kind), bufferSize: 64 };
          if (cls === "sync") {
            const f = new RandomAccessFile(p, "rw", options);
            f.writeIntAt(10_000, 0x01020304);
            try {
              t.sync(f);
            } catch {}
            expect([cls, [...readFileSync(p).subarray(10_000, 10_004)]]).toEqual([
              cls,
              [1, 2, 3, 4],
            ]);
            f.close();
          } else {
            const f = await AsyncRandomAccessFile.open(p, "rw", options);
            await f.writeIntAt(10_000, 0x01020304);
            try {
              await t.async(f);
            } catch {}
            expect([cls, [...readFileSync(p).subarray(10_000, 10_004)]]).toEqual([
              cls,
              [1, 2, 3, 4],
            ]);
            await f.close();
          }
        }
      },
    );
  },
);
