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
import { watchIterations } from "./watchdog";

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

/** The runtime that ran an external trial, as it describes itself (JMH's `jvm`, `jdkVersion`, ...). */
export interface RuntimeInfo {
  /** Executable. */
  jvm: string;
  /** Runtime version. */
  jdkVersion: string;
  /** VM name. */
  vmName: string;
  /** VM version. */
  vmVersion: string;
  /** The runtime's options, for an external one (JMH's `jvmArgs`). */
  jvmArgs?: readonly string[];
}

/** The scores of one trial (one fork, or the in-process run). */
export interface TrialResult {
  /** Process that ran it. */
  pid: number;
  /** For external trials: the runtime that ran it (Node's own trials leave it out). */
  runtime?: RuntimeInfo;
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
type AsyncLoop = (
  fn: unknown,
  bh: Blackhole,
  state: unknown,
  params: unknown,
  n: number,
) => Promise<void>;

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

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => AsyncLoop;

/**
 * A fresh loop for a benchmark that returns promises: each call is awaited before the next starts, so
 * the score is the latency of one operation, as a caller awaiting it sees it.
 */
function makeAsyncLoop(): AsyncLoop {
  return new AsyncFunction(
    "fn",
    "bh",
    "state",
    "params",
    "n",
    "for (let i = 0; i < n; i++) bh.consume(await fn(bh, state, params));",
  );
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === "object" || typeof value === "function") &&
  value !== null &&
  typeof (value as PromiseLike<unknown>).then === "function";

const now = () => performance.now() * 1e6;

/** A function that forces a full GC, exposing `gc` on demand when the process lacks `--expose-gc`. */
function gcFunction(): () => void {
  const global = globalThis as { gc?: () => void };
  if (typeof global.gc === "function") return global.gc;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * Runs a teardown; its error is dropped when `failed` (an earlier error is the one to report). Not for an abandoned
 * trial: it would run during the next benchmark's measurement.
 */
async function teardownUnless(failed: boolean, run: Run, teardown: () => unknown): Promise<void> {
  if (run.abandoned) return;
  try {
    await teardown();
  } catch (error) {
    if (!failed) throw error;
  }
}

/**
 * Runs one trial in this process: state, trial setup, warmup and measurement iterations (each wrapped in the
 * iteration hooks, which are not timed), trial teardown. Iterations by time call the benchmark in batches
 * that grow until a batch is long enough for the clock reads to be negligible. A benchmark that returns a
 * promise has each call awaited before the next one; a synchronous one is never awaited. With `watch`, a trial
 * with no iteration finished within the timeout is given up on (a fork's parent times it instead, and kills it).
 */
export function runTrial(
  job: TrialJob,
  onIteration?: (record: IterationRecord) => void | Promise<void>,
  watch = true,
): Promise<TrialResult> {
  const run: Run = { abandoned: false, reject: () => {} };
  const stuck = new Promise<never>((_, reject) => {
    run.reject = reject;
  });
  waiting.add(run);
  if (waiting.size === 1) process.on("beforeExit", abandonAll);
  const watchdog = watch ? watchIterations(job.options, (error) => abandon(run, error)) : undefined;
  const report = (record: IterationRecord) => {
    watchdog?.progress(record);
    return onIteration?.(record);
  };
  return Promise.race([trial(job, report, run), stuck]).finally(() => {
    watchdog?.stop();
    waiting.delete(run);
    if (waiting.size === 0) process.off("beforeExit", abandonAll);
  });
}

/** A trial being run, and how to give up on it. */
interface Run {
  abandoned: boolean;
  reject(error: BenchError): void;
  /** Its blackhole, once made: abandoned, it throws, which ends a batch of async calls at the next one. */
  bh?: Blackhole;
  /** Why it was given up on. */
  error?: BenchError;
}

/** The trials awaited in this process, given up on together if it runs out of work (one listener for all). */
const waiting = new Set<Run>();

/**
 * The process ran out of work while trials were pending: a benchmark (or hook) whose promise never settles. Each
 * fails; without this the process just ended, exit code 0, the trial's and every later benchmark's results lost.
 */
function abandonAll(): void {
  for (const run of waiting) abandon(run, stoppedError());
}

/** Fails a trial, and stops it at its next step should its promise settle after all (an unref'd timer's). */
function abandon(run: Run, error: BenchError): void {
  run.abandoned = true;
  run.error = error;
  if (run.bh !== undefined)
    run.bh.consume = () => {
      throw error;
    };
  run.reject(error);
}

const stoppedError = () =>
  new BenchError(
    "ERR_BENCH_FAILED",
    "the process ran out of work while a promise it awaited was pending: it never settled",
  );

/** Ends a trial given up on, at its next step. */
function stop(run: Run): never {
  throw run.error ?? stoppedError();
}

async function trial(
  job: TrialJob,
  onIteration: ((record: IterationRecord) => void | Promise<void>) | undefined,
  run: Run,
): Promise<TrialResult> {
  const { suite, params, options } = job;
  const fn = benchmarkFn(suite, job.benchmark);
  const state = suite.state ? await suite.state(params) : undefined;
  await suite.setup?.trial?.(state, params);
  const bh = new Blackhole();
  run.bh = bh;
  const gc = options.gc ? gcFunction() : undefined;
  const loop = makeLoop();
  // Whether the benchmark returns promises is learnt from its first call (an `async` function is known
  // up front). Until then, and for async benchmarks, batches go through `drive`; a synchronous benchmark
  // then runs `loop` directly, with no await per batch, let alone per call.
  let kind = (fn.constructor.name === "AsyncFunction" ? "async" : "unknown") as
    | "unknown"
    | "sync"
    | "async";
  let asyncLoop: AsyncLoop | undefined = kind === "async" ? makeAsyncLoop() : undefined;
  const drive = async (n: number): Promise<void> => {
    if (kind === "unknown") {
      const first = fn(bh, state, params);
      if (isThenable(first)) {
        kind = "async";
        asyncLoop = makeAsyncLoop();
        bh.consume(await first);
      } else {
        kind = "sync";
        bh.consume(first);
      }
      n--;
    }
    if (kind === "sync") loop(fn, bh, state, params, n);
    else await asyncLoop!(fn, bh, state, params, n);
  };
  let batch = 1;
  let lastBatch = { nanos: 0, size: 1 };
  const result: TrialResult = { pid: process.pid, warmup: [], measurement: [] };
  try {
    for (const phase of ["warmup", "measurement"] as const) {
      const spec: IterationSpec = options[phase];
      for (let index = 0; index < spec.iterations; index++) {
        gc?.();
        await suite.setup?.iteration?.(state, params);
        if (run.abandoned) stop(run);
        let invocations = 0;
        let nanos = 0;
        // A benchmark that throws still gets its iteration's teardown (the files and directories it made); its
        // error stays the one reported when the teardown fails too, as Java's try-with-resources keeps it.
        let failed = false;
        try {
          if (options.mode === "ss") {
            const t0 = now();
            if (kind === "sync") loop(fn, bh, state, params, 1);
            else await drive(1);
            nanos = now() - t0;
            invocations = 1;
          } else if (spec.invocations !== undefined) {
            const t0 = now();
            if (kind === "sync") loop(fn, bh, state, params, spec.invocations);
            else await drive(spec.invocations);
            nanos = now() - t0;
            invocations = spec.invocations;
          } else {
            const target = (spec.time ?? 0) * 1e6;
            const batchGoal = Math.min(Math.max(target / 20, 1e4), 5e6);
            batch = fitBatch(batch, lastBatch, batchGoal);
            const t0 = now();
            let t1 = t0;
            do {
              const b0 = t1;
              if (kind === "sync") loop(fn, bh, state, params, batch);
              else await drive(batch);
              invocations += batch;
              t1 = now();
              lastBatch = { nanos: t1 - b0, size: batch };
              if (t1 - b0 < batchGoal && batch < 2 ** 30) batch *= 2;
            } while (t1 - t0 < target);
            nanos = t1 - t0;
          }
        } catch (error) {
          failed = true;
          throw error;
        } finally {
          await teardownUnless(failed, run, () => suite.teardown?.iteration?.(state, params));
        }
        if (run.abandoned) stop(run);
        const score = scoreOf(invocations * options.operationsPerInvocation, nanos, options);
        result[phase].push(score);
        await onIteration?.({ phase, index, invocations, nanos, score });
      }
    }
  } catch (error) {
    await teardownUnless(true, run, () => suite.teardown?.trial?.(state, params));
    throw error;
  }
  await teardownUnless(false, run, () => suite.teardown?.trial?.(state, params));
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

/**
 * The batch an iteration by time starts with: `batch` halved until, at the cost per call the last batch measured,
 * it takes at most twice `goal` ns. A batch grown for a longer (warmup) iteration would overrun a shorter one.
 * @internal
 */
export function fitBatch(
  batch: number,
  last: { nanos: number; size: number },
  goal: number,
): number {
  let b = batch;
  while (b > 1 && (last.nanos / last.size) * b > 2 * goal) b /= 2;
  return b;
}
