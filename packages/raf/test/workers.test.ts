import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { describe, expect, test } from "vitest";
import { RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const script = fileURLToPath(new URL("./fixtures/worker-ranges.mjs", import.meta.url));
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
