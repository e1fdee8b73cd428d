import { BenchError } from "../errors";
import type { BenchmarkResult } from "../result";
import { higherIsBetter, unitFactor } from "../units";
import { formatScore, paramNames, printable, renderColumns } from "./format";

/** How a candidate compares with its baseline. */
export type Verdict = "faster" | "slower" | "same" | "unknown";

/** One baseline/candidate pair. */
export interface ComparisonRow {
  /** Row label: the benchmark name, or `baseline vs candidate` names when they differ. */
  label: string;
  /** Shared parameter values. */
  params: Record<string, string>;
  /** Mode. */
  mode: string;
  /** Unit of every score in the row (the baseline's; the candidate is converted to it). */
  unit: string;
  /** The baseline record. */
  baseline: BenchmarkResult;
  /** The candidate record. */
  candidate: BenchmarkResult;
  /** Baseline score and error. */
  baseScore: number;
  baseError: number;
  /** Candidate score and error, in `unit`. */
  candidateScore: number;
  candidateError: number;
  /** candidate / baseline. */
  ratio: number;
  /** How many times better the candidate is (> 1) or worse (< 1), whatever the unit's direction. */
  speedup: number;
  /** Whether the 99.9% confidence intervals overlap; undefined when either error is unknown (NaN). */
  overlap: boolean | undefined;
  /** `same` when the intervals overlap; else `faster` or `slower`; `unknown` without intervals. */
  verdict: Verdict;
}

/** A comparison of two result sets. */
export interface Comparison {
  /** Display name of the baseline (file or benchmark). */
  baselineName: string;
  /** Display name of the candidate. */
  candidateName: string;
  /** Matched pairs. */
  rows: ComparisonRow[];
  /** Baseline records without a candidate, and vice versa. */
  unmatched: { baseline: BenchmarkResult[]; candidate: BenchmarkResult[] };
}

/** Options of `compareResults`. */
export interface CompareOptions {
  /**
   * Only this baseline benchmark (full name, or the part after the last dot); pairs by params then. Alone, it names
   * the candidate's benchmark too.
   */
  baseline?: string;
  /** Only this candidate benchmark; pairs by params then. Alone, it names the baseline's too. */
  candidate?: string;
  /** Names for the legend and header. */
  baselineName?: string;
  candidateName?: string;
}

const suiteOf = (name: string) => name.slice(0, Math.max(0, name.lastIndexOf(".")));

const matchesName = (r: BenchmarkResult, name: string) =>
  r.benchmark === name || r.benchmark.endsWith(`.${name}`);

const describeParams = (r: BenchmarkResult) =>
  Object.entries(r.params ?? {})
    .map(([k, v]) => `, ${k}=${v}`)
    .join("");

/** The results `name` selects: its exact matches if any (`S.a` is not also `T.S.a`), else those it ends. */
function named(list: readonly BenchmarkResult[], name: string): readonly BenchmarkResult[] {
  const exact = list.filter((r) => r.benchmark === name);
  return exact.length > 0 ? exact : list.filter((r) => matchesName(r, name));
}

