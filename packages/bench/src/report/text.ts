import type { BenchmarkResult, Metric } from "../result";
import { formatScore, paramNames, renderColumns } from "./format";

/**
 * The results as JMH prints them at the end of a run:
 * `Benchmark  (param)  Mode  Cnt  Score   Error  Units`, one row per result and one per secondary metric
 * (named `Benchmark:metric`). The error column is blank when the error is undefined (two iterations or fewer).
 */
export function formatTable(results: readonly BenchmarkResult[]): string {
  const params = paramNames(results);
  const rows: { name: string; result: BenchmarkResult; metric: Metric }[] = [];
  for (const result of results) {
    rows.push({ name: result.benchmark, result, metric: result.primaryMetric });
    for (const [label, metric] of Object.entries(result.secondaryMetrics ?? {})) {
      rows.push({ name: `${result.benchmark}:${label}`, result, metric });
    }
  }
  const errors = rows.map(({ metric }) =>
    Number.isFinite(metric.scoreError) ? formatScore(metric.scoreError) : "",
  );
  const errorWidth = Math.max(0, ...errors.map((e) => e.length));
  const header = [
    "Benchmark",
    ...params.map((p) => `(${p})`),
    "Mode",
    "Cnt",
    "Score",
    "Error",
    "Units",
  ];
  const body = rows.map(({ name, result, metric }, i) => [
    name,
    ...params.map((p) => result.params?.[p] ?? ""),
    result.mode,
    String(metric.rawData.flat().length),
    formatScore(metric.score),
    errors[i] ? `± ${errors[i]!.padStart(errorWidth)}` : "",
    metric.scoreUnit,
  ]);
  const align = [
    "left",
    ...params.map(() => "right" as const),
    "right",
    "right",
    "right",
    "right",
    "right",
  ] as const;
  // JMH separates the score from "± error" by one space, other columns by two.
  const gaps = header.map((_, i) => (i === header.length - 2 ? " " : undefined));
  return renderColumns(header, body, align, gaps);
}
