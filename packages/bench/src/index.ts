/**
 * `@rafkit/bench`: a JMH-style benchmark harness for Node.js. Suites with params and setup levels, forked
 * trials, JMH's statistics (99.9% Student-t confidence intervals), JMH JSON in and out, a JMH-layout table,
 * baseline/candidate comparison and SVG charts.
 *
 * @packageDocumentation
 */
export { Blackhole } from "./blackhole";
export { parseCount, parseIterationLength, parseTimeOption } from "./cli-args";
export { BenchError, type BenchErrorCode } from "./errors";
export { iterationArg } from "./external";
export {
  findJdks,
  type JavaCommandOptions,
  type Jdk,
  javaCommand,
  javaExecutable,
  javaUnavailable,
} from "./java";
export { type LoadedSuite, loadSuiteModule, moduleUrl } from "./loader";
export { DEFAULT_OPTIONS, resolveOptions } from "./options";
export { progressListener } from "./progress";
export {
  type CompareOptions,
  type Comparison,
  type ComparisonRow,
  compareResults,
  describeVerdict,
  formatComparison,
  type Verdict,
} from "./report/compare";
export { parseJmhJson, toJmhJson } from "./report/jmh-json";
export { type ChartOptions, renderChart, renderComparisonChart } from "./report/svg";
export { formatTable } from "./report/text";
export {
  type BenchmarkResult,
  buildResult,
  HARNESS_VERSION,
  type Metric,
  metricOf,
  metricStatistics,
} from "./result";
export {
  type BenchmarkFailure,
  type PlannedBenchmark,
  planBenchmarks,
  type RunListener,
  type RunOptions,
  type RunReport,
  runBenchmarks,
  type SkippedBenchmark,
} from "./run";
export type { IterationRecord, RuntimeInfo } from "./runner";
export { computeStatistics, type Statistics, studentTQuantile } from "./stats";
export {
  type AnySuite,
  type BenchmarkDefinition,
  type BenchmarkFn,
  type BenchOptions,
  defineSuite,
  type ExternalBenchmark,
  type ExternalCommand,
  type IterationSpec,
  isSuite,
  type LevelHooks,
  type ParamSpace,
  type ParamValue,
  type ParamValues,
  paramCombinations,
  type Suite,
  type SuiteDefinition,
} from "./suite";
export {
  higherIsBetter,
  type JmhTimeUnit,
  MODES,
  type Mode,
  parseScoreUnit,
  scoreUnit,
  TIME_UNITS,
  type TimeUnit,
  unitFactor,
} from "./units";
