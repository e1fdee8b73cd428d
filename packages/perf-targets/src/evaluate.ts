import type { BenchmarkResult } from "@rafkit/bench";
import { renderColumns } from "./columns";
import {
  type Side,
  TARGET_FORKS,
  TARGET_WARMUP,
  TARGETS,
  type Target,
  type TargetGroup,
} from "./targets";
import { nanosPerOp } from "./units";

const sidesOf = (t: Target): Side[] =>
  t.kind === "rate"
    ? [t.side]
    : [
        t.numerator,
        t.denominator,
        ...(t.peer ? [t.peer.numerator, t.peer.denominator] : []),
        ...(t.cap ? [t.cap.numerator, t.cap.denominator] : []),
      ];

/** The benchmarks (`Suite.benchmark`) the targets of `groups` need. */
export function targetBenchmarks(groups: readonly TargetGroup[], targets = TARGETS): string[] {
  const ids = new Set<string>();
  for (const t of targets) {
    if (!groups.includes(t.group)) continue;
    for (const side of sidesOf(t)) for (const id of side.benchmarks) ids.add(id);
  }
  return [...ids];
}

/**
 * One run of `targets`: benchmarks of one suite that share a fork count and a warmup, and the param values they
 * need.
 */
export interface TargetRun {
  /** Forks per benchmark. */
  forks: number;
  /** Warmup iterations per fork: the command line's when it gives them, else the targets'. */
  warmupIterations: number;
  /** The benchmarks. */
  benchmarks: string[];
  /** Values of the params the targets fix (e.g. `impl`), for `-p`; other params keep their declared values. */
  params: Record<string, string[]>;
}

const suiteOf = (id: string) => id.slice(0, id.lastIndexOf("."));

