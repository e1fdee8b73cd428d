import { BenchError } from "./errors";
import type { AnySuite, BenchOptions } from "./suite";
import { MODES, TIME_UNITS } from "./units";

/**
 * The defaults: average time in microseconds, 2 forks (as in the JDK reviews, so Cnt = 10), 3 warmup and
 * 5 measurement iterations of one second each, and JMH's iteration timeout of 10 minutes.
 */
export const DEFAULT_OPTIONS: Readonly<BenchOptions> = Object.freeze({
  mode: "avgt",
  unit: "us",
  warmup: { iterations: 3, time: 1000 },
  measurement: { iterations: 5, time: 1000 },
  forks: 2,
  gc: false,
  operationsPerInvocation: 1,
  nodeArgs: [],
  timeout: 600_000,
});

/** The longest timeout: `setTimeout`'s limit, past which a delay fires at once. @internal */
export const MAX_TIMEOUT = 2 ** 31 - 1;

/** Merges option layers (later wins; `warmup`/`measurement` merge field by field) and validates the result. */
export function resolveOptions(...layers: (Partial<BenchOptions> | undefined)[]): BenchOptions {
  let out: BenchOptions = {
    ...DEFAULT_OPTIONS,
    warmup: { ...DEFAULT_OPTIONS.warmup },
    measurement: { ...DEFAULT_OPTIONS.measurement },
  };
  for (const layer of layers) {
    if (!layer) continue;
    const { warmup, measurement, ...rest } = layer;
    out = { ...out, ...dropUndefined(rest) };
    if (warmup) out.warmup = mergeSpec(out.warmup, warmup);
    if (measurement) out.measurement = mergeSpec(out.measurement, measurement);
  }
  validateOptions(out);
  return out;
}

/** The options a suite's benchmark runs with, before command-line overrides. */
export function benchmarkOptions(
  suite: AnySuite,
  benchmark: string,
  overrides?: Partial<BenchOptions>,
): BenchOptions {
  const entry = suite.benchmarks[benchmark];
  const own = typeof entry === "function" ? undefined : entry?.options;
  return resolveOptions(suite.options, own, overrides);
}

function mergeSpec(
  base: BenchOptions["warmup"],
  over: Partial<BenchOptions["warmup"]>,
): BenchOptions["warmup"] {
  const merged = { ...base, ...dropUndefined(over) };
  // A time given at a later level replaces an invocation count given earlier, and vice versa.
  if (over.time !== undefined && over.invocations === undefined) delete merged.invocations;
  return merged;
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function validateOptions(o: BenchOptions): void {
  const bad = (what: string) => new BenchError("ERR_BENCH_BAD_OPTION", what);
  if (!MODES.includes(o.mode))
    throw bad(`mode must be one of ${MODES.join(", ")}, got ${JSON.stringify(o.mode)}`);
  if (!TIME_UNITS.includes(o.unit))
    throw bad(`time unit must be one of ${TIME_UNITS.join(", ")}, got ${JSON.stringify(o.unit)}`);
  if (!Number.isInteger(o.forks) || o.forks < 0)
    throw bad(`forks must be an integer >= 0, got ${o.forks}`);
  if (!(typeof o.timeout === "number" && o.timeout > 0 && o.timeout <= MAX_TIMEOUT))
    throw bad(`timeout must be > 0 ms and at most ${MAX_TIMEOUT} ms (24 days), got ${o.timeout}`);
  if (!(o.operationsPerInvocation > 0))
    throw bad(`operationsPerInvocation must be > 0, got ${o.operationsPerInvocation}`);
  for (const [phase, spec, min] of [
    ["warmup", o.warmup, 0],
    ["measurement", o.measurement, 1],
  ] as const) {
    if (!Number.isInteger(spec.iterations) || spec.iterations < min) {
      throw bad(`${phase} iterations must be an integer >= ${min}, got ${spec.iterations}`);
    }
    if (
      spec.invocations !== undefined &&
      (!Number.isInteger(spec.invocations) || spec.invocations < 1)
    ) {
      throw bad(`${phase} invocations must be an integer >= 1, got ${spec.invocations}`);
    }
    if (spec.invocations === undefined && !((spec.time ?? 0) > 0)) {
      throw bad(`${phase} time must be > 0 ms, got ${spec.time}`);
    }
  }
}

/** JMH's spelling of an iteration length in the JSON (`"1 s"`, `"100 ms"`, `"single-shot"`, `"1000 ops"`). */
export function describeIteration(
  spec: BenchOptions["warmup"],
  mode: BenchOptions["mode"],
): string {
  if (mode === "ss") return "single-shot";
  if (spec.invocations !== undefined) return `${spec.invocations} ops`;
  // JMH writes a whole number of the largest unit that holds the length exactly: 1500 us, not 1.5 ms.
  const ns = Math.max(1, Math.round((spec.time ?? 0) * 1e6));
  for (const [unit, size] of [
    ["s", 1e9],
    ["ms", 1e6],
    ["us", 1e3],
  ] as const) {
    if (ns % size === 0) return `${ns / size} ${unit}`;
  }
  return `${ns} ns`;
}
