import { type BenchmarkResult, type Metric, unitFactor } from "@rafkit/bench";
import { renderColumns } from "./columns";

/** The groups of targets, each named after the suite module whose benchmarks it needs (see `suites.ts`). */
export const TARGET_GROUPS = ["bits", "syscall-state", "raf", "raf-async"] as const;

/** A group of targets. */
export type TargetGroup = (typeof TARGET_GROUPS)[number];

/**
 * One performance target, named for the capability it guarantees. `ratio`: `numerator / denominator` of two benchmarks' scores
 * (time per op), paired by params, compared with `goal`. `rate`: a derived rate of one benchmark (GB/s,
 * MB/s) compared with `goal`.
 */
export type Target = {
  /** What it guarantees, as a stable id (`buffered-reads-near-floor`). */
  name: string;
  /** Its group (which suites it needs). */
  group: TargetGroup;
  /** What it guarantees, in words. */
  text: string;
  /** `>=`, `<=` or `>`: how the value must compare with `goal`. */
  op: ">=" | "<=" | ">";
  /** The bound. */
  goal: number;
  /**
   * Forks its benchmarks run with when the command line gives none (default `TARGET_FORKS`). More where
   * the margin is within the spread between forks: each process lays out its JIT code anew, which moves
   * a nanosecond-scale score by a few percent.
   */
  forks?: number;
} & (
  | {
      kind: "ratio";
      /** Benchmark whose score is divided (`Suite.benchmark`). */
      numerator: string;
      /** Benchmark whose score divides. */
      denominator: string;
    }
  | {
      kind: "rate";
      /** The benchmark. */
      benchmark: string;
      /** Unit of the rate, for display. */
      unit: string;
      /** The rate from a result (e.g. its `·bandwidth` metric, or bytes per op from a param). */
      rate: (result: BenchmarkResult) => number;
    }
);

/** Forks per benchmark of `targets` when neither the target nor the command line says otherwise. */
export const TARGET_FORKS = 2;

const bandwidth = (r: BenchmarkResult) => r.secondaryMetrics["·bandwidth"]?.score ?? Number.NaN;

/** Nanoseconds per op of a time-per-op metric (NaN for throughput or foreign units). */
function nanosPerOp(metric: Metric): number {
  const f = unitFactor(metric.scoreUnit, "ns/op");
  return f === undefined ? Number.NaN : metric.score * f;
}

const ratio = (
  name: string,
  group: TargetGroup,
  text: string,
  numerator: string,
  denominator: string,
  op: Target["op"],
  goal: number,
  forks?: number,
): Target => ({
  name,
  group,
  text,
  kind: "ratio",
  numerator,
  denominator,
  op,
  goal,
  ...(forks === undefined ? {} : { forks }),
});

