import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BenchmarkResult, parseJmhJson } from "@rafkit/bench";

/**
 * `rafkv <scratch> bench --out <dir>` with its defaults, through the `rafkv` entry `cli` (this repository's
 * or a base build's); its summary goes to stdout as it prints. `ok` is false when it exited non-zero.
 */
export function runKvBench(cli: string): { results: BenchmarkResult[]; ok: boolean } {
  const dir = mkdtempSync(join(tmpdir(), "rafkit-perf-targets-kv-"));
  try {
    const out = join(dir, "out");
    mkdirSync(join(dir, "stores"));
    const run = spawnSync(process.execPath, [cli, join(dir, "stores"), "bench", "--out", out], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    try {
      return {
        results: parseJmhJson(readFileSync(join(out, "bench.json"), "utf8")),
        ok: run.status === 0,
      };
    } catch {
      return { results: [], ok: run.status === 0 }; // nothing ran (rafkv said why)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
