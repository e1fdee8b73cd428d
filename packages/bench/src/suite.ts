import type { Blackhole } from "./blackhole";
import { BenchError } from "./errors";
import type { Mode, TimeUnit } from "./units";

/** A parameter value, as `@Param` accepts: JMH stores them as strings, we keep the declared type. */
export type ParamValue = string | number | boolean;

/** Parameter names mapped to the values to cross, like JMH's `@Param({"1", "5"})` fields. */
export type ParamSpace = Record<string, readonly ParamValue[]>;

/** One combination of parameter values, as setup and benchmark functions receive it. */
export type ParamValues<P extends ParamSpace = ParamSpace> = { [K in keyof P]: P[K][number] };

/**
 * How many iterations a phase runs, and how long each is: either `time` (milliseconds) or `invocations`
 * (a fixed count of benchmark calls). Single-shot mode ignores both: an iteration is one call.
 */
export interface IterationSpec {
  /** Number of iterations. */
  iterations: number;
  /** Duration of one iteration, in milliseconds (default when `invocations` is absent). */
  time?: number;
  /** Fixed invocation count of one iteration; overrides `time`. */
  invocations?: number;
}

/** Run options; each level (defaults, suite, benchmark, command line) overrides the one before. */
export interface BenchOptions {
  /** Benchmark mode: `avgt` (time per op), `thrpt` (ops per time) or `ss` (single shot). */
  mode: Mode;
  /** Time unit of the score. */
  unit: TimeUnit;
  /** Warmup phase; its iterations are not scored. */
  warmup: IterationSpec;
  /** Measurement phase. */
  measurement: IterationSpec;
  /** Fresh child processes per benchmark; 0 runs in this process (for debugging). */
  forks: number;
  /** Run a full GC before each iteration (JMH's `-gc true`); forks get `--expose-gc`. */
  gc: boolean;
  /** Operations one call performs, like JMH's `@OperationsPerInvocation`; scores are per operation. */
  operationsPerInvocation: number;
  /** Bytes one operation processes; when set, a `·bandwidth` secondary metric in GB/s is reported. */
  bytesPerOperation?: number;
  /** Extra Node flags for forked children (JMH's `jvmArgs`). */
  nodeArgs: string[];
  /**
   * Iteration timeout in milliseconds (JMH's `-to`; default 10 minutes): a trial fails with `ERR_BENCH_TIMEOUT` when
   * no iteration finishes this long past its planned length. A fork or external program is killed; in this process
   * (`forks: 0`) the trial is given up on, which a synchronous benchmark that never returns cannot be.
   */
  timeout?: number;
}

/** A benchmark body: receives the blackhole, the trial state and the parameter values; its result is consumed. */
export type BenchmarkFn<S, V> = (bh: Blackhole, state: S, params: V) => unknown;

/** A command line for one external fork. */
export interface ExternalCommand {
  /** Executable, looked up on `PATH` (e.g. `java`). */
  command: string;
  /** Its arguments. */
  args: readonly string[];
  /** Working directory (default: this process's). */
  cwd?: string;
  /** The runtime's own options among `args` (a JVM's `-Xmx256m`): the results' `jvmArgs`, as JMH records them. */
  runtimeArgs?: readonly string[];
}

/**
 * A benchmark measured by another program, one process per fork (e.g. the JDK running a Java harness). The
 * process prints one JSON line per iteration, `{"warmup":true|false,"ops":N,"nanos":T}`, in order (warmup
 * iterations first), and may print `{"runtime":{"jvm":..,"jdkVersion":..,"vmName":..,"vmVersion":..}}` to
 * describe itself; every other stdout line goes to stderr. The harness turns the lines into the same
 * iteration scores as its own forks, so external results share the statistics, table, JSON and charts.
 */
export interface ExternalBenchmark<V> {
  /**
   * The command for one fork, given the parameter values and resolved options (see `iterationArg`); or
   * `undefined` when this parameter combination runs in Node, with the benchmark's `run`.
   */
  command(params: V, options: BenchOptions): ExternalCommand | undefined;
}

/**
 * A benchmark with its own option overrides: `run` (in Node), `external` (another process), or both, when
 * some parameter combinations (an `impl` param naming a JDK, say) run elsewhere.
 */
export interface BenchmarkDefinition<S, V> {
  /** The benchmark body. It may return a promise, which is awaited before the next call. */
  run?: BenchmarkFn<S, V>;
  /** Or: a benchmark measured by another program, one process per fork. */
  external?: ExternalBenchmark<V>;
  /**
   * Why the benchmark cannot run here with these params (e.g. `"java not found on PATH"`), or `undefined`
   * when it can. Asked once per parameter combination, in the parent; an unavailable combination is skipped
   * with that message, not failed.
   */
  unavailable?: (params: V) => string | undefined;
  /** Options for this benchmark only. */
  options?: Partial<BenchOptions>;
}

/** Setup or teardown hooks at JMH's `Level.Trial` (once per fork) and `Level.Iteration`. */
export interface LevelHooks<S, V> {
  /** Once per fork, before warmup (setup) or after measurement (teardown). */
  trial?: (state: S, params: V) => unknown;
  /** Before (setup) or after (teardown) every warmup and measurement iteration, outside the timed region. */
  iteration?: (state: S, params: V) => unknown;
}