/** rafkit's performance targets, each a ratio or rate measured in one run. */
export const TARGETS: readonly Target[] = [
  ratio(
    "bits-get-near-dataview",
    "bits",
    "single get within 1.5x of DataView",
    "BitsGet.bigEndian",
    "BitsGet.dataView",
    "<=",
    1.5,
  ),
  ratio(
    "bits-set-near-dataview",
    "bits",
    "single set within 1.5x of DataView",
    "BitsSet.bigEndian",
    "BitsSet.dataView",
    "<=",
    1.5,
    // The float sets come closest to the goal, and single forks spread by +-0.05x: more forks keep the
    // verdict off the draw.
    6,
  ),
  {
    name: "bits-bulk-decode-rate",
    group: "bits",
    text: "bulk BE Int32 decode of 1 MiB at 1 GB/s or more",
    kind: "rate",
    benchmark: "BitsBulkDecode.decodeArray",
    unit: "GB/s",
    rate: bandwidth,
    op: ">=",
    goal: 1,
  },
  {
    name: "bits-utf8-decode-rate",
    group: "bits",
    text: "ASCII modified-UTF-8 decode at 300 MB/s or more",
    kind: "rate",
    benchmark: "BitsModifiedUtf8.modifiedUtf8",
    unit: "MB/s",
    // bytes per ns = GB/s; x1000 = MB/s.
    rate: (r) => (Number(r.params?.length) / nanosPerOp(r.primaryMetric)) * 1000,
    op: ">=",
    goal: 300,
  },
  ratio(
    "capture-success-near-raw",
    "syscall-state",
    "tlSuccess within 1.05x of the raw call",
    "CaptureStateUtil.tlSuccess",
    "CaptureStateUtil.rawSuccess",
    "<=",
    1.05,
  ),
  ratio(
    "capture-fail-near-success",
    "syscall-state",
    "tlFail within 1.2x of tlSuccess",
    "CaptureStateUtil.tlFail",
    "CaptureStateUtil.tlSuccess",
    "<=",
    1.2,
  ),
  ratio(
    "capture-fail-beats-throw",
    "syscall-state",
    "tlFail at least 10x faster than Node's throw/catch",
    "CaptureStateUtil.nodeThrowFail",
    "CaptureStateUtil.tlFail",
    ">=",
    10,
  ),
  ratio(
    "native-pread-beats-node",
    "syscall-state",
    "4-byte pread: native faster than node backend",
    "BackendPread.node",
    "BackendPread.native",
    ">",
    1,
  ),
  ratio(
    "buffered-reads-beat-jdk",
    "raf",
    "buffered reads at least 50x faster than JDK one-call-per-primitive",
    "RafRead.jdkBulk",
    "RafRead.buffered",
    ">=",
    50,
  ),
  ratio(
    "buffered-writes-beat-jdk",
    "raf",
    "buffered writes (incl. flush) at least 30x faster than JDK one-call-per-primitive",
    "RafWrite.jdkBulk",
    "RafWrite.buffered",
    ">=",
    30,
  ),
  ratio(
    "buffered-reads-near-floor",
    "raf",
    "buffered reads within 1.5x of the floor",
    "RafRead.buffered",
    "RafRead.floor",
    "<=",
    1.5,
  ),
  ratio(
    "buffered-writes-near-floor",
    "raf",
    "buffered writes within 1.5x of the floor",
    "RafWrite.buffered",
    "RafWrite.floor",
    "<=",
    1.5,
  ),
  ratio(
    "unbuffered-reads-near-jdk",
    "raf",
    "unbuffered native reads within 1.1x of JDK one-call-per-primitive",
    "RafRead.unbufferedNative",
    "RafRead.jdkBulk",
    "<=",
    1.1,
  ),
  ratio(
    "unbuffered-writes-near-jdk",
    "raf",
    "unbuffered native writes within 1.1x of JDK one-call-per-primitive",
    "RafWrite.unbufferedNative",
    "RafWrite.jdkBulk",
    "<=",
    1.1,
  ),
  {
    name: "bulk-read-rate",
    group: "raf",
    text: "bulk readInts of 1 MiB at 1 GB/s or more",
    kind: "rate",
    benchmark: "RafBulk.readInts",
    unit: "GB/s",
    rate: bandwidth,
    op: ">=",
    goal: 1,
  },
  ratio(
    "async-beats-filehandle",
    "raf-async",
    "async buffered at least 100x faster than FileHandle per int",
    "RafAsync.fileHandle",
    "RafAsync.asyncBuffered",
    ">=",
    100,
  ),
  ratio(
    "async-beats-random-access-file",
    "raf-async",
    "async buffered at least 100x faster than random-access-file",
    "RafAsync.randomAccessFile",
    "RafAsync.asyncBuffered",
    ">=",
    100,
  ),
  ratio(
    "async-near-sync",
    "raf-async",
    "async buffered within 3x of sync buffered",
    "RafAsync.asyncBuffered",
    "RafAsync.syncBuffered",
    "<=",
    3,
  ),
];

