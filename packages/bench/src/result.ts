import { describeIteration } from "./options";
import type { RuntimeInfo } from "./runner";
import { computeStatistics, jmhPercentiles, type Statistics } from "./stats";
import type { BenchOptions, ParamValues } from "./suite";
import { thisRuntime } from "./this-runtime";
import { NANOS_PER_UNIT, scoreUnit } from "./units";

/** This process's runtime: its forks' too, which run the same executable. */
const here = thisRuntime();

/** A metric in JMH's result format. */
export interface Metric {
  /** Mean over all measured iterations of all forks. */
  score: number;
  /** Half-width of the 99.9% confidence interval (NaN when there are two iterations or fewer). */
  scoreError: number;
  /** [score - error, score + error]. */
  scoreConfidence: [number, number];
  /** Percentiles of the iteration scores, keyed as JMH keys them ("0.0" .. "100.0"). */
  scorePercentiles: Record<string, number>;
  /** Unit, such as `us/op` or `ops/ms`. */
  scoreUnit: string;
  /** Iteration scores, one array per fork. */
  rawData: number[][];
}

/** One benchmark with one parameter combination, in JMH's JSON result format (one element of its array). */
export interface BenchmarkResult {
  /** Version of the harness that produced it (JMH's own version for files written by JMH). */
  jmhVersion: string;
  /** Full benchmark name, `Suite.benchmark`. */
  benchmark: string;
  /** `avgt`, `thrpt`, `ss` (or `sample` in files written by JMH). */
  mode: string;
  /** Threads per fork (always 1 here). */
  threads: number;
  /** Number of forks (0 = in-process). */
  forks: number;
  /** Runtime executable (`node`, `bun` or `deno` here, `java` in JMH files). */
  jvm: string;
  /** Runtime flags of the forks. */
  jvmArgs: string[];
  /** Runtime version (`process.version` on Node, `Bun 1.4.4`, `Deno 2.9.6`). */
  jdkVersion: string;
  /** VM name (`V8`, or `JavaScriptCore` on Bun). */
  vmName: string;
  /** VM version. */
  vmVersion: string;
  /** Warmup iterations per fork. */
  warmupIterations: number;
  /** Warmup iteration length, e.g. `"1 s"`. */
  warmupTime: string;
  /** Always 1. */
  warmupBatchSize: number;
  /** Measurement iterations per fork. */
  measurementIterations: number;
  /** Measurement iteration length. */
  measurementTime: string;
  /** Always 1. */
  measurementBatchSize: number;
  /** Parameter values as strings; absent when the benchmark has none (as JMH writes it). */
  params?: Record<string, string>;
  /** The score. */
  primaryMetric: Metric;
  /** Derived metrics, such as `·bandwidth` in GB/s. */
  secondaryMetrics: Record<string, Metric>;
}

/** The version written as `jmhVersion`: identifies the producer, as JMH's own version does. */
export const HARNESS_VERSION = "rafkit-bench 0.1";

/** Builds a metric from per-fork iteration scores. */
export function metricOf(rawData: number[][], unit: string): Metric {
  const stats = computeStatistics(rawData.flat());
  return {
    score: stats.mean,
    scoreError: stats.error,
    scoreConfidence: [stats.mean - stats.error, stats.mean + stats.error],
    scorePercentiles: jmhPercentiles(rawData.flat()),
    scoreUnit: unit,
    rawData,
  };
}

/** Statistics of a metric's raw data (min, max, stdev as well as JMH's score and error). */
export function metricStatistics(metric: Metric): Statistics {
  return computeStatistics(metric.rawData.flat());
}

/**
 * Builds the result record of a benchmark from the measurement scores of its trials. `runtime` describes an
 * external runtime (e.g. the JDK); without it the record names this Node process.
 */
export function buildResult(
  benchmark: string,
  params: ParamValues,
  options: BenchOptions,
  rawData: number[][],
  runtime?: RuntimeInfo,
): BenchmarkResult {
  const secondaryMetrics: Record<string, Metric> = {};
  if (options.bytesPerOperation !== undefined) {
    const bytes = options.bytesPerOperation;
    const unitNanos = NANOS_PER_UNIT[options.unit];
    // bytes per nanosecond is GB/s (10^9 bytes per second).
    const toGBs = (score: number) =>
      options.mode === "thrpt" ? (score * bytes) / unitNanos : bytes / (score * unitNanos);
    secondaryMetrics["·bandwidth"] = metricOf(
      rawData.map((fork) => fork.map(toGBs)),
      "GB/s",
    );
  }
  const result: BenchmarkResult = {
    jmhVersion: HARNESS_VERSION,
    benchmark,
    mode: options.mode,
    threads: 1,
    forks: options.forks,
    jvm: (runtime ?? here).jvm,
    jvmArgs: runtime
      ? [...(runtime.jvmArgs ?? [])]
      : [...(options.gc ? ["--expose-gc"] : []), ...options.nodeArgs],
    jdkVersion: (runtime ?? here).jdkVersion,
    vmName: (runtime ?? here).vmName,
    vmVersion: (runtime ?? here).vmVersion,
    warmupIterations: options.warmup.iterations,
    warmupTime: describeIteration(options.warmup, options.mode),
    warmupBatchSize: 1,
    measurementIterations: options.measurement.iterations,
    measurementTime: describeIteration(options.measurement, options.mode),
    measurementBatchSize: 1,
    primaryMetric: metricOf(rawData, scoreUnit(options.mode, options.unit)),
    secondaryMetrics,
  };
  const names = Object.keys(params);
  if (names.length > 0) {
    result.params = Object.fromEntries(names.map((n) => [n, String(params[n])]));
    // Keep JMH's key order: params come before primaryMetric.
    const { primaryMetric, secondaryMetrics: secondary, ...head } = result;
    return { ...head, params: result.params, primaryMetric, secondaryMetrics: secondary };
  }
  return result;
}
