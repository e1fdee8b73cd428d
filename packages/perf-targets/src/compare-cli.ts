import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchmarkResult, toJmhJson } from "@rafkit/bench";
import { type Command, Option } from "commander";
import { describeCheckout, prepareBaseline, repoRoot } from "./baseline";
import {
  compareTargets,
  DEFAULT_NOISE,
  formatBeforeAfter,
  markdownBeforeAfter,
  type NoiseRule,
} from "./before-after";
import { runBeforeAfter } from "./before-after-run";
import { fail as failWith, readResults as readSaved, writeReport } from "./cli-io";
import { buildOverlay } from "./overlay";
import { checkRunFlags } from "./run-flags";
import { currentRoots } from "./suites";
import { TARGET_GROUPS, type TargetGroup } from "./targets";

interface CompareFlags {
  base?: string;
  fromBefore?: string;
  fromAfter?: string;
  cacheDir?: string;
  forks?: string;
  warmupIterations?: string;
  iterations?: string;
  warmupTime?: string;
  measurementTime?: string;
  jsonDir: string;
  out?: string;
  noiseFloor: string;
  strict?: boolean;
}

// A declaration, not an arrow: the compiler narrows after a call only to a declared \`never\` function.
function fail(message: string): never {
  return failWith("perf-targets compare", message);
}
const write = writeReport;
const readResults = (file: string): BenchmarkResult[] => readSaved("perf-targets compare", file);

function groupsOf(names: string[]): TargetGroup[] {
  const groups = names.length === 0 || names.includes("all") ? [...TARGET_GROUPS] : names;
  for (const g of groups) {
    if (!(TARGET_GROUPS as readonly string[]).includes(g))
      fail(`unknown target group ${JSON.stringify(g)}; use ${TARGET_GROUPS.join(", ")} or all`);
  }
  return groups as TargetGroup[];
}

async function compareCommand(names: string[], flags: CompareFlags): Promise<void> {
  const groups = groupsOf(names);
  const floor = Number(flags.noiseFloor) / 100;
  if (!(floor >= 0)) fail(`--noise-floor takes a percentage, got ${flags.noiseFloor}`);
  const noise: NoiseRule = { ...DEFAULT_NOISE, floor };
  // Before the baseline's checkout and build, which take minutes.
  const counts = checkRunFlags(flags, fail);
  let before: BenchmarkResult[];
  let after: BenchmarkResult[];
  let title: string[];
  const notes: { beforeNotes?: Map<string, string>; afterNotes?: Map<string, string> } = {};
  if (flags.fromBefore !== undefined || flags.fromAfter !== undefined) {
    if (flags.fromBefore === undefined || flags.fromAfter === undefined)
      fail("--from-before and --from-after go together");
    before = readResults(flags.fromBefore);
    after = readResults(flags.fromAfter);
    title = [`Before: \`${flags.fromBefore}\`; after: \`${flags.fromAfter}\`.`];
  } else {
    if (flags.base === undefined) fail("give --base <git-ref> (or --from-before and --from-after)");
    const here = dirname(fileURLToPath(import.meta.url));
    const repo = repoRoot(here);
    const base = prepareBaseline(flags.base, {
      repo,
      ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}),
    });
    const overlay = buildOverlay(base.roots, currentRoots());
    const started = new Date();
    try {
      const run = await runBeforeAfter(groups, {
        base: overlay.roots,
        current: currentRoots(),
        ...(counts.forks !== undefined ? { forks: counts.forks } : {}),
        iterations: {
          ...(counts.warmupIterations !== undefined
            ? { warmupIterations: counts.warmupIterations }
            : {}),
          iterations: counts.iterations ?? 5,
          warmupTime: flags.warmupTime ?? "100ms",
          measurementTime: flags.measurementTime ?? "100ms",
        },
      });
      if (run.failed) process.exitCode = 1;
      before = run.before.results;
      after = run.after.results;
      notes.beforeNotes = run.before.notes;
      notes.afterNotes = run.after.notes;
    } finally {
      overlay.dispose();
    }
    const minutes = ((Date.now() - started.getTime()) / 60_000).toFixed(1);
    title = [
      `Before: ${flags.base} (${base.sha.slice(0, 7)}); after: ${describeCheckout(repo)}. ` +
        `Groups ${groups.join(", ")}, one run of ${minutes} min from ${started.toISOString()} on Node ${process.versions.node}, ` +
        `forks interleaved: \`perf-targets ${process.argv.slice(2).join(" ")}\`.`,
    ];
    write(join(flags.jsonDir, "before.json"), toJmhJson(before));
    write(join(flags.jsonDir, "after.json"), toJmhJson(after));
  }
  const rows = compareTargets(before, after, groups, { noise, ...notes });
  process.stdout.write(`${formatBeforeAfter(rows, noise)}\n`);
  if (flags.out) write(flags.out, markdownBeforeAfter(rows, title, noise));
  if (flags.strict && rows.some((r) => r.movement === "worse beyond noise")) process.exitCode = 1;
}

/** Adds `compare` to the `perf-targets` command. */
export function addCompareCommand(program: Command): void {
  program
    .command("compare")
    .description(
      "measure every target on a base commit's build and on the current build in one run, and print before, after and the change",
    )
    .argument("[groups...]", `target groups (${TARGET_GROUPS.join(", ")}; default: all)`)
    .option(
      "--base <git-ref>",
      "the commit to compare with (built once in <repo>/.cache/baseline/<sha>)",
    )
    .option("--cache-dir <dir>", "where base builds go (default <repo>/.cache/baseline)")
    .addOption(
      new Option("--from-before <file>", "the base build's saved JMH JSON: nothing runs").conflicts(
        ["base", "forks", "warmupIterations", "iterations", "warmupTime", "measurementTime"],
      ),
    )
    .option("--from-after <file>", "the current build's saved JMH JSON (with --from-before)")
    .option("-f, --forks <n>", "forks per benchmark (default: each target's, 2 or more)")
    .option(
      "--warmup-iterations <n>",
      "warmup iterations (default 3, more for targets whose forks settle late)",
    )
    .option("-i, --iterations <n>", "measurement iterations (default 5)")
    .option("-w, --warmup-time <len>", "warmup iteration length (default 100ms)")
    .option("-r, --measurement-time <len>", "measurement iteration length (default 100ms)")
    .option("--json-dir <dir>", "where before.json and after.json go", "bench-results/before-after")
    .option("--out <file>", "also write the table as markdown (for a changeset or a PR note)")
    .option(
      "--noise-floor <percent>",
      "least change that counts, whatever the CIs say",
      String(DEFAULT_NOISE.floor * 100),
    )
    .option("--strict", "exit with status 1 when a target got worse beyond noise")
    .action((groups: string[], flags: CompareFlags) => compareCommand(groups, flags));
}
