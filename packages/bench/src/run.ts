import { BenchError } from "./errors";
import { runExternalFork } from "./external";
import { runFork } from "./fork";
import type { LoadedSuite } from "./loader";
import { benchmarkOptions, resolveOptions } from "./options";
import { type BenchmarkResult, buildResult } from "./result";
import { type IterationRecord, runTrial, type TrialResult } from "./runner";
import {
  type AnySuite,
  type BenchOptions,
  benchmarkEntry,
  type ExternalCommand,
  isSuite,
  type ParamValue,
  type ParamValues,
  paramCombinations,
} from "./suite";

/** One benchmark with one parameter combination, ready to run. */
export interface PlannedBenchmark {
  /** `Suite.benchmark`. */
  id: string;
  /** The suite. */
  suite: AnySuite;
  /** Module URL of the suite (needed to fork). */
  module?: string;
  /** Benchmark name. */
  benchmark: string;
  /** Parameter values. */
  params: ParamValues;
  /** Resolved options. */
  options: BenchOptions;
}

/** Selection and overrides for a run. */
export interface RunOptions {
  /** Regular expression (or its source) matched against `Suite.benchmark`; default: all. */
  filter?: RegExp | string;
  /** Option overrides (command line level: they win over suite and benchmark options). */
  overrides?: Partial<BenchOptions>;
  /** Parameter overrides, values as text (`-p kiloBytes=1,5`); converted to the declared values' type. */
  params?: Record<string, readonly string[]>;
  /**
   * Run fork 1 of every benchmark, then fork 2 of every one, and so on, instead of all forks of one benchmark
   * before the next: a machine that slows down for a minute then weighs on every benchmark alike, which a
   * ratio of two of them needs. Odd rounds run in reverse order, so no benchmark always goes first. Results
   * and their order are the same.
   */
  interleave?: boolean;
}

/** Callbacks for progress displays. */
export interface RunListener {
  /** Before anything runs. */
  onStart?(plan: readonly PlannedBenchmark[]): void;
  /** Before a benchmark's first fork. */
  onBenchmarkStart?(planned: PlannedBenchmark, index: number): void;
  /** Before each fork (1-based; 0 for an in-process run). */
  onForkStart?(planned: PlannedBenchmark, fork: number): void;
  /** After each iteration. */
  onIteration?(planned: PlannedBenchmark, fork: number, record: IterationRecord): void;
  /** When a benchmark is skipped because it is unavailable here (once per benchmark and reason, not per params). */
  onBenchmarkSkipped?(planned: PlannedBenchmark, reason: string): void;
  /** After a benchmark finished or failed. */
  onBenchmarkEnd?(
    planned: PlannedBenchmark,
    outcome: { result?: BenchmarkResult; error?: Error },
  ): void;
  /** After everything. */
  onEnd?(): void;
}

/** A benchmark that failed, and why. */
export interface BenchmarkFailure {
  /** `Suite.benchmark`. */
  benchmark: string;
  /** Its parameter values. */
  params: ParamValues;
  /** The error (a `BenchError` with code `ERR_BENCH_FAILED` when the benchmark itself threw). */
  error: Error;
}

/** A benchmark that did not run because it is unavailable here (e.g. no `java` on PATH). */
export interface SkippedBenchmark {
  /** `Suite.benchmark`. */
  benchmark: string;
  /** Its parameter values. */
  params: ParamValues;
  /** Why, as the benchmark's `unavailable()` said. */
  reason: string;
}

/** What `runBenchmarks` returns. */
export interface RunReport {
  /** Results in run order. */
  results: BenchmarkResult[];
  /** Process ids of each result's trials (same order as `results`). */
  pids: number[][];
  /** Benchmarks that failed; the others still ran. */
  failures: BenchmarkFailure[];
  /** Benchmarks skipped as unavailable here; not failures. */
  skipped: SkippedBenchmark[];
}

/** Each suite once: one module given twice (`--suite x --suite x`) loads the same suite objects twice. */
function toLoaded(suites: readonly (LoadedSuite | AnySuite)[]): LoadedSuite[] {
  const seen = new Set<AnySuite>();
  const loaded: LoadedSuite[] = [];
  for (const s of suites) {
    const l = isSuite(s) ? { suite: s } : s;
    if (seen.has(l.suite)) continue;
    seen.add(l.suite);
    loaded.push(l);
  }
  return loaded;
}

