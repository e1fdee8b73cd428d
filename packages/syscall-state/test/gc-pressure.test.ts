import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { isNativeAvailable } from "../src/native-backend";
import { distIndex } from "./helpers";

const ready = isNativeAvailable() && existsSync(fileURLToPath(distIndex));
if (!ready)
  console.warn("GC-pressure test skipped: needs the native backend and a built dist (pnpm build)");

// errno lives in thread-local C storage until the adapter reads it; a GC that ran in between and made
// a failing system call of its own (mmap, madvise) would overwrite it. Compaction on every major GC and
// a tiny young generation make GCs as frequent as V8 allows.
describe.skipIf(!ready)("errno under GC pressure", () => {
  test("4M alternating failing calls with allocation churn under --stress-compaction: zero mismatches", () => {
    const fixture = fileURLToPath(new URL("./fixtures/gc-churn.mjs", import.meta.url));
    const out = execFileSync(
      process.execPath,
      ["--stress-compaction", "--max-semi-space-size=1", fixture, distIndex.href, "4000000"],
      { encoding: "utf8", timeout: 120_000 },
    );
    const report = JSON.parse(out) as { iterations: number; mismatches: number; gcs: number };
    expect(report.iterations).toBe(4_000_000);
    expect(report.gcs).toBeGreaterThan(100);
    expect(report.mismatches).toBe(0);
  }, 150_000);
});