/** A side's params as a stable key: the same fixed values, in any order, give the same key. */
const paramsKey = (side: Side) =>
  JSON.stringify(
    Object.entries(side.params ?? {})
      .map(([k, v]) => [k, typeof v === "string" ? [v] : [...v].sort()] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

/**
 * The forks and warmup each target of `groups` runs with: its own (default {@link TARGET_FORKS} and
 * {@link TARGET_WARMUP}), or the most of any target it shares a side with (the same benchmark with the same
 * params), directly or through others. So every side of a target runs alike, and its ratio's two sides share a run.
 */
function settingsByTarget(groups: readonly TargetGroup[], targets: readonly Target[]) {
  const chosen = targets.filter((t) => groups.includes(t.group));
  const parent = chosen.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const firstWith = new Map<string, number>();
  chosen.forEach((t, i) => {
    for (const side of sidesOf(t)) {
      for (const id of side.benchmarks) {
        const key = `${id}\0${paramsKey(side)}`;
        const other = firstWith.get(key);
        if (other === undefined) firstWith.set(key, i);
        else parent[root(i)] = root(other);
      }
    }
  });
  const most = new Map<number, { forks: number; warmupIterations: number }>();
  chosen.forEach((t, i) => {
    const r = root(i);
    const seen = most.get(r) ?? { forks: 0, warmupIterations: 0 };
    most.set(r, {
      forks: Math.max(seen.forks, t.forks ?? TARGET_FORKS),
      warmupIterations: Math.max(seen.warmupIterations, t.warmupIterations ?? TARGET_WARMUP),
    });
  });
  return chosen.map((t, i) => ({ target: t, ...most.get(root(i))! }));
}

/**
 * The runs the targets of `groups` need, by fewest forks first: one per suite, fork count and warmup, each with
 * every value its targets fix of a param, so that it measures only what some target divides. A target's
 * benchmarks run with its forks and warmup (see `settingsByTarget`; `forks` and `warmupIterations`, from the
 * command line, set them for all): a target that needs more adds them to its own impls only (the unbuffered
 * ones of `RandomAccessFileBenchmark`, not every impl of it), and a ratio's two sides share a run, interleaved,
 * when they are of one suite (every target's but `capture-fail-beats-throw`'s, whose `NodeErrno` side runs on its
 * own, back to back with the other: a run takes one suite's params).
 */
export function targetRuns(
  groups: readonly TargetGroup[],
  forks?: number,
  targets = TARGETS,
  warmupIterations?: number,
): TargetRun[] {
  const runs = new Map<string, TargetRun>();
  for (const { target, ...own } of settingsByTarget(groups, targets)) {
    const n = forks ?? own.forks;
    const w = warmupIterations ?? own.warmupIterations;
    for (const side of sidesOf(target)) {
      for (const id of side.benchmarks) {
        const key = `${n}\0${w}\0${suiteOf(id)}`;
        const run = runs.get(key) ?? { forks: n, warmupIterations: w, benchmarks: [], params: {} };
        if (!run.benchmarks.includes(id)) run.benchmarks.push(id);
        for (const [k, v] of Object.entries(side.params ?? {})) {
          const values = new Set(run.params[k] ?? []);
          for (const x of typeof v === "string" ? [v] : v) values.add(x);
          run.params[k] = [...values];
        }
        runs.set(key, run);
      }
    }
  }
  return [...runs.values()].sort((a, b) => a.forks - b.forks);
}

/**
 * One result per benchmark and params, the one of most forks (then of most warmup): two runs of
 * {@link targetRuns} can both measure a benchmark when targets of different forks or warmup fix overlapping params
 * of it, and a pairing must see one result.
 */
export function oneResultEach(results: readonly BenchmarkResult[]): BenchmarkResult[] {
  const kept = new Map<string, BenchmarkResult>();
  for (const r of results) {
    const key = `${r.benchmark}\0${JSON.stringify(Object.entries(r.params ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    const seen = kept.get(key);
    if (
      seen === undefined ||
      r.forks > seen.forks ||
      (r.forks === seen.forks && r.warmupIterations > seen.warmupIterations)
    )
      kept.set(key, r);
  }
  return [...kept.values()];
}

/** A regular expression selecting exactly `ids`. */
export function exactFilter(ids: readonly string[]): string {
  return `^(${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

/** One evaluated target for one pairing (method and params). */
export interface TargetOutcome {
  /** The target. */
  target: Target;
  /** What was paired: the method (when a side names several) and the free params, `name=value` joined. */
  params: string;
  /** The ratio or rate (NaN when a result is missing). */
  value: number;
  /**
   * PASS, FAIL, CAPPED (missed, and so did the target's floor: no implementation could meet it here), or n/a
   * when a result is missing (e.g. a benchmark skipped without `java`).
   */
  verdict: "PASS" | "FAIL" | "CAPPED" | "n/a";
  /** For a FAIL: nanoseconds per op rafkit's side must lose to meet the goal. */
  gap?: number;
  /** The peer runtime's value of the same ratio (NaN when it did not run). */
  peer?: number;
  /** The floor's value of the same ratio (NaN when it did not run): what any implementation can reach. */
  cap?: number;
  /** Why n/a. */
  note?: string;
  /**
   * Half-width of the value's 99.9% confidence interval relative to the value, from the scores' own
   * (`scoreError`): for a ratio both sides' combined in quadrature. NaN when a score has none (2 iterations
   * or fewer); absent for n/a.
   */
  error?: number;
}

const matches = (r: BenchmarkResult, side: Side) =>
  side.benchmarks.includes(r.benchmark) &&
  Object.entries(side.params ?? {}).every(([k, v]) => {
    const got = r.params?.[k];
    return got !== undefined && (typeof v === "string" ? got === v : v.includes(got));
  });

/** The pairing key of a result on a side: its method (if the side has several) and its free params. */
function pairKey(r: BenchmarkResult, side: Side): string {
  const free = Object.entries(r.params ?? {})
    .filter(([k]) => !(k in (side.params ?? {})))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const method =
    side.benchmarks.length > 1 ? r.benchmark.slice(r.benchmark.lastIndexOf(".") + 1) : "";
  return JSON.stringify([method, free]);
}

function describeKey(key: string): string {
  const [method, free] = JSON.parse(key) as [string, [string, string][]];
  return [method, ...free.map(([k, v]) => `${k}=${v}`)].filter(Boolean).join(",");
}

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

/** Results of a side grouped by pairing key; a key with two results (two runs' files) maps to both. */
function bySide(results: readonly BenchmarkResult[], side: Side): Map<string, BenchmarkResult[]> {
  const out = new Map<string, BenchmarkResult[]>();
  for (const r of results) {
    if (!matches(r, side)) continue;
    const key = pairKey(r, side);
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

const sideName = (s: Side) =>
  `${s.benchmarks.length > 1 ? `${suiteOf(s.benchmarks[0]!)}.*` : s.benchmarks[0]}${Object.entries(
    s.params ?? {},
  )
    .map(([k, v]) => `{${k}=${typeof v === "string" ? v : v.join("|")}}`)
    .join("")}`;

/**
 * The gap of a FAIL in nanoseconds per op of rafkit's side: for `<=`, how far the numerator is above goal x
 * denominator; for `>=`/`>`, how far the denominator (rafkit) is above numerator / goal; for a rate, how much
 * faster the op must be to reach the goal rate.
 */
function gapOf(t: Target, value: number, nanos: number): number {
  if (t.kind === "rate") return nanos * (1 - value / t.goal);
  return t.op === "<=" ? nanos * (value - t.goal) : nanos * (1 - value / t.goal);
}

/** A score's relative 99.9% CI half-width (NaN without one). */
const relativeError = (r: BenchmarkResult) =>
  Math.abs(r.primaryMetric.scoreError / r.primaryMetric.score);

function ratioOf(n: BenchmarkResult, d: BenchmarkResult): number {
  return nanosPerOp(n.primaryMetric) / nanosPerOp(d.primaryMetric);
}

/**
 * Evaluates targets against results (of one run). Ratio targets pair results by method and free params; a
 * missing side gives `n/a` with a note, e.g. `RandomAccessFileBenchmark.*{impl=jdk25}: no result`.
 */
export function evaluateTargets(
  results: readonly BenchmarkResult[],
  groups: readonly TargetGroup[],
  targets: readonly Target[] = TARGETS,
): TargetOutcome[] {
  const out: TargetOutcome[] = [];
  for (const target of targets) {
    if (!groups.includes(target.group)) continue;
    if (target.kind === "rate") {
      const found = bySide(results, target.side);
      if (found.size === 0)
        out.push({
          target,
          params: "",
          value: Number.NaN,
          verdict: "n/a",
          note: `${sideName(target.side)}: no result`,
        });
      for (const [key, rs] of found) {
        for (const r of rs) {
          const value = target.rate(r);
          const why = unjudgeable(value, "the rate");
          const pass = why === undefined && meets(value, target.op, target.goal);
          out.push({
            target,
            params: describeKey(key),
            value,
            verdict: why !== undefined ? "n/a" : pass ? "PASS" : "FAIL",
            ...(why === undefined && !pass
              ? { gap: gapOf(target, value, nanosPerOp(r.primaryMetric)) }
              : {}),
            // A rate is bytes over the time per op: to first order, the time's relative error.
            ...(why === undefined ? { error: relativeError(r) } : {}),
            ...(why !== undefined ? { note: `${r.benchmark}: ${why}` } : {}),
          });
        }
      }
      continue;
    }
    const nums = bySide(results, target.numerator);
    const dens = bySide(results, target.denominator);
    const peerNums = target.peer ? bySide(results, target.peer.numerator) : new Map();
    const peerDens = target.peer ? bySide(results, target.peer.denominator) : new Map();
    const capNums = target.cap ? bySide(results, target.cap.numerator) : new Map();
    const capDens = target.cap ? bySide(results, target.cap.denominator) : new Map();
    const keys = [...new Set([...nums.keys(), ...dens.keys()])];
    if (keys.length === 0) keys.push(JSON.stringify(["", []]));
    for (const key of keys) {
      const ns = nums.get(key) ?? [];
      const ds = dens.get(key) ?? [];
      const params = describeKey(key);
      if (ns.length > 1 || ds.length > 1) {
        // Two runs' results (e.g. two --from files): which pair is meant is a guess, so none is made.
        const twice = ns.length > 1 ? target.numerator : target.denominator;
        out.push({
          target,
          params,
          value: Number.NaN,
          verdict: "n/a",
          note: `${sideName(twice)}: ${Math.max(ns.length, ds.length)} results; give one run's`,
        });
        continue;
      }
      const [n] = ns;
      const [d] = ds;
      if (n === undefined || d === undefined) {
        const missing = [
          n === undefined ? target.numerator : undefined,
          d === undefined ? target.denominator : undefined,
        ]
          .filter((s): s is Side => s !== undefined)
          .map(sideName)
          .join(" and ");
        out.push({
          target,
          params,
          value: Number.NaN,
          verdict: "n/a",
          note: `${missing}: no result`,
        });
        continue;
      }
      const value = ratioOf(n, d);
      const why = Number.isNaN(value)
        ? "scores are not times per op"
        : unjudgeable(value, "the ratio");
      const pass = why === undefined && meets(value, target.op, target.goal);
      const pn = peerNums.get(key)?.[0];
      const pd = peerDens.get(key)?.[0];
      const cn = capNums.get(key)?.[0];
      const cd = capDens.get(key)?.[0];
      const cap = target.cap ? (cn && cd ? ratioOf(cn, cd) : Number.NaN) : undefined;
      // Capped only on evidence: a floor that ran and missed the goal itself.
      const capped =
        cap !== undefined &&
        unjudgeable(cap, "the floor") === undefined &&
        !meets(cap, target.op, target.goal);
      out.push({
        target,
        params,
        value,
        verdict: why !== undefined ? "n/a" : pass ? "PASS" : capped ? "CAPPED" : "FAIL",
        ...(why === undefined && !pass
          ? { gap: gapOf(target, value, nanosPerOp(d.primaryMetric)) }
          : {}),
        ...(target.peer ? { peer: pn && pd ? ratioOf(pn, pd) : Number.NaN } : {}),
        ...(cap !== undefined ? { cap } : {}),
        ...(why === undefined ? { error: Math.hypot(relativeError(n), relativeError(d)) } : {}),
        ...(why !== undefined ? { note: why } : {}),
      });
    }
  }
  return out;
}

const shown = (value: number, unit: string) =>
  Number.isNaN(value) ? "-" : `${value >= 100 ? value.toFixed(0) : value.toFixed(2)}${unit}`;

/** A target's value as the tables show it: `1.28x`, `4.96 GB/s`, `-` for NaN. */
export function formatTargetValue(target: Target, value: number): string {
  return shown(value, target.kind === "ratio" ? "x" : ` ${target.unit}`);
}

// Always in ns per op, as the issue asks of a gap, so that gaps compare at a glance (`61730 ns`, not `61.73 us`).
const nanos = (ns: number) => `${ns >= 1e3 ? ns.toFixed(0) : ns.toFixed(1)} ns`;

/**
 * The outcomes as a table (target, pairing, value, goal, the peer runtime's value, verdict), then every FAIL
 * with its floor and its gap in ns per op, every CAPPED with how far rafkit is from the floor that caps it,
 * and a closing `N PASS, N FAIL, N CAPPED, N n/a` line.
 */
export function formatTargets(outcomes: readonly TargetOutcome[]): string {
  const rows = outcomes.map(({ target: t, params, value, verdict, note, peer, cap }) => {
    const unit = t.kind === "ratio" ? "x" : ` ${t.unit}`;
    return [
      t.name,
      params,
      shown(value, unit),
      `${t.op} ${t.goal}${unit}`,
      peer !== undefined
        ? `${t.kind === "ratio" ? t.peer?.label : ""} ${shown(peer, "x")}`
        : cap !== undefined
          ? `${t.kind === "ratio" ? t.cap?.label : ""} ${shown(cap, "x")}`
          : "",
      note ? `${verdict} (${note})` : verdict,
    ];
  });
  const table = renderColumns(["Target", "Pairing", "Value", "Goal", "Peer", "Result"], rows, [
    "left",
    "left",
    "right",
    "right",
    "right",
    "left",
  ]);
  const where = (o: TargetOutcome) => `${o.target.name}${o.params ? ` (${o.params})` : ""}`;
  const floorSays = (o: TargetOutcome) =>
    o.cap === undefined || o.target.kind !== "ratio"
      ? ""
      : `; ${o.target.cap?.label} reaches ${shown(o.cap, "x")}`;
  const fails = outcomes
    .filter((o) => o.verdict === "FAIL")
    .map(
      (o) =>
        `FAIL ${where(o)}: ${o.target.text}; floor: ${o.target.floor}${floorSays(o)}; gap: ${nanos(o.gap ?? Number.NaN)}/op to cut`,
    );
  const capped = outcomes
    .filter((o) => o.verdict === "CAPPED")
    .map((o) => {
      const label = o.target.kind === "ratio" ? o.target.cap?.label : "";
      // rafkit's time over the floor's: rafkit is the numerator of a `<=` ratio, the denominator of a `>=` one.
      const over =
        o.target.op === "<=" ? o.value / (o.cap ?? Number.NaN) : (o.cap ?? Number.NaN) / o.value;
      return `CAPPED ${where(o)}: ${o.target.text}; even the ${label} reaches only ${shown(o.cap ?? Number.NaN, "x")} (goal ${o.target.op} ${o.target.goal}x), so no implementation of this shape meets it here; rafkit ${shown(o.value, "x")}, ${shown(over, "x")} the ${label}'s time`;
    });
  const count = (v: TargetOutcome["verdict"]) => outcomes.filter((o) => o.verdict === v).length;
  return [
    table,
    ...(fails.length ? ["", ...fails] : []),
    ...(capped.length ? ["", ...capped] : []),
    "",
    `${count("PASS")} PASS, ${count("FAIL")} FAIL, ${count("CAPPED")} CAPPED, ${count("n/a")} n/a`,
  ].join("\n");
}
