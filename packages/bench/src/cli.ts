#!/usr/bin/env node
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Command, Option } from "commander";
import pc from "picocolors";
import { BUILTIN_SUITES, builtinSuiteUrl } from "./builtin";
import {
  parseCount,
  parseIterationLength,
  parseParamOptions,
  parseResultRef,
  parseTimeOption,
  rewriteJmhArgs,
} from "./cli-args";
import { BenchError } from "./errors";
import { type LoadedSuite, loadSuiteModule } from "./loader";
import { progressListener } from "./progress";
import { compareResults, formatComparison } from "./report/compare";
import { parseJmhJson, toJmhJson } from "./report/jmh-json";
import { renderChart, renderComparisonChart } from "./report/svg";
import { formatTable } from "./report/text";
import { planBenchmarks, runBenchmarks, type SkippedBenchmark } from "./run";
import type { BenchOptions } from "./suite";
import type { Mode, TimeUnit } from "./units";

interface RunFlags {
  list?: boolean;
  forks?: string;
  warmupIterations?: string;
  iterations?: string;
  warmupTime?: string;
  measurementTime?: string;
  timeout?: string;
  param: string[];
  mode?: Mode;
  unit?: TimeUnit;
  gc?: boolean;
  interleave?: boolean;
  json?: string;
  chart?: string;
  title?: string;
  suite: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Writes a report file; a failure is told (`ERR_BENCH_OUTPUT`) and makes the exit code 1, after every other report. */
function writeOutput(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (cause) {
    const error = new BenchError(
      "ERR_BENCH_OUTPUT",
      `cannot write ${file}: ${(cause as Error).message}`,
      {
        cause,
      },
    );
    process.stderr.write(`${pc.red(`rafkit-bench: ${error.message} (${error.code})`)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stderr.write(`${pc.dim(`wrote ${file}`)}\n`);
}

function readResults(file: string) {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new BenchError("ERR_BENCH_BAD_JSON", `cannot read ${file}: ${(cause as Error).message}`, {
      cause,
    });
  }
  try {
    return parseJmhJson(text);
  } catch (error) {
    if (error instanceof BenchError) error.message = `${file}: ${error.message}`;
    throw error;
  }
}

async function loadSuites(modules: string[]): Promise<LoadedSuite[]> {
  const specifiers = modules.length > 0 ? modules : BUILTIN_SUITES.map(builtinSuiteUrl);
  return (await Promise.all(specifiers.map(loadSuiteModule))).flat();
}

function overridesOf(flags: RunFlags): Partial<BenchOptions> {
  const o: Partial<BenchOptions> = {};
  if (flags.forks !== undefined) o.forks = parseCount(flags.forks, "forks");
  if (flags.mode !== undefined) o.mode = flags.mode;
  if (flags.unit !== undefined) o.unit = flags.unit;
  if (flags.gc) o.gc = true;
  const warmup: Partial<BenchOptions["warmup"]> = {};
  const measurement: Partial<BenchOptions["measurement"]> = {};
  if (flags.warmupIterations !== undefined)
    warmup.iterations = parseCount(flags.warmupIterations, "warmup iterations");
  if (flags.iterations !== undefined)
    measurement.iterations = parseCount(flags.iterations, "iterations", 1);
  if (flags.warmupTime !== undefined) Object.assign(warmup, parseIterationLength(flags.warmupTime));
  if (flags.measurementTime !== undefined)
    Object.assign(measurement, parseIterationLength(flags.measurementTime));
  if (flags.timeout !== undefined) o.timeout = parseTimeOption(flags.timeout, "timeout");
  if (Object.keys(warmup).length) o.warmup = warmup as BenchOptions["warmup"];
  if (Object.keys(measurement).length) o.measurement = measurement as BenchOptions["measurement"];
  return o;
}

async function runCommand(filter: string | undefined, flags: RunFlags): Promise<void> {
  const params = parseParamOptions(flags.param);
  const overrides = overridesOf(flags);
  const suites = await loadSuites(flags.suite);
  const selection = {
    ...(filter !== undefined ? { filter } : {}),
    overrides,
    params,
    interleave: flags.interleave ?? false,
  };
  if (flags.list) {
    const plan = planBenchmarks(suites, selection);
    const lines = new Map<string, string>();
    for (const p of plan) {
      if (lines.has(p.id)) continue;
      const space = new Map<string, string[]>();
      for (const q of plan.filter((q) => q.id === p.id)) {
        for (const [k, v] of Object.entries(q.params)) {
          const values = space.get(k) ?? [];
          if (!values.includes(String(v))) values.push(String(v));
          space.set(k, values);
        }
      }
      const params = [...space].map(([k, v]) => `${k}: ${v.join(", ")}`).join("; ");
      lines.set(p.id, params ? `${p.id}  ${pc.dim(`(${params})`)}` : p.id);
    }
    process.stdout.write(`Benchmarks:\n${[...lines.values()].join("\n")}\n`);
    return;
  }
  const report = await runBenchmarks(suites, selection, progressListener());
  printSkipped(report.skipped);
  if (report.results.length > 0) process.stdout.write(`${formatTable(report.results)}\n`);
  else process.stdout.write("No results (every benchmark failed or was skipped).\n");
  // Written even when empty: a file of an earlier run left in place would read as this run's results.
  if (flags.json) writeOutput(flags.json, toJmhJson(report.results));
  if (flags.chart)
    writeOutput(
      flags.chart,
      renderChart(report.results, flags.title ? { title: flags.title } : {}),
    );
  if (report.failures.length > 0) {
    for (const f of report.failures) {
      const params = Object.entries(f.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ");
      process.stderr.write(
        `${pc.red(`error: ${f.benchmark}${params ? ` (${params})` : ""} failed: ${f.error.message}`)}\n`,
      );
    }
    process.stderr.write(
      pc.red(
        `${report.failures.length} of ${report.failures.length + report.results.length} benchmarks failed\n`,
      ),
    );
    process.exitCode = 1;
  }
  // A trial given up on in this process (-f 0) may still hold what kept it waiting (a timer, a socket): JMH exits then.
  if (report.failures.some((f) => (f.error as BenchError).code === "ERR_BENCH_TIMEOUT")) {
    exitWhenWritten = true;
  }
}

let exitWhenWritten = false;

/** One line per skipped benchmark and reason (not per parameter combination), on stderr. */
function printSkipped(skipped: readonly SkippedBenchmark[]): void {
  const seen = new Set<string>();
  for (const s of skipped) {
    if (seen.has(`${s.benchmark}\0${s.reason}`)) continue;
    seen.add(`${s.benchmark}\0${s.reason}`);
    process.stderr.write(`${pc.yellow(`skipped ${s.benchmark}: ${s.reason}`)}\n`);
  }
}

async function compareCommand(
  base: string,
  candidate: string,
  flags: { chart?: string; title?: string },
): Promise<void> {
  // A file whose own name holds a `#` is that file, not a selector.
  const b = existsSync(base) ? { file: base } : parseResultRef(base);
  const c = existsSync(candidate) ? { file: candidate } : parseResultRef(candidate);
  const comparison = compareResults(readResults(b.file), readResults(c.file), {
    ...(b.benchmark !== undefined ? { baseline: b.benchmark } : {}),
    ...(c.benchmark !== undefined ? { candidate: c.benchmark } : {}),
    baselineName: base,
    candidateName: candidate,
  });
  if (comparison.rows.length === 0) {
    throw new BenchError(
      "ERR_BENCH_NO_MATCH",
      `no benchmark of ${base} has a counterpart in ${candidate}`,
    );
  }
  process.stdout.write(`${formatComparison(comparison)}\n`);
  if (flags.chart) {
    writeOutput(
      flags.chart,
      renderComparisonChart(comparison, flags.title ? { title: flags.title } : {}),
    );
  }
}

const program = new Command("rafkit-bench")
  // Options after `compare` belong to compare (both have --chart).
  .enablePositionalOptions()
  .description(
    "JMH-style benchmarks for Node.js: forks, 99.9% confidence intervals, JMH JSON, SVG charts.",
  )
  .argument("[filter]", "regular expression matched against Suite.benchmark")
  .option("-l, --list", "list matching benchmarks and their params, then exit")
  .option("-f, --forks <n>", "fresh child processes per benchmark (0 = in-process)")
  .option("--warmup-iterations <n>", "warmup iterations (also -wi)")
  .option("-i, --iterations <n>", "measurement iterations")
  .option("-w, --warmup-time <len>", "warmup iteration length: 1s, 200ms, or 1000ops")
  .option("-r, --measurement-time <len>", "measurement iteration length: 1s, 200ms, or 1000ops")
  .option(
    "--timeout <time>",
    "iteration timeout (also -to): a trial with no iteration finished this long past its planned length fails, its fork killed (default 10min)",
  )
  .option("-p, --param <name=v1,v2>", "override a param's values (repeatable)", collect, [])
  .addOption(
    new Option("--mode <mode>", "benchmark mode (also -bm)").choices(["avgt", "thrpt", "ss"]),
  )
  .addOption(
    new Option("--unit <unit>", "output time unit (also -tu)").choices(["ns", "us", "ms", "s"]),
  )
  .option("--gc", "force a GC before every iteration (forks get --expose-gc)")
  .option(
    "--interleave",
    "run fork 1 of every benchmark, then fork 2 of each in reverse order, ... (for ratios: a slow spell weighs on all alike)",
  )
  .option("--json <file>", "write results in JMH's JSON result format")
  .option("--chart <file>", "write an SVG bar chart of the results")
  .option("--title <text>", "chart title")
  .option(
    "--suite <module>",
    "load suites from this module instead of the built-in ones (repeatable)",
    collect,
    [],
  )
  .addHelpText(
    "after",
    `\nBuilt-in suites: ${BUILTIN_SUITES.join(", ")}\nExamples:\n  rafkit-bench --list\n  rafkit-bench --suite sum.bench.mjs 'Sum' -f 2 -wi 3 -i 5 -r 200ms -p size=100 --json out.json --chart out.svg\n  rafkit-bench compare before.json after.json --chart diff.svg\n  rafkit-bench compare run.json#getDataView run.json#getBigEndian`,
  )
  .action((filter: string | undefined, flags: RunFlags) => runCommand(filter, flags));

program
  .command("compare")
  .description(
    "compare a baseline with a candidate: two JMH JSON files, or FILE#benchmark selectors",
  )
  .argument("<baseline>", "JMH JSON file, optionally FILE#benchmark")
  .argument("<candidate>", "JMH JSON file, optionally FILE#benchmark")
  .option("--chart <file>", "write an SVG comparison chart")
  .option("--title <text>", "chart title")
  .action((base: string, candidate: string, flags: { chart?: string; title?: string }) =>
    compareCommand(base, candidate, flags),
  );

// A reader that goes away (`| head`) ends what it reads, not the run: the --json and --chart files are still written.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

program
  .parseAsync(rewriteJmhArgs(process.argv))
  .then(() => {
    if (exitWhenWritten) process.stdout.write("", () => process.exit());
  })
  .catch((error: unknown) => {
    const e = error as Error & { code?: string };
    process.stderr.write(
      `${pc.red(`rafkit-bench: ${e?.message ?? String(error)}`)}${e?.code ? pc.dim(` (${e.code})`) : ""}\n`,
    );
    if (!(error instanceof BenchError)) process.stderr.write(`${e?.stack ?? ""}\n`);
    process.exitCode = 1;
  });
