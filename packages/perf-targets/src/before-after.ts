import type { BenchmarkResult } from "@rafkit/bench";
import { renderColumns } from "./columns";
import {
  evaluateTargets,
  formatTargetValue,
  type TargetOutcome,
  targetBenchmarks,
} from "./evaluate";
import { TARGETS, type Target, type TargetGroup } from "./targets";

/** How a target moved from the base build to the current one. */
export type Movement = "better" | "same" | "worse beyond noise" | "n/a";

/** Where a row's noise threshold comes from. */
export type NoiseSource = "ci" | "floor" | "no ci";

/** One target for one pairing, evaluated on both builds. */
export interface BeforeAfterRow {
  /** The target. */
  target: Target;
  /** The pairing (method and free params), as `evaluateTargets` names it. */
  params: string;
  /** Its outcome on the base build (undefined when the base has no such pairing). */
  before?: TargetOutcome;
  /** Its outcome on the current build. */
  after?: TargetOutcome;
  /**
   * How many times better the current build is in the target's own direction (a ratio the goal wants low
   * went down, a rate went up): > 1 better, < 1 worse; NaN when either side is n/a.
   */
  change: number;
  /** The relative change beyond which a move counts (0.05 = 5%). */
  threshold: number;
  /** Where `threshold` comes from. */
  noise: NoiseSource;
  /** The verdict. */
  movement: Movement;
  /** Why n/a. */
  note?: string;
}

/** How wide "noise" is: a floor under the runs' own confidence intervals, and a width where they have none. */
export interface NoiseRule {
  /** The least relative change that counts, whatever the CIs say (default 0.05). */
  floor: number;
  /** The threshold where a score has no CI (2 iterations or fewer; default 0.10). */
  withoutCi: number;
}

/**
 * The default rule. The 99.9% CIs pool every iteration of every fork, so they miss most of the spread
 * between forks (each lays out its JIT code anew): ±0.05x at 1.25x on bits' sets (BENCHMARKS.md), hence the
 * 5% floor; without a CI, 10%, twice that.
 */
export const DEFAULT_NOISE: NoiseRule = { floor: 0.05, withoutCi: 0.1 };

/** Why the runs gave no result for a benchmark (`Suite.benchmark`): the harness's skip or failure reason. */
export type RunNotes = ReadonlyMap<string, string>;

/** Options of `compareTargets`. */
export interface CompareTargetsOptions {
  /** The noise rule (default `DEFAULT_NOISE`). */
  noise?: NoiseRule;
  /** Why the base run has no result for some benchmarks, to name in its n/a rows. */
  beforeNotes?: RunNotes;
  /** The same for the current run. */
  afterNotes?: RunNotes;
  /** The targets (default `TARGETS`). */
  targets?: readonly Target[];
}

/** The outcome `evaluateTargets` gives a target none of whose benchmarks has a result: n/a, no pairing. */
const isBlanket = (o: TargetOutcome) => o.verdict === "n/a" && o.params === "";

/**
 * The pairings of a target on both sides, the current build's order first, each with its two outcomes. A
 * side with no result at all for the target lends its one n/a outcome to every pairing of the other.
 */
function pairings(
  target: Target,
  before: readonly TargetOutcome[],
  after: readonly TargetOutcome[],
) {
  const b = before.filter((o) => o.target === target);
  const a = after.filter((o) => o.target === target);
  const lone = (list: TargetOutcome[]) =>
    list.length === 1 && isBlanket(list[0]!) ? list[0] : undefined;
  const loneB = lone(b);
  const loneA = lone(a);
  const params = [
    ...new Set(
      [...a, ...b]
        .filter(
          (o) =>
            !(o === loneA && b.length > 0 && !loneB) && !(o === loneB && a.length > 0 && !loneA),
        )
        .map((o) => o.params),
    ),
  ];
  return params.map((p) => ({
    params: p,
    before: b.find((o) => o.params === p) ?? loneB,
    after: a.find((o) => o.params === p) ?? loneA,
  }));
}

/** A target's change in its own direction: > 1 is better. */
function changeOf(target: Target, before: number, after: number): number {
  return target.op === "<=" ? before / after : after / before;
}

/** Why one side is n/a: the run's reasons for the target's benchmarks, else the outcome's own note. */
function whyNa(outcome: TargetOutcome | undefined, notes: RunNotes | undefined, target: Target) {
  const reasons = new Set<string>();
  for (const id of targetBenchmarks([target.group], [target])) {
    const reason = notes?.get(id);
    if (reason !== undefined) reasons.add(`${id}: ${reason}`);
  }
  if (reasons.size > 0) return [...reasons].join("; ");
  return outcome?.note ?? "no such pairing";
}

function judge(
  target: Target,
  before: TargetOutcome,
  after: TargetOutcome,
  rule: NoiseRule,
): Pick<BeforeAfterRow, "change" | "threshold" | "noise" | "movement"> {
  const change = changeOf(target, before.value, after.value);
  // Independent runs: their relative CI half-widths add in quadrature.
  const ci = Math.hypot(before.error ?? Number.NaN, after.error ?? Number.NaN);
  const [threshold, noise]: [number, NoiseSource] = Number.isNaN(ci)
    ? [rule.withoutCi, "no ci"]
    : ci > rule.floor
      ? [ci, "ci"]
      : [rule.floor, "floor"];
  // Symmetric in ratio: 1.1x better and 1.1x worse are the same distance from 1.
  const movement: Movement =
    change > 1 + threshold
      ? "better"
      : change < 1 / (1 + threshold)
        ? "worse beyond noise"
        : "same";
  return { change, threshold, noise, movement };
}

