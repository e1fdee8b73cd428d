import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Blackhole } from "./blackhole";
import { BenchError } from "./errors";
import {
  type AnySuite,
  type BenchOptions,
  benchmarkFn,
  type IterationSpec,
  type ParamValues,
} from "./suite";
import { NANOS_PER_UNIT } from "./units";

/** One finished warmup or measurement iteration. */
export interface IterationRecord {
  /** Which phase it belonged to. */
  phase: "warmup" | "measurement";
  /** 0-based index within its phase. */
  index: number;
  /** Benchmark invocations it made. */
  invocations: number;
  /** Time spent invoking, in nanoseconds. */
  nanos: number;
  /** Its score in the run's mode and unit. */
  score: number;
}

/** The scores of one trial (one fork, or the in-process run). */
export interface TrialResult {
  /** Process that ran it. */
  pid: number;
  /** Warmup scores (not used for statistics). */
  warmup: number[];
  /** Measurement scores. */
  measurement: number[];
}

/** What `runTrial` runs: one benchmark of a suite with one parameter combination. */
export interface TrialJob {
  /** The suite. */
  suite: AnySuite;
  /** Benchmark name within the suite. */
  benchmark: string;
  /** Parameter values. */
  params: ParamValues;
  /** Fully resolved options. */
  options: BenchOptions;
}

type Loop = (fn: unknown, bh: Blackhole, state: unknown, params: unknown, n: number) => void;

/** Calls per pass of the unrolled measurement loop. */
const UNROLL = 16;

/**
 * A fresh measurement loop. Each call compiles new code with its own type feedback, so the call site
 * sees one benchmark only and V8 can inline it, as JMH generates one stub per benchmark. The body is
 * unrolled so the loop's own counter and branch cost a sixteenth per invocation.
 */
function makeLoop(): Loop {
  const call = "bh.consume(fn(bh, state, params));";
  return new Function(
    "fn",
    "bh",
    "state",
    "params",
    "n",
    `let i = 0;
for (; i + ${UNROLL} <= n; i += ${UNROLL}) { ${call.repeat(UNROLL)} }
for (; i < n; i++) ${call}`,
  ) as Loop;
}

const now = () => performance.now() * 1e6;

/** A function that forces a full GC, exposing `gc` on demand when the process lacks `--expose-gc`. */
function gcFunction(): () => void {
  const global = globalThis as { gc?: () => void };
  if (typeof global.gc === "function") return global.gc;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * Runs one trial in this process: state, trial setup, warmup and measurement iterations (each wrapped in the
 * iteration hooks, which are not timed), trial teardown. Iterations by time call the benchmark in batches
 * that grow until a batch is long enough for the clock reads to be negligible.
 */
export async function runTrial(
  job: TrialJob,
  onIteration?: (record: IterationRecord) => void | Promise<void>,
): Promise<TrialResult> {
  const { suite, params, options } = job;
  const fn = benchmarkFn(suite, job.benchmark);
  if (fn.constructor.name === "AsyncFunction") {
    throw new BenchError(
      "ERR_BENCH_BAD_SUITE",
      `benchmark ${suite.name}.${job.benchmark} is async; benchmarks must be synchronous`,
    );
  }
  const state = suite.state ? await suite.state(params) : undefined;
  await suite.setup?.trial?.(state, params);
  const bh = new Blackhole();
  const gc = options.gc ? gcFunction() : undefined;
  const loop = makeLoop();
  let batch = 1;
  const result: TrialResult = { pid: process.pid, warmup: [], measurement: [] };
  try {
    for (const phase of ["warmup", "measurement"] as const) {
      const spec: IterationSpec = options[phase];
      for (let index = 0; index < spec.iterations; index++) {
        gc?.();
        await suite.setup?.iteration?.(state, params);
        let invocations: number;
        let nanos: number;
        if (options.mode === "ss") {
          const t0 = now();
          loop(fn, bh, state, params, 1);
          nanos = now() - t0;
          invocations = 1;
        } else if (spec.invocations !== undefined) {
          const t0 = now();
          loop(fn, bh, state, params, spec.invocations);
          nanos = now() - t0;
          invocations = spec.invocations;
        } else {
          const target = (spec.time ?? 0) * 1e6;
          const batchGoal = Math.min(Math.max(target / 20, 1e4), 5e6);
          invocations = 0;
          const t0 = now();
          let t1 = t0;
          do {
            const b0 = t1;
            loop(fn, bh, state, params, batch);
            invocations += batch;
            t1 = now();
            if (t1 - b0 < batchGoal && batch < 2 ** 30) batch *= 2;
          } while (t1 - t0 < target);
          nanos = t1 - t0;
        }
        await suite.teardown?.iteration?.(state, params);
        const score = scoreOf(invocations * options.operationsPerInvocation, nanos, options);
        result[phase].push(score);
        await onIteration?.({ phase, index, invocations, nanos, score });
      }
    }
  } finally {
    await suite.teardown?.trial?.(state, params);
  }
  return result;
}

/** The score of `ops` operations taking `nanos`: time per op, or ops per time for throughput. */
export function scoreOf(
  ops: number,
  nanos: number,
  options: Pick<BenchOptions, "mode" | "unit">,
): number {
  const unitNanos = NANOS_PER_UNIT[options.unit];
  return options.mode === "thrpt" ? ops / (nanos / unitNanos) : nanos / unitNanos / ops;
}