function convertParam(suite: AnySuite, name: string, text: string): ParamValue {
  const declared = declaredValues(suite, name) ?? [];
  // A declared value spelled as given is that value, of its type: [1, "auto"] takes "1" as the number 1.
  const spelled = declared.find((v) => String(v) === text);
  if (spelled !== undefined) return spelled;
  if (declared.length > 0 && declared.every((v) => typeof v === "number")) {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n)) {
      throw new BenchError(
        "ERR_BENCH_BAD_PARAM",
        `param ${name} of suite ${suite.name} takes finite numbers, got ${JSON.stringify(text)}`,
      );
    }
    return n;
  }
  if (declared.length > 0 && declared.every((v) => typeof v === "boolean")) {
    if (text !== "true" && text !== "false") {
      throw new BenchError(
        "ERR_BENCH_BAD_PARAM",
        `param ${name} of suite ${suite.name} takes true or false, got ${JSON.stringify(text)}`,
      );
    }
    return text === "true";
  }
  return text;
}

/** The values `suite` declares for param `name`; undefined when it declares none (`toString` included). */
function declaredValues(suite: AnySuite, name: string): readonly ParamValue[] | undefined {
  const params = suite.params ?? {};
  return Object.hasOwn(params, name) ? (params[name] as readonly ParamValue[]) : undefined;
}

/**
 * Refuses what a run could not report apart or carry to a fork: two suites of one name (a fork finds its suite
 * by name, and results by `Suite.benchmark`), and param values other than strings, booleans and finite numbers
 * (a fork's IPC is JSON, which has no `NaN` or `Infinity`).
 */
function checkSuites(suites: readonly LoadedSuite[]): void {
  const seen = new Set<string>();
  for (const { suite } of suites) {
    if (seen.has(suite.name)) {
      throw new BenchError(
        "ERR_BENCH_BAD_SUITE",
        `two suites are named ${JSON.stringify(suite.name)}: give each suite a name of its own`,
      );
    }
    seen.add(suite.name);
    for (const [name, values] of Object.entries(suite.params ?? {})) {
      for (const v of values as readonly unknown[]) {
        const ok =
          typeof v === "string" ||
          typeof v === "boolean" ||
          (typeof v === "number" && Number.isFinite(v));
        if (!ok) {
          throw new BenchError(
            "ERR_BENCH_BAD_SUITE",
            `param ${name} of suite ${suite.name} has the value ${String(v)}: params are strings, booleans or finite numbers`,
          );
        }
      }
    }
  }
}

/**
 * Expands suites into the benchmarks a run would execute: every benchmark matching the filter, crossed with
 * every parameter combination (after overrides). Throws `ERR_BENCH_NO_MATCH` when nothing matches and
 * `ERR_BENCH_BAD_PARAM` for an override no selected suite declares.
 */