/** The benchmarks (`Suite.benchmark`) the targets of `groups` need. */
export function targetBenchmarks(groups: readonly TargetGroup[]): string[] {
  const ids = new Set<string>();
  for (const t of TARGETS) {
    if (!groups.includes(t.group)) continue;
    if (t.kind === "ratio") {
      ids.add(t.numerator);
      ids.add(t.denominator);
    } else {
      ids.add(t.benchmark);
    }
  }
  return [...ids];
}

/** One run of `targets`: benchmarks (`Suite.benchmark`) that share a fork count. */
export interface TargetRun {
  /** Forks per benchmark. */
  forks: number;
  /** The benchmarks. */
  benchmarks: string[];
}

/**
 * The runs the targets of `groups` need, by fewest forks first: a benchmark runs with the most forks
 * any of its targets asks for. `forks` (from the command line) puts every benchmark in one run.
 */
export function targetRuns(groups: readonly TargetGroup[], forks?: number): TargetRun[] {
  if (forks !== undefined) return [{ forks, benchmarks: targetBenchmarks(groups) }];
  const need = new Map<string, number>();
  for (const t of TARGETS) {
    if (!groups.includes(t.group)) continue;
    const ids = t.kind === "ratio" ? [t.numerator, t.denominator] : [t.benchmark];
    for (const id of ids) need.set(id, Math.max(need.get(id) ?? 0, t.forks ?? TARGET_FORKS));
  }
  const runs = new Map<number, string[]>();
  for (const [id, n] of need) runs.set(n, [...(runs.get(n) ?? []), id]);
  return [...runs].sort(([a], [b]) => a - b).map(([n, benchmarks]) => ({ forks: n, benchmarks }));
}

