#!/usr/bin/env node
// `perf-seeds`: the three benchmarks rafkit grew from, in their own shapes, with JDK 17, JDK 25 and rafkit in
// one table per benchmark (markdown), one SVG chart per benchmark, and the run's JMH JSON. `--from` redraws
// them from a saved run.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BenchmarkResult,
  loadSuiteModule,
  parseJmhJson,
  renderChart,
  toJmhJson,
} from "@rafkit/bench";
import { Command } from "commander";
import { readResults } from "./cli-io";
import { seedSummary, seedTables, seedTitle } from "./seed-tables";
import { benchCli, suiteModules } from "./suites";

interface SeedFlags {
  from: string[];
  out: string;
  forks: string;
  warmupIterations: string;
  iterations: string;
  warmupTime: string;
  measurementTime: string;
}

/** The declared `impl` values of a suite that name a JDK, plus rafkit's default. */
async function implsOf(module: string, suite: string): Promise<string[]> {
  const loaded = (await loadSuiteModule(module)).find((l) => l.suite.name === suite);
  const impls = (loaded?.suite.params?.impl ?? []) as string[];
  return impls.filter((i) => i.startsWith("jdk") || i === "rafkit");
}

function run(modules: string[], filter: string, impls: string[], flags: SeedFlags, out: string) {
  const args = [
    benchCli(),
    ...modules.flatMap((m) => ["--suite", m]),
    filter,
    ...["-p", `impl=${impls.join(",")}`],
    ...["-f", flags.forks, "-wi", flags.warmupIterations, "-i", flags.iterations],
    ...["-w", flags.warmupTime, "-r", flags.measurementTime],
    "--interleave",
    ...["--json", out],
  ];
  const r = spawnSync(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) process.exitCode = 1;
  try {
    return parseJmhJson(readFileSync(out, "utf8"));
  } catch {
    return [];
  }
}

/** A chart per benchmark with one bar colour per `impl`: each result renamed `Suite.impl`, method as a param. */
function chartOf(results: readonly BenchmarkResult[], suite: string, title: string): string {
  const rows = results
    .filter((r) => r.benchmark.startsWith(`${suite}.`))
    .map((r) => {
      const { impl, ...rest } = r.params ?? {};
      return {
        ...r,
        benchmark: `${suite}.${impl}`,
        params: { method: r.benchmark.slice(suite.length + 1), ...rest },
      };
    });
  return renderChart(rows, { title });
}

async function seeds(flags: SeedFlags): Promise<void> {
  mkdirSync(flags.out, { recursive: true });
  let results: BenchmarkResult[];
  if (flags.from.length > 0) {
    results = flags.from.flatMap((f) => readResults("perf-seeds", f));
  } else {
    const [raf] = suiteModules("raf");
    const [syscall] = suiteModules("syscall-state");
    results = [
      ...run(
        [raf!],
        "^RandomAccessFile(Read)?Benchmark\\.",
        await implsOf(raf!, "RandomAccessFileBenchmark"),
        flags,
        join(flags.out, "seeds-raf.json"),
      ),
      ...run(
        [syscall!],
        "^CaptureStateUtilBench\\.(explicit|tl)",
        ["rafkit", "jdk25"],
        flags,
        join(flags.out, "seeds-capture.json"),
      ),
    ];
    writeFileSync(join(flags.out, "seeds.json"), toJmhJson(results));
  }
  for (const [suite, issue] of [
    ["RandomAccessFileBenchmark", "JDK-8298639"],
    ["RandomAccessFileReadBenchmark", "JDK-8292937"],
    ["CaptureStateUtilBench", "JDK-8347408"],
  ] as const) {
    const file = join(flags.out, `${suite}.svg`);
    // Named for what ran: the emulation, or a JDK 21+ other than 25, is not "JDK 25".
    writeFileSync(
      file,
      chartOf(results, suite, `${suite} (${issue}): ${seedTitle(results, suite)}`),
    );
    process.stderr.write(`wrote ${file}\n`);
  }
  const tables = seedTables(results);
  writeFileSync(join(flags.out, "seeds.md"), tables);
  // The root README's "How rafkit compares": ratios only.
  writeFileSync(join(flags.out, "summary.md"), seedSummary(results));
  process.stdout.write(`\n${tables}`);
}

new Command("perf-seeds")
  .description(
    "the seeds' benchmarks with JDK 17, JDK 25 and rafkit: tables, SVG charts and JMH JSON",
  )
  .option(
    "--from <file>",
    "redraw from saved results (seeds.json, or the packages' bench-results) instead of running (repeatable)",
    (v: string, prev: string[]) => [...prev, v],
    [] as string[],
  )
  .option("--out <dir>", "where the JSON, SVG and markdown go", "bench-results")
  .option("-f, --forks <n>", "forks per benchmark", "2")
  .option("--warmup-iterations <n>", "warmup iterations", "3")
  .option("-i, --iterations <n>", "measurement iterations", "5")
  .option("-w, --warmup-time <len>", "warmup iteration length", "200ms")
  .option("-r, --measurement-time <len>", "measurement iteration length", "200ms")
  .action((flags: SeedFlags) => seeds(flags))
  .parseAsync(process.argv.map((a) => (a === "-wi" ? "--warmup-iterations" : a)));