export function planBenchmarks(
  suites: readonly (LoadedSuite | AnySuite)[],
  options: RunOptions = {},
): PlannedBenchmark[] {
  let filter: RegExp | undefined;
  try {
    // Without `g` and `y`, whose `lastIndex` would make `test` skip every other name.
    filter =
      typeof options.filter === "string"
        ? new RegExp(options.filter)
        : options.filter &&
          new RegExp(options.filter.source, options.filter.flags.replace(/[gy]/g, ""));
  } catch (cause) {
    throw new BenchError(
      "ERR_BENCH_BAD_OPTION",
      `bad filter regex ${JSON.stringify(options.filter)}: ${(cause as Error).message}`,
    );
  }
  // A bad override is the caller's, told as it is; a bad suite or benchmark option names its benchmark.
  if (options.overrides) resolveOptions(options.overrides);
  const plan: PlannedBenchmark[] = [];
  const usedParams = new Set<string>();
  const loaded = toLoaded(suites);
  checkSuites(loaded);
  for (const { suite, module } of loaded) {
    const names = Object.keys(suite.benchmarks).filter(
      (b) => !filter || filter.test(`${suite.name}.${b}`),
    );
    if (names.length === 0) continue;
    const space = new Map<string, readonly ParamValue[]>(Object.entries(suite.params ?? {}));
    for (const [name, values] of Object.entries(options.params ?? {})) {
      if (declaredValues(suite, name) === undefined) continue;
      usedParams.add(name);
      space.set(
        name,
        values.map((v) => convertParam(suite, name, v)),
      );
    }
    // Each value once (`100,1e2` is one number): twice, it ran twice and made two results of one name.
    for (const [name, values] of space) space.set(name, [...new Set(values)]);
    const combos = paramCombinations(Object.fromEntries(space));
    for (const benchmark of names) {
      const resolved = optionsOf(suite, benchmark, options.overrides);
      for (const params of combos) {
        plan.push({
          id: `${suite.name}.${benchmark}`,
          suite,
          ...(module ? { module } : {}),
          benchmark,
          params,
          options: resolved,
        });
      }
    }
  }
  if (plan.length === 0) {
    const known = loaded.map((s) => s.suite.name).join(", ") || "none";
    throw new BenchError(
      "ERR_BENCH_NO_MATCH",
      `no benchmark matches ${filter ? `/${filter.source}/` : "the selection"} (suites: ${known})`,
    );
  }
  for (const name of Object.keys(options.params ?? {})) {
    if (!usedParams.has(name)) {
      throw new BenchError(
        "ERR_BENCH_BAD_PARAM",
        `no selected benchmark has a param named ${JSON.stringify(name)}`,
      );
    }
  }
  return plan;
}

function optionsOf(
  suite: AnySuite,
  benchmark: string,
  overrides: Partial<BenchOptions> | undefined,
): BenchOptions {
  try {
    return benchmarkOptions(suite, benchmark, overrides);
  } catch (error) {
    if (!(error instanceof BenchError)) throw error;
    throw new BenchError(error.code, `${suite.name}.${benchmark}'s options: ${error.message}`);
  }
}

/** A planned benchmark to run: its forks (1-based; 0 alone for an in-process run), and what they gave. */
interface Job {
  planned: PlannedBenchmark;
  index: number;
  forks: number[];
  rawData: number[][];
  pids: number[];
  runtime?: TrialResult["runtime"];
  error?: BenchError;
  /** The external program's command line, when another program measures this combination. */
  command?: ExternalCommand;
  /** Reported (a result or a failure). */
  done: boolean;
}

/**
 * Runs benchmarks the JMH way: one after another, each in `forks` fresh child processes (or once in this
 * process when forks is 0), pooling all measurement iterations of all forks into one result. With
 * `interleave`, fork k of every benchmark runs before fork k + 1 of any (in plan order for k = 1, 3, ...,
 * in reverse for k = 2, 4, ...). A benchmark that throws is recorded in `failures` and the run goes on.
 */
