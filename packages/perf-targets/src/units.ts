import { type Metric, parseScoreUnit, unitFactor } from "@rafkit/bench";

/**
 * Nanoseconds per op of a metric: a time per op converted, or the inverse of a throughput (`ops/s` from
 * `rafkv bench`); NaN for foreign units.
 */
export function nanosPerOp(metric: Metric): number {
  if (parseScoreUnit(metric.scoreUnit)?.kind === "throughput") {
    const perNs = unitFactor(metric.scoreUnit, "ops/ns");
    return perNs === undefined ? Number.NaN : 1 / (metric.score * perNs);
  }
  const f = unitFactor(metric.scoreUnit, "ns/op");
  return f === undefined ? Number.NaN : metric.score * f;
}
