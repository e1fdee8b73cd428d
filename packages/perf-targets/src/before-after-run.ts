import {
  type BenchmarkResult,
  type BenchOptions,
  formatTable,
  type LoadedSuite,
  loadSuiteModule,
  parseIterationLength,
  progressListener,
  type RunListener,
  runBenchmarks,
} from "@rafkit/bench";
import {
  exactFilter,
  oneResultEach,
  type TargetRun,
  targetBenchmarks,
  targetRuns,
} from "./evaluate";
import { runKvBench } from "./kv-bench";
import { BASE_PREFIX, baseSuiteModule } from "./overlay";
import { kvCli, type PackageRoots, suiteModules } from "./suites";
import type { TargetGroup } from "./targets";

/** What one build's side of a before/after run gave. */
export interface SideResults {
  /** Its results, under the suites' own names. */
  results: BenchmarkResult[];
  /** Why some benchmarks (`Suite.benchmark`) gave no result: skipped, failed, or their module did not load. */
  notes: Map<string, string>;
}

/** Iterations and their lengths, as `perf-targets` takes them (`-wi 3 -i 5 -w 100ms -r 100ms`). */
export interface IterationFlags {
  /** Warmup iterations per fork (default: each target's own). */
  warmupIterations?: number;
  /** Measurement iterations per fork. */
  iterations: number;
  /** Length of a warmup iteration (`100ms`, `1000ops`). */
  warmupTime: string;
  /** Length of a measurement iteration. */
  measurementTime: string;
}

/** Options of `runBeforeAfter`. */
export interface BeforeAfterOptions {
  /** The overlay's roots: the current suites over the base build (`buildOverlay`). */
  base: PackageRoots;
  /** This repository's packages. */
  current: PackageRoots;
  /** Forks per benchmark for every target (default: each target's own). */
  forks?: number;
  /** Iterations. */
  iterations: IterationFlags;
  /** Progress display (default: the harness's, on a terminal). */
  listener?: RunListener;
  /** Where run tables go (default stdout). */
  print?: (text: string) => void;
}

function overrides(run: TargetRun, it: IterationFlags): Partial<BenchOptions> {
  return {
    forks: run.forks,
    warmup: { iterations: run.warmupIterations, ...parseIterationLength(it.warmupTime) },
    measurement: { iterations: it.iterations, ...parseIterationLength(it.measurementTime) },
  };
}

const unprefixed = (id: string) => (id.startsWith(BASE_PREFIX) ? id.slice(BASE_PREFIX.length) : id);

/** Loads the base build's suites of a group; a module that does not load notes every benchmark it had. */
async function loadBase(group: TargetGroup, roots: PackageRoots, notes: Map<string, string>) {
  const loaded: LoadedSuite[] = [];
  for (const module of suiteModules(group, roots)) {
    try {
      loaded.push(...(await loadSuiteModule(baseSuiteModule(module))));
    } catch (error) {
      const why = `the current suite does not load on the base: ${(error as Error).message}`;
      for (const id of targetBenchmarks([group])) notes.set(id, why);
    }
  }
  return loaded;
}

/**
 * Runs the benchmarks behind the targets of `groups` on both builds in one run: per target run (a suite and
 * its fork count and warmup) the current suite and the base's (`base$<name>`) in one `runBenchmarks` call with
 * `interleave`, so fork 1 of each runs before fork 2 of either (fork 2 in reverse order) and a slow spell
 * weighs on both; kv runs the base's `rafkv bench`, then the current one. Results come back split by build.
 */
export async function runBeforeAfter(
  groups: readonly TargetGroup[],
  options: BeforeAfterOptions,
): Promise<{ before: SideResults; after: SideResults; failed: boolean }> {
  const print = options.print ?? ((text: string) => void process.stdout.write(text));
  const before: SideResults = { results: [], notes: new Map() };
  const after: SideResults = { results: [], notes: new Map() };
  let failed = false;
  const suites: LoadedSuite[] = [];
  for (const group of groups) {
    const current = (
      await Promise.all(suiteModules(group, options.current).map((m) => loadSuiteModule(m)))
    ).flat();
    const base = new Map(
      (await loadBase(group, options.base, before.notes)).map((l) => [l.suite.name, l]),
    );
    // Each current suite, then the base's of the same name: a run's plan order.
    for (const l of current) {
      suites.push(l);
      const b = base.get(`${BASE_PREFIX}${l.suite.name}`);
      if (b) suites.push(b);
    }
  }
  const ids = new Set(suites.map((l) => l.suite.name));
  for (const run of targetRuns(
    groups.filter((g) => g !== "kv"),
    options.forks,
    undefined,
    options.iterations.warmupIterations,
  )) {
    const benchmarks = [
      ...run.benchmarks,
      ...run.benchmarks
        .map((id) => `${BASE_PREFIX}${id}`)
        .filter((id) => ids.has(id.slice(0, id.lastIndexOf(".")))),
    ];
    const report = await runBenchmarks(
      suites,
      {
        filter: exactFilter(benchmarks),
        overrides: overrides(run, options.iterations),
        params: run.params,
        interleave: true,
      },
      options.listener ?? progressListener(),
    );
    if (report.results.length > 0) print(`${formatTable(report.results)}\n\n`);
    for (const r of report.results) {
      const side = r.benchmark.startsWith(BASE_PREFIX) ? before : after;
      side.results.push({ ...r, benchmark: unprefixed(r.benchmark) });
    }
    for (const s of report.skipped) {
      const side = s.benchmark.startsWith(BASE_PREFIX) ? before : after;
      side.notes.set(unprefixed(s.benchmark), `skipped: ${s.reason}`);
    }
    for (const f of report.failures) {
      const side = f.benchmark.startsWith(BASE_PREFIX) ? before : after;
      side.notes.set(unprefixed(f.benchmark), `failed: ${f.error.message}`);
      process.stderr.write(`error: ${f.benchmark} failed: ${f.error.message}\n`);
      failed = true;
    }
  }
  before.results = oneResultEach(before.results);
  after.results = oneResultEach(after.results);
  if (groups.includes("kv")) {
    // The base's rafkv (its own engine against lmdb and classic-level), then the current one.
    for (const [side, roots, label] of [
      [before, options.base, "base"],
      [after, options.current, "current"],
    ] as const) {
      print(`== rafkv bench (${label})\n`);
      const kv = runKvBench(kvCli(roots));
      if (!kv.ok) {
        failed = true;
        for (const id of targetBenchmarks(["kv"]))
          side.notes.set(id, `rafkv bench failed on the ${label} build`);
      }
      side.results.push(...kv.results);
    }
  }
  return { before, after, failed };
}
