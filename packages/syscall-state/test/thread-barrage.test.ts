import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import { isNativeAvailable } from "../src/native-backend";
import { distIndex, tempDir } from "./helpers";

const ready = isNativeAvailable() && existsSync(fileURLToPath(distIndex));
if (!ready)
  console.warn("threadBarrage skipped: needs the native backend and a built dist (pnpm build)");

interface Report {
  kind: string;
  mismatches: number;
  slotMismatches: number;
  iterations: number;
}

// The JDK's CaptureStateUtil threadBarrage: many threads fail at once with different errnos; each
// must always read its own, never a neighbour's.
describe.skipIf(!ready)("threadBarrage", () => {
  const dir = tempDir("barrage");

  test("12 workers x 5 errnos x 20k failing calls: every call sees its own errno", async () => {
    const kinds = ["EBADF", "EINVAL", "EISDIR", "ENOENT", "ENOTDIR"];
    const iterations = 20_000;
    const reports = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const worker = new Worker(new URL("./fixtures/errno-worker.mjs", import.meta.url), {
          workerData: { dist: distIndex.href, kind: kinds[i % kinds.length], iterations, dir },
        });
        return new Promise<Report>((resolve, reject) => {
          worker.once("message", resolve);
          worker.once("error", reject);
          worker.once("exit", (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
        });
      }),
    );
    expect(reports.map((r) => r.iterations)).toEqual(Array(12).fill(iterations));
    expect(new Set(reports.map((r) => r.kind)).size).toBe(kinds.length);
    expect(reports.filter((r) => r.mismatches > 0 || r.slotMismatches > 0)).toEqual([]);
  }, 60_000);
});
