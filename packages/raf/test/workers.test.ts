import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
} from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { describe, expect, test, vi } from "vitest";
import { RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const script = fileURLToPath(new URL("./fixtures/worker-ranges.mjs", import.meta.url));
const unclosed = fileURLToPath(new URL("./fixtures/worker-unclosed.mjs", import.meta.url));
const inFlight = fileURLToPath(new URL("./fixtures/worker-exit-in-flight.mjs", import.meta.url));
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

// The hook used to close every descriptor at once: the native backend's write still queued on the pool then ran on
// the number, which the main thread had reused for another file (it wrote 0xAA bytes into unrelated files). Node
// cancels a worker's queued fs requests: the node backend's case checks the same outcome.
describe.skipIf(!existsSync(dist) || process.platform !== "linux")(
  "a worker that exits with an async call still on the thread pool (built dist)",
  () => {
    test.each((["native", "node"] as const).filter((b) => b === "node" || isNativeAvailable()))(
      "%s backend: its descriptor stays open and locked, so the call cannot land in a file opened after, nor under another holder's lock",
      async (backend) => {
        const file = tmp("in-flight.bin");
        const fifo = tmp("pool.fifo");
        execFileSync("mkfifo", [fifo]);
        const exited = new Int32Array(new SharedArrayBuffer(4));
        // libuv's reading of it: 4 when unset, at least 1, at most 1024.
        const asked = Number.parseInt(process.env.UV_THREADPOOL_SIZE ?? "4", 10) || 1;
        const poolSize = Math.min(Math.max(asked, 1), 1024);
        const w = new Worker(inFlight, {
          workerData: { dist, file, fifo, backend, poolSize, exited },
        });
        const ended = new Promise((resolve) => w.once("exit", resolve));
        const { fd, locked } = await new Promise<{ fd: number; locked: boolean }>((resolve) =>
          w.once("message", resolve),
        );
        expect(locked).toBe(backend === "native");
        await vi.waitFor(() => expect(Atomics.load(exited, 0)).toBe(1), { timeout: 10_000 });
        const victim = tmp("victim.bin");
        const v = openSync(victim, "w+");
        let writer = -1;
        try {
          expect(readlinkSync(`/proc/self/fd/${fd}`)).toBe(file);
          // Frees the pool: the worker's FIFO opens complete, then its queued write runs.
          writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
          await ended;
          expect(statSync(victim).size).toBe(0);
          if (backend === "native") {
            // Held until the process exits: released, another holder's bytes could be written over late.
            const f = new RandomAccessFile(file, "rw", { backend });
            expect(f.tryLock()).toBeNull();
            f.close();
          }
        } finally {
          closeSync(v);
          // Frees the pool whatever failed, or the next test would wait for it (ENXIO: no reader got that far).
          if (writer < 0) {
            try {
              writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
            } catch {}
          }
          await ended;
          if (writer >= 0) closeSync(writer);
        }
      },
    );
  },
);
