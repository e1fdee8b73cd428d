/** Benchmark modes, as JMH names them: average time, throughput, single shot. */
export type Mode = "avgt" | "thrpt" | "ss";

/** Output time units, as JMH's `-tu` spells them. */
export type TimeUnit = "ns" | "us" | "ms" | "s";

/** All modes, in JMH's order. */
export const MODES: readonly Mode[] = ["thrpt", "avgt", "ss"];

/** All time units. */
export const TIME_UNITS: readonly TimeUnit[] = ["ns", "us", "ms", "s"];

/** Nanoseconds in one of each time unit. */
export const NANOS_PER_UNIT: Readonly<Record<TimeUnit, number>> = {
  ns: 1,
  us: 1e3,
  ms: 1e6,
  s: 1e9,
};

/** JMH's score unit string for a mode and time unit: `us/op` for time modes, `ops/us` for throughput. */
export function scoreUnit(mode: Mode, unit: TimeUnit): string {
  return mode === "thrpt" ? `ops/${unit}` : `${unit}/op`;
}

/** Every time unit JMH writes in a score unit: ours, and its `min`, `hr` and `day` (`-tu m`, `h`, `d`). */
export type JmhTimeUnit = TimeUnit | "min" | "hr" | "day";

const JMH_NANOS: Readonly<Record<JmhTimeUnit, number>> = {
  ...NANOS_PER_UNIT,
  min: 60e9,
  hr: 3600e9,
  day: 86_400e9,
};

/** Parses a JMH score unit (`us/op`, `ops/ms`, `ops/min`) back into its kind and time unit; undefined if foreign. */
export function parseScoreUnit(
  text: string,
): { kind: "time" | "throughput"; unit: JmhTimeUnit } | undefined {
  const time = /^(ns|us|ms|s|min|hr|day)\/op$/.exec(text);
  if (time) return { kind: "time", unit: time[1] as JmhTimeUnit };
  const thrpt = /^ops\/(ns|us|ms|s|min|hr|day)$/.exec(text);
  if (thrpt) return { kind: "throughput", unit: thrpt[1] as JmhTimeUnit };
  return undefined;
}

/**
 * The factor that converts a score in unit `from` to unit `to` (both JMH score units of one kind),
 * or undefined when they cannot be converted (a time unit against a throughput unit, or a foreign unit).
 */
export function unitFactor(from: string, to: string): number | undefined {
  if (from === to) return 1;
  const a = parseScoreUnit(from);
  const b = parseScoreUnit(to);
  if (!a || !b || a.kind !== b.kind) return undefined;
  const ratio = JMH_NANOS[a.unit] / JMH_NANOS[b.unit];
  return a.kind === "time" ? ratio : 1 / ratio;
}

/** True when a larger score is better (throughput units). */
export function higherIsBetter(unit: string): boolean {
  return parseScoreUnit(unit)?.kind === "throughput" || /\/s$/.test(unit);
}