/** What `defineSuite` accepts. */
export interface SuiteDefinition<P extends ParamSpace, S> {
  /** Suite name, the part before the dot in `Suite.benchmark` (like a JMH class name). */
  name: string;
  /** Optional one-line description shown by `--list`. */
  description?: string;
  /** Parameters, crossed into every combination. */
  params?: P;
  /** Creates the per-fork state from the parameters (may be async). Without it the state is `undefined`. */
  state?: (params: ParamValues<P>) => S | Promise<S>;
  /** Setup hooks. */
  setup?: LevelHooks<S, ParamValues<P>>;
  /** Teardown hooks. */
  teardown?: LevelHooks<S, ParamValues<P>>;
  /** The benchmarks, by name. */
  benchmarks: Record<
    string,
    BenchmarkFn<S, ParamValues<P>> | BenchmarkDefinition<S, ParamValues<P>>
  >;
  /** Options for every benchmark of the suite. */
  options?: Partial<BenchOptions>;
}

const SUITE = Symbol.for("@rafkit/bench.suite");

/**
 * A validated suite, as `defineSuite` returns it. `Suite` alone is any suite (`const all: Suite[] = [A, B]`): its
 * hooks take its own params and state, so a suite of one shape is no suite of another.
 */
// biome-ignore lint/suspicious/noExplicitAny: the defaults stand for any params and state.
export interface Suite<P extends ParamSpace = any, S = any> extends SuiteDefinition<P, S> {
  /** Brand that lets loaders find suites among a module's exports. */
  readonly [SUITE]: true;
}

/** Any suite, whatever its parameter and state types. */
// biome-ignore lint/suspicious/noExplicitAny: suites are stored and run generically.
export type AnySuite = Suite<any, any>;

const NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * Declares a benchmark suite. Checks names and parameters now, so a bad suite fails at load, not mid-run.
 *
 * @example
 * export default defineSuite({
 *   name: "Sum",
 *   params: { size: [10, 1000] },
 *   state: ({ size }) => ({ data: Array.from({ length: size }, (_, i) => i) }),
 *   benchmarks: { reduce: (_bh, s) => s.data.reduce((a, b) => a + b, 0) },
 * });
 */
export function defineSuite<const P extends ParamSpace = Record<never, never>, S = undefined>(
  definition: SuiteDefinition<P, S>,
): Suite<P, S> {
  const { name, benchmarks, params } = definition;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new BenchError(
      "ERR_BENCH_BAD_SUITE",
      `suite name must be an identifier, got ${JSON.stringify(name)}`,
    );
  }
  const names = Object.keys(benchmarks ?? {});
  if (names.length === 0)
    throw new BenchError("ERR_BENCH_BAD_SUITE", `suite ${name} has no benchmarks`);
  for (const b of names) {
    if (!NAME.test(b)) {
      throw new BenchError(
        "ERR_BENCH_BAD_SUITE",
        `benchmark name ${JSON.stringify(b)} in suite ${name} must be an identifier`,
      );
    }
    const entry = benchmarks[b];
    const runs = typeof entry === "function" || typeof entry?.run === "function";
    const external = typeof entry === "object" && typeof entry?.external?.command === "function";
    if (!runs && !external) {
      throw new BenchError(
        "ERR_BENCH_BAD_SUITE",
        `benchmark ${name}.${b} must be a function, { run } or { external }`,
      );
    }
  }
  for (const [p, values] of Object.entries(params ?? {})) {
    if (!NAME.test(p))
      throw new BenchError(
        "ERR_BENCH_BAD_SUITE",
        `param name ${JSON.stringify(p)} in suite ${name} must be an identifier`,
      );
    if (!Array.isArray(values) || values.length === 0) {
      throw new BenchError(
        "ERR_BENCH_BAD_SUITE",
        `param ${p} of suite ${name} needs at least one value`,
      );
    }
  }
  return Object.freeze({ ...definition, [SUITE]: true as const });
}

/** True for a value made by `defineSuite` (in this or another copy of the package). */
export function isSuite(value: unknown): value is AnySuite {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[SUITE] === true
  );
}

/** A benchmark entry in its long form (`{ run }` or `{ external }`). */
export function benchmarkEntry(
  suite: AnySuite,
  benchmark: string,
): BenchmarkDefinition<unknown, ParamValues> {
  const entry = suite.benchmarks[benchmark];
  if (entry === undefined) {
    throw new BenchError("ERR_BENCH_NO_MATCH", `suite ${suite.name} has no benchmark ${benchmark}`);
  }
  return typeof entry === "function" ? { run: entry } : entry;
}

/** The body of a benchmark entry; an external benchmark has none and cannot run in this process. */
export function benchmarkFn(suite: AnySuite, benchmark: string): BenchmarkFn<unknown, ParamValues> {
  const { run } = benchmarkEntry(suite, benchmark);
  if (run === undefined) {
    throw new BenchError(
      "ERR_BENCH_BAD_SUITE",
      `benchmark ${suite.name}.${benchmark} is external: it runs in its own process, not in Node`,
    );
  }
  return run;
}

/** Every combination of parameter values, the last parameter varying fastest (JMH's order). */
export function paramCombinations(space: ParamSpace | undefined): ParamValues[] {
  let combos: ParamValues[] = [{}];
  for (const [name, values] of Object.entries(space ?? {})) {
    combos = combos.flatMap((combo) => values.map((v) => ({ ...combo, [name]: v })));
  }
  return combos;
}
