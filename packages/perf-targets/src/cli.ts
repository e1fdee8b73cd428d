#!/usr/bin/env node
// `perf-targets [groups...]`: runs the benchmarks behind rafkit's performance targets through the harness's
// CLI (one run per fork count and warmup, interleaved), then prints every target with PASS/FAIL. `--from` evaluates
// saved JMH JSON instead. `perf-targets compare --base <ref>` measures them before and after (compare-cli.ts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BenchmarkResult, parseJmhJson, renderChart, toJmhJson } from "@rafkit/bench";
import { Command, Option } from "commander";
import { BaselineError } from "./baseline";
import { fail as failWith, readResults as readSaved, writeReport } from "./cli-io";
import { addCompareCommand } from "./compare-cli";
import {
  evaluateTargets,
  exactFilter,
  formatTargets,
  oneResultEach,
  type TargetRun,
  targetRuns,
} from "./evaluate";
import { KV_RUNS, runKvBench } from "./kv-bench";
import { checkRunFlags } from "./run-flags";
import { benchCli, kvCli, suiteModules } from "./suites";
import { TARGET_GROUPS, type TargetGroup } from "./targets";

interface TargetFlags {
  from: string[];
  forks?: string;
  warmupIterations?: string;
  iterations?: string;
  warmupTime?: string;
  measurementTime?: string;
  json?: string;
  chart?: string;
  title?: string;
  strict?: boolean;
}

/**
 * Defaults: 5 measurement iterations of 100 ms after `TARGET_WARMUP` warmup ones, in `TARGET_FORKS` forks, unless a
 * target asks for more (its run's `forks` and `warmupIterations`).
 */
const DEFAULTS = {
  iterations: "5",
  warmupTime: "100ms",
  measurementTime: "100ms",
};

const collect = (value: string, previous: string[]) => [...previous, value];
/** The flags that shape a harness run, as the command line spells them. */
const RUN_FLAGS = [
  ["forks", "-f"],
  ["warmupIterations", "-wi"],
  ["iterations", "-i"],
  ["warmupTime", "-w"],
  ["measurementTime", "-r"],
] as const;

// A declaration, not an arrow: the compiler narrows after a call only to a declared \`never\` function.
function fail(message: string): never {
  return failWith("perf-targets", message);
}
const write = writeReport;
const readResults = (file: string): BenchmarkResult[] => readSaved("perf-targets", file);

