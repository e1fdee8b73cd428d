/**
 * rafkv's YCSB-like benchmark against lmdb and classic-level, as a library: `runBench`, then the reports made with
 * `@rafkit/bench`. A separate entry (`dist/bench.js`), so that the store itself loads neither the harness nor the
 * other stores' native addons.
 *
 * @packageDocumentation
 */
export { type Durability, ENGINE_NAMES, type EngineName } from "./bench/engines";
export {
  benchChart,
  benchConfigs,
  benchJson,
  benchSummary,
  benchTable,
  toBenchmarkResults,
} from "./bench/report";
export {
  type BenchReport,
  type BenchRunOptions,
  type Latency,
  type PhaseResult,
  runBench,
} from "./bench/run";
export {
  benchKey,
  INSERT_ORDERS,
  type InsertOrder,
  scrambledZipfian,
  WORKLOADS,
  type Workload,
} from "./bench/workload";
