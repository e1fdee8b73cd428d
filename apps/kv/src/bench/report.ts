import {
  type BenchmarkResult,
  buildResult,
  formatTable,
  metricOf,
  renderChart,
  toJmhJson,
} from "@rafkit/bench";
import type { BenchReport, PhaseResult } from "./run";

/** The results as `@rafkit/bench` results: `ycsb.<phase>` in ops/s per engine, with p50/p99 latency as secondary metrics. */
export function toBenchmarkResults(report: BenchReport): BenchmarkResult[] {
  return report.results.map((r) => {
    const result = buildResult(
      `ycsb.${r.phase}`,
      { engine: r.engine, insertOrder: report.insertOrder },
      {
        mode: "thrpt",
        unit: "s",
        warmup: { iterations: r.warmupIterations },
        measurement: {
          iterations: r.iterations.length,
          invocations: Math.round(r.operations / r.iterations.length),
        },
        forks: 0,
        gc: false,
        operationsPerInvocation: 1,
        nodeArgs: [],
      },
      [[...r.iterations]],
    );
    result.secondaryMetrics["·p50"] = metricOf([[r.latency.p50]], "us/op");
    result.secondaryMetrics["·p99"] = metricOf([[r.latency.p99]], "us/op");
    return result;
  });
}

/** JMH-format JSON of the run. */
export function benchJson(report: BenchReport): string {
  return toJmhJson(toBenchmarkResults(report));
}

/** An SVG bar chart of ops/s per phase and engine. */
export function benchChart(report: BenchReport): string {
  return renderChart(toBenchmarkResults(report), {
    title: `rafkv vs lmdb vs classic-level: ${report.records} records of ${report.valueSize} B, ops/s (${report.durability} durability, ${report.insertOrder} inserts)`,
  });
}

/** JMH's result table. */
export function benchTable(report: BenchReport): string {
  return formatTable(toBenchmarkResults(report));
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(1));

/** A side-by-side summary: one row per phase, ops/s and p50/p99 per engine, and rafkv's ratio to each. */
export function benchSummary(report: BenchReport): string {
  const engines = [...new Set(report.results.map((r) => r.engine))];
  const phases = [...new Set(report.results.map((r) => r.phase))];
  const find = (e: string, p: string) =>
    report.results.find((r) => r.engine === e && r.phase === p);
  const header = ["phase", ...engines.flatMap((e) => [`${e} ops/s`, "p50 µs", "p99 µs"])];
  const rows = phases.map((p) => [
    p,
    ...engines.flatMap((e) => {
      const r = find(e, p);
      return r ? [fmt(r.opsPerSecond), fmt(r.latency.p50), fmt(r.latency.p99)] : ["-", "-", "-"];
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const out = [line(header), ...rows.map(line)];
  if (engines.includes("rafkv")) {
    for (const other of engines.filter((e) => e !== "rafkv")) {
      const ratios = phases
        .map((p) => {
          const a = find("rafkv", p);
          const b = find(other, p);
          return a && b ? `${p} ${(a.opsPerSecond / b.opsPerSecond).toFixed(2)}x` : null;
        })
        .filter((s) => s !== null);
      out.push(`rafkv / ${other}: ${ratios.join(", ")}`);
    }
  }
  return out.join("\n");
}

/** How each engine was configured. */
export function benchConfigs(results: readonly PhaseResult[]): string {
  const seen = new Map(results.map((r) => [r.engine, r.config]));
  return [...seen].map(([e, c]) => `${e}: ${c}`).join("; ");
}