/** Runs the benchmarks of one target run through `rafkit-bench`; its table goes to stdout as it prints. */
function runThroughHarness(
  modules: readonly string[],
  { benchmarks, forks, warmupIterations, params }: TargetRun,
  flags: TargetFlags,
): BenchmarkResult[] {
  const dir = mkdtempSync(join(tmpdir(), "rafkit-perf-targets-"));
  try {
    const out = join(dir, "run.json");
    // The run's warmup already is the command line's, when it gives one (targetRuns).
    const o = {
      ...DEFAULTS,
      ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)),
      warmupIterations: String(warmupIterations),
    };
    const args = [
      benchCli(),
      ...modules.flatMap((m) => ["--suite", m]),
      exactFilter(benchmarks),
      ...Object.entries(params).flatMap(([k, v]) => ["-p", `${k}=${v.join(",")}`]),
      ...["-f", String(forks), "-wi", o.warmupIterations, "-i", o.iterations],
      ...["-w", o.warmupTime, "-r", o.measurementTime],
      // Interleaved: the two sides of a ratio see the same machine, whatever it does meanwhile.
      "--interleave",
      ...["--json", out],
    ];
    const run = spawnSync(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
    if (run.status !== 0) process.exitCode = 1;
    try {
      return parseJmhJson(readFileSync(out, "utf8"));
    } catch {
      return []; // nothing ran (the harness said why)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function targetsCommand(names: string[], flags: TargetFlags): void {
  const groups = names.length === 0 || names.includes("all") ? [...TARGET_GROUPS] : names;
  for (const g of groups) {
    if (!(TARGET_GROUPS as readonly string[]).includes(g)) {
      fail(`unknown target group ${JSON.stringify(g)}; use ${TARGET_GROUPS.join(", ")} or all`);
    }
  }
  const selected = groups as TargetGroup[];
  let results: BenchmarkResult[];
  if (flags.from.length > 0) {
    results = flags.from.flatMap(readResults);
  } else {
    const { forks, warmupIterations: warmup } = checkRunFlags(flags, fail);
    const modules = selected.flatMap((g) => suiteModules(g));
    results = [];
    for (const run of targetRuns(
      selected.filter((g) => g !== "kv"),
      forks,
      undefined,
      warmup,
    )) {
      results.push(...runThroughHarness(modules, run, flags));
      process.stdout.write("\n");
    }
    results = oneResultEach(results);
    if (selected.includes("kv")) {
      const given = RUN_FLAGS.filter(([key]) => flags[key] !== undefined).map(([, f]) => f);
      if (given.length > 0)
        process.stderr.write(
          `perf-targets: ${given.join(", ")} do not apply to kv: its ${KV_RUNS} runs of \`rafkv bench\` use their own\n`,
        );
      const kv = runKvBench(kvCli());
      if (!kv.ok) process.exitCode = 1;
      results.push(...kv.results);
    }
  }
  const outcomes = evaluateTargets(results, selected);
  process.stdout.write(`${formatTargets(outcomes)}\n`);
  // After the verdicts: a path that cannot be written costs the files, not the run.
  if (flags.from.length === 0) {
    if (flags.json) write(flags.json, toJmhJson(results));
    if (flags.chart)
      write(flags.chart, renderChart(results, flags.title ? { title: flags.title } : {}));
  }
  if (flags.strict && outcomes.some((o) => o.verdict !== "PASS")) process.exitCode = 1;
}

const program = new Command("perf-targets")
  // Options after `compare` belong to compare (both have -f, -i, ...).
  .enablePositionalOptions()
  .description(
    `run the benchmarks behind rafkit's performance targets and print each target with PASS/FAIL (groups: ${TARGET_GROUPS.join(", ")}, all)`,
  )
  .argument("[groups...]", "target groups (default: all)")
  .addOption(
    new Option("--from <file>", "evaluate saved JMH JSON results instead of running (repeatable)")
      .argParser(collect)
      .default([])
      // Nothing runs with --from: these would be accepted and silently ignored.
      .conflicts([
        "forks",
        "warmupIterations",
        "iterations",
        "warmupTime",
        "measurementTime",
        "json",
        "chart",
        "title",
      ]),
  )
  .option("-f, --forks <n>", "forks per benchmark (default 2, more for targets with thin margins)")
  .option(
    "--warmup-iterations <n>",
    "warmup iterations (default 3, more for targets whose forks settle late)",
  )
  .option("-i, --iterations <n>", "measurement iterations (default 5)")
  .option("-w, --warmup-time <len>", "warmup iteration length (default 100ms)")
  .option("-r, --measurement-time <len>", "measurement iteration length (default 100ms)")
  .option("--json <file>", "write the run's results in JMH's JSON result format")
  .option("--chart <file>", "write an SVG bar chart of the run")
  .option("--title <text>", "chart title")
  .option("--strict", "exit with status 1 unless every target passes")
  .action((groups: string[], flags: TargetFlags) => targetsCommand(groups, flags));
addCompareCommand(program);
const argv = process.argv.map((a) => (a === "-wi" ? "--warmup-iterations" : a));
// `pnpm <script> -- --base e1dec15` passes its `--` on: what follows is still options.
const dashes = argv.indexOf("--");
if (dashes === 2 || (dashes === 3 && argv[2] === "compare")) argv.splice(dashes, 1);
try {
  await program.parseAsync(argv);
} catch (error) {
  // A baseline that cannot be made is said in one line, as every other refusal; anything else with its stack.
  if (error instanceof BaselineError) fail(error.message);
  throw error;
}
