import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { describe, expect, test } from "vitest";
import { RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const script = fileURLToPath(new URL("./fixtures/worker-ranges.mjs", import.meta.url));
const unclosed = fileURLToPath(new URL("./fixtures/worker-unclosed.mjs", import.meta.url));
if (!existsSync(dist))
  console.warn("workers test skipped: build the package first (it runs dist/)");

const WORKERS = 4;
const INTS = 3000;

const combos = [
  ["async", "native"],
  ["sync", "native"],
  ["async", "node"],
] as const;

describe.skipIf(!existsSync(dist))("worker_threads sharing one file (built dist)", () => {
  test.each(combos.filter(([, b]) => b === "node" || isNativeAvailable()))(
    "%s class, %s backend: each worker's own instance writes and reads its disjoint range; contents are exact",
    async (cls, backend) => {
      const file = tmp("shared.bin");
      const total = WORKERS * INTS * 4;
      const f = new RandomAccessFile(file, "rw");
      f.setLength(total);
      f.close();
      const results = await Promise.all(
        Array.from(
          { length: WORKERS },
          (_, index) =>
            new Promise<{ mismatches: number; pointer: number; backendName: string }>(
              (resolve, reject) => {
                const w = new Worker(script, {
                  workerData: { dist, file, index, ints: INTS, cls, backend },
                });
                w.once("message", resolve);
                w.once("error", reject);
                w.once("exit", (code) => {
                  if (code !== 0) reject(new Error(`worker exited with ${code}`));
                });
              },
            ),
        ),
      );
      for (const r of results)
        expect(r).toEqual({ mismatches: 0, pointer: 0, backendName: backend });
      const disk = readFileSync(file);
      expect(disk.length).toBe(total);
      let bad = 0;
      for (let i = 0; i < WORKERS; i++) {
        for (let k = 0; k < INTS; k++) {
          if (disk.readInt32BE((i * INTS + k) * 4) !== i * 1_000_000 + k) bad++;
        }
      }
      expect(bad).toBe(0);
    },
  );
});

/** This process's descriptors open on `file` (Linux). */
function fdsOn(file: string): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // closed meanwhile (the listing's own descriptor)
    }
  }).length;
}

// Node closes the descriptors its own fs opened in a worker (`trackUnmanagedFds`): the node backend's cases
// check the same outcome; the native backend's descriptors are closed by rafkit's exit hook alone.
describe.skipIf(!existsSync(dist) || process.platform !== "linux")(
  "a worker that ends with its files open (built dist)",
  () => {
    const cases = (["sync", "async"] as const).flatMap((cls) =>
      (["native", "node"] as const).flatMap((backend) =>
        (["natural", "exit"] as const).map((end) => [cls, backend, end] as const),
      ),
    );
    test.each(cases.filter(([, b]) => b === "node" || isNativeAvailable()))(
      "%s class, %s backend, %s end: its descriptors and locks go with it, its unflushed writes too",
      async (cls, backend, end) => {
        const file = tmp("unclosed.bin");
        const w = new Worker(unclosed, { workerData: { dist, file, cls, backend, end } });
        const [message] = await Promise.all([
          new Promise<{ locked: boolean }>((resolve) => w.once("message", resolve)),
          new Promise((resolve) => w.once("exit", resolve)),
        ]);
        expect(message.locked).toBe(backend === "native");
        expect(fdsOn(file)).toBe(0);
        const f = new RandomAccessFile(file, "rw", { backend });
        if (backend === "native") {
          const lock = f.tryLock();
          expect(lock).not.toBeNull();
          lock?.release();
        }
        expect(f.length()).toBe(0); // never flushed: lost, as at collection
        f.close();
      },
    );
  },
);