/**
 * Evaluates every target of `groups` on the base build's results and on the current build's, pairs the
 * outcomes (target and pairing), and judges each move against the noise rule: worse beyond noise when the
 * current build is worse in the target's direction by more than max(floor, the two values' 99.9% CIs
 * combined), or by more than `withoutCi` where a score has no CI. A side that is n/a makes the row n/a, with
 * the run's reason (e.g. the base's API lacks what the benchmark calls).
 */
export function compareTargets(
  before: readonly BenchmarkResult[],
  after: readonly BenchmarkResult[],
  groups: readonly TargetGroup[],
  options: CompareTargetsOptions = {},
): BeforeAfterRow[] {
  const rule = options.noise ?? DEFAULT_NOISE;
  const targets = options.targets ?? TARGETS;
  const b = evaluateTargets(before, groups, targets);
  const a = evaluateTargets(after, groups, targets);
  const rows: BeforeAfterRow[] = [];
  for (const target of targets) {
    if (!groups.includes(target.group)) continue;
    for (const { params, before: was, after: is } of pairings(target, b, a)) {
      const row = { target, params, ...(was ? { before: was } : {}), ...(is ? { after: is } : {}) };
      if (was && is && was.verdict !== "n/a" && is.verdict !== "n/a") {
        rows.push({ ...row, ...judge(target, was, is, rule) });
        continue;
      }
      const why = (side: string, o: TargetOutcome | undefined, notes: RunNotes | undefined) =>
        !o || o.verdict === "n/a" ? [`${side}: ${whyNa(o, notes, target)}`] : [];
      rows.push({
        ...row,
        change: Number.NaN,
        threshold: Number.NaN,
        noise: "no ci",
        movement: "n/a",
        note: [
          ...why("before", was, options.beforeNotes),
          ...why("after", is, options.afterNotes),
        ].join("; "),
      });
    }
  }
  return rows;
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/** A change as a signed percentage in the target's direction: `+4.1%` better, `-12.3%` worse. */
export function formatChange(change: number): string {
  if (Number.isNaN(change)) return "-";
  // Worse by the same distance as better: 1/1.1 shows as -10.0%, not -9.1%.
  const pct = change >= 1 ? change - 1 : -(1 / change - 1);
  return `${pct >= 0 ? "+" : ""}${percent(pct)}`;
}

const NOISE_LABEL: Record<NoiseSource, string> = { ci: "CI", floor: "floor", "no ci": "no CI" };

/** The noise rule in words, printed under every table. */
export function describeNoise(rule: NoiseRule = DEFAULT_NOISE): string {
  return (
    `change: how much better (+) or worse (-) the current build is, in each target's own direction. ` +
    `"worse beyond noise": worse by more than the noise, which is the two values' 99.9% confidence ` +
    `intervals combined (their relative half-widths in quadrature, each from its scores' scoreError), ` +
    `at least ${percent(rule.floor)} (floor: the CIs miss the spread between forks); ` +
    `${percent(rule.withoutCi)} where a score has no CI (2 iterations or fewer).`
  );
}

/** Counts of each movement: `N better, N same, N worse beyond noise, N n/a`. */
export function countMovements(rows: readonly BeforeAfterRow[]): string {
  const count = (m: Movement) => rows.filter((r) => r.movement === m).length;
  return `${count("better")} better, ${count("same")} same, ${count("worse beyond noise")} worse beyond noise, ${count("n/a")} n/a`;
}

function cells(r: BeforeAfterRow): string[] {
  const value = (o: TargetOutcome | undefined) =>
    o && o.verdict !== "n/a" ? formatTargetValue(r.target, o.value) : "n/a";
  return [
    r.target.name,
    r.params,
    value(r.before),
    value(r.after),
    formatChange(r.change),
    Number.isNaN(r.threshold) ? "-" : `±${percent(r.threshold)} (${NOISE_LABEL[r.noise]})`,
    r.note ? `${r.movement} (${r.note})` : r.movement,
  ];
}

const HEADER = ["Target", "Pairing", "Before", "After", "Change", "Noise", "Verdict"];

/** The rows as aligned text columns, the noise rule and the counts. */
export function formatBeforeAfter(rows: readonly BeforeAfterRow[], rule = DEFAULT_NOISE): string {
  const table = renderColumns(HEADER, rows.map(cells), [
    "left",
    "left",
    "right",
    "right",
    "right",
    "right",
    "left",
  ]);
  return [table, "", describeNoise(rule), "", countMovements(rows)].join("\n");
}

/** Escapes a markdown table cell. */
const md = (text: string) => text.replace(/\|/g, "\\|");

/**
 * The rows as a markdown table, headed by what was compared (`title`, e.g. the two builds and the
 * command), with the noise rule and the counts under it: for a changeset or a PR note.
 */
export function markdownBeforeAfter(
  rows: readonly BeforeAfterRow[],
  title: readonly string[],
  rule = DEFAULT_NOISE,
): string {
  const line = (c: readonly string[]) => `| ${c.map(md).join(" | ")} |`;
  return [
    ...title,
    ...(title.length ? [""] : []),
    line(HEADER),
    line(["---", "---", "---:", "---:", "---:", "---:", "---"]),
    ...rows.map((r) => line(cells(r))),
    "",
    describeNoise(rule),
    "",
    `**${countMovements(rows)}**`,
    "",
  ].join("\n");
}
