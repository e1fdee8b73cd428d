import { type Metric, unitFactor } from "@rafkit/bench";

/** Nanoseconds per op of a time-per-op metric (NaN for throughput or foreign units). */
export function nanosPerOp(metric: Metric): number {
  const f = unitFactor(metric.scoreUnit, "ns/op");
  return f === undefined ? Number.NaN : metric.score * f;
}