const paramKey = (r: BenchmarkResult) =>
  JSON.stringify(Object.entries(r.params ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * Pairs baseline and candidate results and compares each pair. Without selectors, pairs share benchmark name,
 * mode and params (two files of the same suites); with `baseline`/`candidate` selectors, the two named
 * benchmarks are paired by mode and params (two benchmarks of one run).
 */
export function compareResults(
  baseline: readonly BenchmarkResult[],
  candidate: readonly BenchmarkResult[],
  options: CompareOptions = {},
): Comparison {
  const byName = options.baseline === undefined && options.candidate === undefined;
  // One side named: the same benchmark on the other side (`a.json#Sum.reduce` against `b.json`).
  const baseSel = options.baseline ?? options.candidate;
  const candSel = options.candidate ?? options.baseline;
  const base = baseSel === undefined ? baseline : named(baseline, baseSel);
  const cand = candSel === undefined ? candidate : named(candidate, candSel);
  for (const [side, sel, list] of [
    ["baseline", baseSel, base],
    ["candidate", candSel, cand],
  ] as const) {
    if (sel !== undefined && list.length === 0) {
      throw new BenchError(
        "ERR_BENCH_NO_MATCH",
        `no ${side} benchmark named ${JSON.stringify(sel)}`,
      );
    }
  }
  for (const [side, sel, list] of [
    ["baseline", baseSel, base],
    ["candidate", candSel, cand],
  ] as const) {
    const names = [...new Set(list.map((r) => r.benchmark))];
    if (sel !== undefined && names.length > 1) {
      throw new BenchError(
        "ERR_BENCH_AMBIGUOUS",
        `${side} ${JSON.stringify(sel)} names ${names.join(" and ")}: give the full name`,
      );
    }
  }
  const key = (r: BenchmarkResult) => `${byName ? r.benchmark : ""}|${r.mode}|${paramKey(r)}`;
  const once = (side: string, list: readonly BenchmarkResult[]) => {
    const byKey = new Map<string, BenchmarkResult>();
    for (const r of list) {
      if (byKey.has(key(r))) {
        throw new BenchError(
          "ERR_BENCH_AMBIGUOUS",
          `the ${side} holds two results of ${r.benchmark} (${r.mode}${describeParams(r)}): cannot tell which to compare`,
        );
      }
      byKey.set(key(r), r);
    }
    return byKey;
  };
  once("baseline", base);
  const candidates = once("candidate", cand);
  const rows: ComparisonRow[] = [];
  const unmatchedBase: BenchmarkResult[] = [];
  for (const b of base) {
    const c = candidates.get(key(b));
    if (!c) {
      unmatchedBase.push(b);
      continue;
    }
    candidates.delete(key(b));
    rows.push(compareOne(b, c));
  }
  return {
    baselineName: options.baselineName ?? options.baseline ?? "baseline",
    candidateName: options.candidateName ?? options.candidate ?? "candidate",
    rows,
    unmatched: { baseline: unmatchedBase, candidate: [...candidates.values()] },
  };
}

function compareOne(b: BenchmarkResult, c: BenchmarkResult): ComparisonRow {
  const unit = b.primaryMetric.scoreUnit;
  const factor = unitFactor(c.primaryMetric.scoreUnit, unit);
  if (factor === undefined) {
    throw new BenchError(
      "ERR_BENCH_BAD_OPTION",
      `cannot compare ${b.benchmark} in ${unit} with ${c.benchmark} in ${c.primaryMetric.scoreUnit}`,
    );
  }
  const baseScore = b.primaryMetric.score;
  const baseError = b.primaryMetric.scoreError;
  const candidateScore = c.primaryMetric.score * factor;
  const candidateError = c.primaryMetric.scoreError * factor;
  const ratio = candidateScore / baseScore;
  const speedup = higherIsBetter(unit) ? ratio : 1 / ratio;
  const known = Number.isFinite(baseError) && Number.isFinite(candidateError);
  const overlap = known
    ? baseScore - baseError <= candidateScore + candidateError &&
      candidateScore - candidateError <= baseScore + baseError
    : undefined;
  const verdict: Verdict =
    overlap === undefined ? "unknown" : overlap ? "same" : speedup > 1 ? "faster" : "slower";
  return {
    label:
      b.benchmark === c.benchmark
        ? b.benchmark
        : `${b.benchmark} vs ${suiteOf(c.benchmark) === suiteOf(b.benchmark) ? c.benchmark.slice(c.benchmark.lastIndexOf(".") + 1) : c.benchmark}`,
    params: b.params ?? {},
    mode: b.mode,
    unit,
    baseline: b,
    candidate: c,
    baseScore,
    baseError,
    candidateScore,
    candidateError,
    ratio,
    speedup,
    overlap,
    verdict,
  };
}

const withError = (score: number, error: number) =>
  Number.isFinite(error) ? `${formatScore(score)} ± ${formatScore(error)}` : formatScore(score);

/** Describes a row's outcome: `3.20x faster`, `1.10x slower`, or `~1.05x faster (CIs overlap)`. */
export function describeVerdict(row: ComparisonRow): string {
  // A score of 0 (or none) on one side has no ratio to give.
  if (!(Number.isFinite(row.speedup) && row.speedup > 0))
    return "no ratio (a score is 0 or not finite)";
  const times = row.speedup >= 1 ? row.speedup : 1 / row.speedup;
  const direction = row.speedup >= 1 ? "faster" : "slower";
  if (row.verdict === "same") return `~${times.toFixed(2)}x ${direction} (CIs overlap)`;
  if (row.verdict === "unknown") return `${times.toFixed(2)}x ${direction}? (no CI)`;
  return `${times.toFixed(2)}x ${direction}`;
}

/** A comparison as a text table, JMH-style columns plus Ratio (candidate/baseline) and the verdict. */
export function formatComparison(comparison: Comparison): string {
  const params = paramNames(comparison.rows);
  const header = [
    "Benchmark",
    ...params.map((p) => `(${p})`),
    "Mode",
    "Baseline",
    "Candidate",
    "Units",
    "Ratio",
    "Verdict",
  ];
  const rows = comparison.rows.map((r) => [
    r.label,
    ...params.map((p) => r.params[p] ?? ""),
    r.mode,
    withError(r.baseScore, r.baseError),
    withError(r.candidateScore, r.candidateError),
    r.unit,
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(3)}x` : "-",
    describeVerdict(r),
  ]);
  const align = [
    "left",
    ...params.map(() => "right" as const),
    "right",
    "right",
    "right",
    "left",
    "right",
    "left",
  ] as const;
  const lines = [
    `Baseline: ${printable(comparison.baselineName)}`,
    `Candidate: ${printable(comparison.candidateName)}`,
    "",
    renderColumns(header, rows, align),
  ];
  const { baseline, candidate } = comparison.unmatched;
  if (baseline.length + candidate.length > 0) {
    lines.push("");
    for (const r of baseline) lines.push(`only in baseline: ${r.benchmark} ${paramKey(r)}`);
    for (const r of candidate) lines.push(`only in candidate: ${r.benchmark} ${paramKey(r)}`);
  }
  return lines.join("\n");
}
