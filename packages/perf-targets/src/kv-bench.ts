import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BenchmarkResult, metricOf, parseJmhJson } from "@rafkit/bench";

/**
 * Runs of `rafkv bench` per evaluation. One run is one process per engine, so one disturbed run (a page-cache
 * flush, a JIT outcome) decides a ratio near its goal (load against lmdb moved between 0.98x and 2.19x, kv's
 * BENCHMARKS.md); the runs' iterations merge as a benchmark's forks do.
 */
export const KV_RUNS = 5;

/**
 * `rafkv bench` `runs` times (see {@link runOnce}), each benchmark's iterations merged across the runs as forks
 * (its score the mean over all of them). `ok` is false when any run exited non-zero.
 */
export function runKvBench(
  cli: string,
  runs = KV_RUNS,
): { results: BenchmarkResult[]; ok: boolean } {
  const all = Array.from({ length: runs }, () => runOnce(cli));
  return { results: mergeRuns(all.map((r) => r.results)), ok: all.every((r) => r.ok) };
}

/** The runs' results, one per benchmark and params: each run's forks joined, the score recomputed over them. */
export function mergeRuns(runs: readonly BenchmarkResult[][]): BenchmarkResult[] {
  const merged = new Map<string, BenchmarkResult>();
  for (const results of runs) {
    for (const r of results) {
      const key = `${r.benchmark} ${JSON.stringify(r.params ?? {})}`;
      const seen = merged.get(key);
      if (seen === undefined) {
        merged.set(key, r);
        continue;
      }
      const rawData = [...seen.primaryMetric.rawData, ...r.primaryMetric.rawData];
      merged.set(key, {
        ...seen,
        forks: seen.forks + r.forks,
        primaryMetric: metricOf(rawData, seen.primaryMetric.scoreUnit),
      });
    }
  }
  return [...merged.values()];
}

/**
 * `rafkv <scratch> bench --out <dir>` with its defaults, through the `rafkv` entry `cli` (this repository's
 * or a base build's); its summary goes to stdout as it prints. `ok` is false when it exited non-zero.
 */
function runOnce(cli: string): { results: BenchmarkResult[]; ok: boolean } {
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