/** A regular expression selecting exactly `ids`. */
export function exactFilter(ids: readonly string[]): string {
  return `^(${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

/** One evaluated target for one parameter combination. */
export interface TargetOutcome {
  /** The target. */
  target: Target;
  /** Parameter values, `name=value` joined by commas ("" without params). */
  params: string;
  /** The ratio or rate (NaN when a result is missing). */
  value: number;
  /** PASS, FAIL, or n/a when a result is missing (e.g. a benchmark skipped without `java`). */
  verdict: "PASS" | "FAIL" | "n/a";
  /** Why n/a. */
  note?: string;
}

const paramKey = (r: BenchmarkResult) =>
  Object.entries(r.params ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(",");

// Sorted by name: results of one combination pair up whatever order their files list the params in.
const pairKey = (r: BenchmarkResult) => JSON.stringify(Object.entries(r.params ?? {}).sort());

/**
 * Why a measured ratio or rate cannot be judged, or undefined when it can. A score of 0 (a clock too coarse
 * for the iteration) makes a ratio 0 or Infinity, which would pass any `<=` or `>=` goal on no evidence.
 */
function unjudgeable(value: number, what: string): string | undefined {
  if (Number.isNaN(value)) return `${what} is not a number`;
  if (!Number.isFinite(value) || value <= 0) return `${what} is ${value}: a score is 0 or infinite`;
  return undefined;
}

function meets(value: number, op: Target["op"], goal: number): boolean {
  return op === ">=" ? value >= goal : op === "<=" ? value <= goal : value > goal;
}

/**
 * Evaluates targets against results (of one run). Ratio targets pair results by params; a missing side
 * gives `n/a` with a note, e.g. `RafRead.jdkBulk: no result (skipped?)`.
 */
export function evaluateTargets(
  results: readonly BenchmarkResult[],
  groups: readonly TargetGroup[] = TARGET_GROUPS,
  targets: readonly Target[] = TARGETS,
): TargetOutcome[] {
  const byName = new Map<string, BenchmarkResult[]>();
  for (const r of results) byName.set(r.benchmark, [...(byName.get(r.benchmark) ?? []), r]);
  const out: TargetOutcome[] = [];
  for (const target of targets) {
    if (!groups.includes(target.group)) continue;
    if (target.kind === "rate") {
      const found = byName.get(target.benchmark) ?? [];
      if (found.length === 0) {
        out.push({
          target,
          params: "",
          value: Number.NaN,
          verdict: "n/a",
          note: `${target.benchmark}: no result`,
        });
      }
      for (const r of found) {
        const value = target.rate(r);
        const why = unjudgeable(value, "the rate");
        out.push({
          target,
          params: paramKey(r),
          value,
          verdict:
            why !== undefined ? "n/a" : meets(value, target.op, target.goal) ? "PASS" : "FAIL",
          ...(why !== undefined ? { note: `${target.benchmark}: ${why}` } : {}),
        });
      }
      continue;
    }
    const nums = byName.get(target.numerator) ?? [];
    const dens = byName.get(target.denominator) ?? [];
    // Each combination once, shown as the first result lists it.
    const combos = new Map<string, string>();
    for (const r of [...nums, ...dens])
      if (!combos.has(pairKey(r))) combos.set(pairKey(r), paramKey(r));
    if (combos.size === 0) combos.set(JSON.stringify([]), "");
    for (const [pair, key] of combos) {
      const ns = nums.filter((r) => pairKey(r) === pair);
      const ds = dens.filter((r) => pairKey(r) === pair);
      if (ns.length > 1 || ds.length > 1) {
        // Two runs' results (e.g. two --from files): which pair is meant is a guess, so none is made.
        const twice = ns.length > 1 ? target.numerator : target.denominator;
        out.push({
          target,
          params: key,
          value: Number.NaN,
          verdict: "n/a",
          note: `${twice}: ${Math.max(ns.length, ds.length)} results; give one run's`,
        });
        continue;
      }
      const n = ns[0];
      const d = ds[0];
      if (n === undefined || d === undefined) {
        const missing = [
          n === undefined ? target.numerator : undefined,
          d === undefined ? target.denominator : undefined,
        ]
          .filter(Boolean)
          .join(" and ");
        out.push({
          target,
          params: key,
          value: Number.NaN,
          verdict: "n/a",
          note: `${missing}: no result`,
        });
        continue;
      }
      const value = nanosPerOp(n.primaryMetric) / nanosPerOp(d.primaryMetric);
      const why = Number.isNaN(value)
        ? "scores are not times per op"
        : unjudgeable(value, "the ratio");
      out.push({
        target,
        params: key,
        value,
        verdict: why !== undefined ? "n/a" : meets(value, target.op, target.goal) ? "PASS" : "FAIL",
        ...(why !== undefined ? { note: why } : {}),
      });
    }
  }
  return out;
}

const shortName = (id: string) => id.slice(id.indexOf(".") + 1);

/** The outcomes as a table: target, params, measured value, goal and PASS/FAIL, plus a summary line. */
export function formatTargets(outcomes: readonly TargetOutcome[]): string {
  const rows = outcomes.map(({ target: t, params, value, verdict, note }) => {
    const what =
      t.kind === "ratio"
        ? `${shortName(t.numerator)} / ${shortName(t.denominator)}`
        : shortName(t.benchmark);
    const unit = t.kind === "ratio" ? "x" : ` ${t.unit}`;
    const shown = Number.isNaN(value)
      ? "-"
      : `${value >= 100 ? value.toFixed(0) : value.toFixed(2)}${unit}`;
    return [
      t.text,
      what,
      params,
      shown,
      `${t.op} ${t.goal}${unit}`,
      note ? `${verdict} (${note})` : verdict,
    ];
  });
  const table = renderColumns(["Target", "Measured", "Params", "Value", "Goal", "Result"], rows, [
    "left",
    "left",
    "left",
    "right",
    "right",
    "left",
  ]);
  const count = (v: TargetOutcome["verdict"]) => outcomes.filter((o) => o.verdict === v).length;
  return `${table}\n\n${count("PASS")} PASS, ${count("FAIL")} FAIL, ${count("n/a")} n/a`;
}