export async function runBenchmarks(
  suites: readonly (LoadedSuite | AnySuite)[],
  options: RunOptions = {},
  listener: RunListener = {},
): Promise<RunReport> {
  const plan = planBenchmarks(suites, options);
  const report: RunReport = { results: [], pids: [], failures: [], skipped: [] };
  const unavailable = new Map<string, string | undefined>();
  listener.onStart?.(plan);
  const jobs: Job[] = [];
  for (const [index, planned] of plan.entries()) {
    const entry = benchmarkEntry(planned.suite, planned.benchmark);
    let reason: string | undefined;
    let command: ExternalCommand | undefined;
    try {
      reason = entry.unavailable?.(planned.params);
      command =
        reason === undefined ? entry.external?.command(planned.params, planned.options) : undefined;
    } catch (cause) {
      // A probe that throws fails its benchmark only: the others still run.
      const error = new BenchError(
        "ERR_BENCH_FAILED",
        `${planned.id} could not be prepared: ${(cause as Error)?.message ?? String(cause)}`,
        { cause },
      );
      jobs.push({ planned, index, forks: [], rawData: [], pids: [], error, done: false });
      continue;
    }
    if (reason !== undefined) {
      // Told once per benchmark and reason, not per parameter combination.
      const key = `${planned.id}\0${reason}`;
      if (!unavailable.has(key)) listener.onBenchmarkSkipped?.(planned, reason);
      unavailable.set(key, reason);
      report.skipped.push({ benchmark: planned.id, params: planned.params, reason });
      continue;
    }
    if (command === undefined && entry.run === undefined) {
      throw new BenchError(
        "ERR_BENCH_BAD_SUITE",
        `benchmark ${planned.id} has no command for ${JSON.stringify(planned.params)} and no run`,
      );
    }
    const forks = planned.options.forks;
    // An external benchmark always runs in its own process: forks 0 still means one.
    const first = forks === 0 && command === undefined ? 0 : 1;
    const last = command === undefined ? forks : Math.max(forks, 1);
    const list: number[] = [];
    for (let fork = first; fork <= last; fork++) list.push(fork);
    jobs.push({
      planned,
      index,
      forks: list,
      rawData: [],
      pids: [],
      done: false,
      ...(command ? { command } : {}),
    });
  }
  // One benchmark's forks after another, or round by round. Rounds alternate direction (A B, B A, A B, ...):
  // in the same direction every round, the first benchmark would always run first, so a machine that
  // drifts steadily (warming up, throttling) would favour one side of every ratio.
  const schedule: [Job, number][] = [];
  const rounds = options.interleave ? Math.max(0, ...jobs.map((j) => j.forks.length)) : 1;
  for (let k = 0; k < rounds; k++) {
    for (const job of k % 2 === 0 ? jobs : [...jobs].reverse()) {
      if (!options.interleave) for (const fork of job.forks) schedule.push([job, fork]);
      else if (k < job.forks.length) schedule.push([job, job.forks[k]!]);
    }
  }
  const finish = (job: Job) => {
    if (job.done) return;
    job.done = true;
    const { planned, error } = job;
    if (error) {
      report.failures.push({ benchmark: planned.id, params: planned.params, error });
      listener.onBenchmarkEnd?.(planned, { error });
      return;
    }
    const result = buildResult(
      planned.id,
      planned.params,
      // An external program always ran in a process of its own, even at forks 0.
      job.command
        ? { ...planned.options, forks: Math.max(1, planned.options.forks) }
        : planned.options,
      job.rawData,
      job.runtime,
    );
    report.results.push(result);
    report.pids.push(job.pids);
    listener.onBenchmarkEnd?.(planned, { result });
  };
  // Those that failed before any fork (a probe threw) are reported first.
  if (!options.interleave) for (const job of jobs) if (job.forks.length === 0) finish(job);
  for (const [job, fork] of schedule) {
    if (job.error) continue;
    if (fork === job.forks[0]) listener.onBenchmarkStart?.(job.planned, job.index);
    try {
      const trial = await runOneFork(job.planned, fork, listener, job.command);
      job.rawData.push(trial.measurement);
      job.pids.push(trial.pid);
      job.runtime ??= trial.runtime;
    } catch (cause) {
      job.error =
        cause instanceof BenchError
          ? cause
          : new BenchError("ERR_BENCH_FAILED", (cause as Error)?.message ?? String(cause), {
              cause,
            });
    }
    // In order: a benchmark ends after its last fork, or at once when one failed.
    if (!options.interleave && (job.error || fork === job.forks.at(-1))) finish(job);
  }
  // Interleaved, results keep the plan's order.
  if (options.interleave) for (const job of jobs) finish(job);
  listener.onEnd?.();
  return report;
}

/** One fork (or the in-process trial, fork 0) of a planned benchmark. */
async function runOneFork(
  planned: PlannedBenchmark,
  fork: number,
  listener: RunListener,
  external: ExternalCommand | undefined,
): Promise<TrialResult> {
  if (fork > 0 && planned.module === undefined && external === undefined) {
    throw new BenchError(
      "ERR_BENCH_FORK",
      `suite ${planned.suite.name} was not loaded from a module, so it cannot fork; load it with loadSuiteModule() or use forks: 0`,
    );
  }
  listener.onForkStart?.(planned, fork);
  const onIteration = (record: IterationRecord) => listener.onIteration?.(planned, fork, record);
  if (external) {
    return runExternalFork(external, planned.options, onIteration);
  }
  if (fork === 0) return runTrial(planned, onIteration);
  return runFork(
    {
      module: planned.module!,
      suite: planned.suite.name,
      benchmark: planned.benchmark,
      params: planned.params,
      options: planned.options,
    },
    onIteration,
  );
}
