import { BenchError } from "../errors";
import type { BenchmarkResult, Metric } from "../result";
import { jmhPercentiles } from "../stats";

/** A non-finite number as JMH's JSON writer spells it: `"NaN"`, `"+INF"`, `"-INF"`. */
function jmhNonFinite(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  return value > 0 ? "+INF" : "-INF";
}

/**
 * Serialises results in JMH's JSON result format (`-rf json`): an array of records, 4-space indented, with
 * non-finite numbers written as strings (`"NaN"`, `"+INF"`, `"-INF"`), as JMH writes them.
 */
export function toJmhJson(results: readonly BenchmarkResult[]): string {
  return `${JSON.stringify(
    results,
    (_key, value) =>
      typeof value === "number" && !Number.isFinite(value) ? jmhNonFinite(value) : value,
    4,
  )}\n`;
}

const bad = (where: string, what: string) =>
  new BenchError("ERR_BENCH_BAD_JSON", `not a JMH result file: ${where} ${what}`);

function num(value: unknown, where: string): number {
  if (typeof value === "number") return value;
  if (value === "NaN") return Number.NaN;
  // JMH writes "+INF" and "-INF"; files from earlier versions of this harness have "Infinity".
  if (value === "+INF" || value === "Infinity") return Number.POSITIVE_INFINITY;
  if (value === "-INF" || value === "-Infinity") return Number.NEGATIVE_INFINITY;
  throw bad(where, `should be a number, got ${JSON.stringify(value)}`);
}

function str(value: unknown, where: string, fallback?: string): string {
  if (typeof value === "string") return value;
  if (value === undefined && fallback !== undefined) return fallback;
  throw bad(where, `should be a string, got ${JSON.stringify(value)}`);
}

function parseMetric(raw: unknown, where: string): Metric {
  if (typeof raw !== "object" || raw === null) throw bad(where, "should be an object");
  const m = raw as Record<string, unknown>;
  const rawData = m.rawData ?? [];
  if (!Array.isArray(rawData) || !rawData.every(Array.isArray))
    throw bad(`${where}.rawData`, "should be an array of arrays");
  const data = (rawData as unknown[][]).map((fork, f) =>
    fork.map((v, i) => num(v, `${where}.rawData[${f}][${i}]`)),
  );
  const score = num(m.score, `${where}.score`);
  const error = m.scoreError === undefined ? Number.NaN : num(m.scoreError, `${where}.scoreError`);
  const confidence = Array.isArray(m.scoreConfidence)
    ? ([
        num(m.scoreConfidence[0], `${where}.scoreConfidence[0]`),
        num(m.scoreConfidence[1], `${where}.scoreConfidence[1]`),
      ] as [number, number])
    : ([score - error, score + error] as [number, number]);
  const percentiles =
    typeof m.scorePercentiles === "object" && m.scorePercentiles !== null
      ? Object.fromEntries(
          Object.entries(m.scorePercentiles as Record<string, unknown>).map(([k, v]) => [
            k,
            num(v, `${where}.scorePercentiles.${k}`),
          ]),
        )
      : jmhPercentiles(data.flat());
  return {
    score,
    scoreError: error,
    scoreConfidence: confidence,
    scorePercentiles: percentiles,
    scoreUnit: str(m.scoreUnit, `${where}.scoreUnit`),
    rawData: data,
  };
}

/**
 * Reads a JMH JSON result file (ours, or one JMH wrote): checks the fields the harness relies on, accepts
 * `"NaN"` strings for numbers, and fills fields JMH files may omit. Throws `ERR_BENCH_BAD_JSON` naming the
 * first bad field.
 */
export function parseJmhJson(text: string): BenchmarkResult[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new BenchError(
      "ERR_BENCH_BAD_JSON",
      `not a JMH result file: invalid JSON (${(cause as Error).message})`,
      { cause },
    );
  }
  if (!Array.isArray(data)) throw bad("the top level", "should be an array");
  return data.map((item, i): BenchmarkResult => {
    const where = `[${i}]`;
    if (typeof item !== "object" || item === null) throw bad(where, "should be an object");
    const r = item as Record<string, unknown>;
    const secondary: Record<string, Metric> = {};
    for (const [k, v] of Object.entries(
      (r.secondaryMetrics as Record<string, unknown> | undefined) ?? {},
    )) {
      secondary[k] = parseMetric(v, `${where}.secondaryMetrics.${k}`);
    }
    const int = (key: string, fallback: number) =>
      r[key] === undefined ? fallback : num(r[key], `${where}.${key}`);
    const result: BenchmarkResult = {
      jmhVersion: str(r.jmhVersion, `${where}.jmhVersion`, "unknown"),
      benchmark: str(r.benchmark, `${where}.benchmark`),
      mode: str(r.mode, `${where}.mode`),
      threads: int("threads", 1),
      forks: int("forks", 0),
      jvm: str(r.jvm, `${where}.jvm`, ""),
      jvmArgs: Array.isArray(r.jvmArgs) ? r.jvmArgs.map(String) : [],
      jdkVersion: str(r.jdkVersion, `${where}.jdkVersion`, ""),
      vmName: str(r.vmName, `${where}.vmName`, ""),
      vmVersion: str(r.vmVersion, `${where}.vmVersion`, ""),
      warmupIterations: int("warmupIterations", 0),
      warmupTime: str(r.warmupTime, `${where}.warmupTime`, ""),
      warmupBatchSize: int("warmupBatchSize", 1),
      measurementIterations: int("measurementIterations", 0),
      measurementTime: str(r.measurementTime, `${where}.measurementTime`, ""),
      measurementBatchSize: int("measurementBatchSize", 1),
      primaryMetric: parseMetric(r.primaryMetric, `${where}.primaryMetric`),
      secondaryMetrics: secondary,
    };
    if (r.params !== undefined) {
      if (typeof r.params !== "object" || r.params === null)
        throw bad(`${where}.params`, "should be an object");
      const params = Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, String(v)]));
      // JMH's key order, as buildResult keeps it: params before primaryMetric (a file saved again reads the same).
      const { primaryMetric, secondaryMetrics, ...head } = result;
      return { ...head, params, primaryMetric, secondaryMetrics };
    }
    return result;
  });
}
