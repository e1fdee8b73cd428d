import type { BenchmarkResult } from "../result";
import { higherIsBetter } from "../units";
import type { Comparison } from "./compare";
import { describeVerdict } from "./compare";

/** Options of the chart renderers. */
export interface ChartOptions {
  /** Title at the top; default "Benchmark results" or "baseline vs candidate". */
  title?: string;
  /** Width in pixels (default 960). */
  width?: number;
}

interface Bar {
  score: number;
  error: number;
  color: string;
}

interface Row {
  label: string;
  bars: Bar[];
  note?: string;
  noteColor?: string;
  /** Rows of one group (same params) sit together; groups are spaced apart. */
  group?: string;
}

interface Panel {
  title: string;
  unit: string;
  rows: Row[];
  /** Colour key of this panel's bars. */
  legend?: LegendItem[];
}

interface LegendItem {
  name: string;
  color: string;
}

const COLORS = { baseline: "#9aa5b1", candidate: "#f58518" } as const;
/** One colour per benchmark method (Tableau 10, readable for most colour-blind viewers). */
const PALETTE = [
  "#4c78a8",
  "#f58518",
  "#54a24b",
  "#e45756",
  "#72b7b2",
  "#b279a2",
  "#eeca3b",
  "#9d755d",
  "#ff9da6",
  "#bab0ac",
];
const VERDICT_COLORS = {
  faster: "#2e7d32",
  slower: "#c62828",
  same: "#555",
  unknown: "#555",
} as const;
const FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\"";

/** Characters XML 1.0 cannot hold, even escaped: C0 controls but tab and newlines, lone surrogates, U+FFFE/U+FFFF. */
const NOT_XML = new RegExp(
  [
    "[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff]",
    "[\\ud800-\\udbff](?![\\udc00-\\udfff])",
    "(?<![\\ud800-\\udbff])[\\udc00-\\udfff]",
  ].join("|"),
  "g",
);

/**
 * Escapes text for SVG content and attributes. Characters XML cannot hold at all (control characters, lone
 * surrogates, U+FFFE/U+FFFF) become U+FFFD.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, "\ufffd").replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A round axis step giving about `target` ticks up to `max`. */
function niceStep(max: number, target = 5): number {
  if (!(max > 0)) return 1;
  const raw = max / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5]) if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

function tickLabel(value: number, step: number): string {
  if (value === 0) return "0";
  // Very large or very small ticks in exponent form, with the digits that tell them apart (1.25e-6, 5e-7).
  if (Math.abs(value) >= 1e6 || step < 1e-4) return Number(value.toPrecision(4)).toExponential();
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + (step % 1 === 0 ? 0 : 1));
  return value.toFixed(decimals);
}

function compact(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1e5 || (abs > 0 && abs < 1e-3)) return value.toExponential(2);
  return value.toPrecision(abs >= 1 ? Math.max(3, Math.floor(Math.log10(abs)) + 1) : 3);
}

function paramText(params: Record<string, string> | undefined): string {
  return Object.entries(params ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
}

function rowLabel(r: BenchmarkResult, suite: string): string {
  const name = r.benchmark.startsWith(`${suite}.`)
    ? r.benchmark.slice(suite.length + 1)
    : r.benchmark;
  const params = paramText(r.params);
  return params ? `${name} (${params})` : name;
}

const suiteOf = (name: string) =>
  name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : name;

/** Groups rows into panels, one per suite and unit, each with its own scale. */
function panelsOf<T>(
  items: readonly T[],
  suite: (t: T) => string,
  unit: (t: T) => string,
  row: (t: T, s: string) => Row,
): Panel[] {
  const panels = new Map<string, Panel>();
  for (const item of items) {
    const s = suite(item);
    const u = unit(item);
    const key = `${s}\u0000${u}`;
    let panel = panels.get(key);
    if (!panel) {
      panel = { title: s, unit: u, rows: [] };
      panels.set(key, panel);
    }
    panel.rows.push(row(item, s));
  }
  return [...panels.values()];
}

/**
 * Splits a panel into one panel per parameter combination when their scores differ by more than 20x
 * (1 KiB against 1 MiB, say), since on one linear axis the small ones would be invisible.
 */
function splitByMagnitude(panels: Panel[]): Panel[] {
  return panels.flatMap((panel) => {
    const groups = [...new Set(panel.rows.map((r) => r.group ?? ""))];
    if (groups.length < 2) return [panel];
    const peak = (g: string) =>
      Math.max(
        0,
        ...panel.rows
          .filter((r) => (r.group ?? "") === g)
          .flatMap((r) => r.bars.map((b) => b.score))
          .filter(Number.isFinite),
      );
    const peaks = groups.map(peak);
    if (!(Math.max(...peaks) / Math.min(...peaks) > 20)) return [panel];
    return groups.map((g) => ({
      ...panel,
      title: `${panel.title} (${g})`,
      rows: panel.rows.filter((r) => (r.group ?? "") === g),
    }));
  });
}

/** Draws legend items left to right, wrapping at the chart's width; returns the y below them. */
function drawLegend(
  out: string[],
  items: readonly LegendItem[],
  top: number,
  width: number,
  charWidth: number,
): number {
  if (items.length === 0) return top;
  let x = 16;
  let y = top + 14;
  for (const item of items) {
    const w = 18 + item.name.length * charWidth + 24;
    if (x > 16 && x + w > width - 16) {
      x = 16;
      y += 18;
    }
    out.push(`<rect x="${x}" y="${y - 10}" width="12" height="12" rx="2" fill="${item.color}"/>`);
    out.push(
      `<text x="${x + 18}" y="${y}" font-size="12" fill="#222">${escapeXml(item.name)}</text>`,
    );
    x += w;
  }
  return y + 10;
}

function render(panels: Panel[], title: string, legend: LegendItem[], width: number): string {
  const barHeight = 16;
  const barGap = 3;
  const rowGap = 10;
  const charWidth = 6.6;
  const labelWidth = Math.min(
    width * 0.45,
    Math.max(120, ...panels.flatMap((p) => p.rows.map((r) => r.label.length * charWidth + 16))),
  );
  const noteWidth =
    Math.max(0, ...panels.flatMap((p) => p.rows.map((r) => (r.note?.length ?? 0) * charWidth))) +
    (panels.some((p) => p.rows.some((r) => r.note)) ? 16 : 0);
  const valueWidth = 130;
  const plotLeft = labelWidth;
  const plotWidth = Math.max(200, width - labelWidth - valueWidth - noteWidth - 20);
  const out: string[] = [];
  let y = 40;
  out.push(
    `<text x="${width / 2}" y="26" text-anchor="middle" font-size="18" font-weight="600" fill="#111">${escapeXml(title)}</text>`,
  );
  y = drawLegend(out, legend, y, width, charWidth);
  for (const panel of panels) {
    const direction = higherIsBetter(panel.unit) ? "higher is better" : "lower is better";
    y += 10;
    out.push(
      `<text x="16" y="${y + 12}" font-size="14" font-weight="600" fill="#111">${escapeXml(panel.title)} <tspan font-weight="400" fill="#555">(${escapeXml(panel.unit)}, ${direction}; error bars: 99.9% CI)</tspan></text>`,
    );
    y += 24;
    if (panel.legend && panel.legend.length > 1)
      y = drawLegend(out, panel.legend, y - 6, width, charWidth) + 8;
    // Scale to the scores, and to the error bars unless they would squash the bars: whiskers longer than
    // twice the largest score are clipped at the edge with an arrowhead (the label keeps the full value).
    // Scores that are not finite (NaN, an infinite bandwidth) get no bar, only their label, and no say in the scale.
    const finite = panel.rows.flatMap((r) => r.bars.filter((b) => Number.isFinite(b.score)));
    const maxScore = Math.max(0, ...finite.map((b) => b.score));
    const maxReach = Math.max(
      0,
      ...finite.map((b) => b.score + (Number.isFinite(b.error) ? b.error : 0)),
    );
    const max = Math.max(maxScore * 1.1, Math.min(maxReach, maxScore * 2));
    const step = niceStep(max);
    const axisMax = Math.max(step, Math.ceil(max / step) * step);
    const scale = (v: number) => plotLeft + (Math.max(0, v) / axisMax) * plotWidth;
    const top = y;
    const heights = panel.rows.map(
      (r, i) =>
        r.bars.length * (barHeight + barGap) -
        barGap +
        rowGap +
        (r.group !== undefined &&
        panel.rows[i + 1] !== undefined &&
        panel.rows[i + 1]!.group !== r.group
          ? 8
          : 0),
    );
    const bottom = top + heights.reduce((a, b) => a + b, 0);
    for (let t = 0; t <= axisMax + step / 1e6; t += step) {
      const x = scale(t);
      out.push(
        `<line x1="${x.toFixed(1)}" y1="${top - 4}" x2="${x.toFixed(1)}" y2="${bottom}" stroke="${t === 0 ? "#888" : "#e3e3e3"}" stroke-width="1"/>`,
      );
      out.push(
        `<text x="${x.toFixed(1)}" y="${bottom + 14}" text-anchor="middle" font-size="11" fill="#555">${escapeXml(tickLabel(t, step))}</text>`,
      );
    }
    out.push(
      `<text x="${plotLeft + plotWidth / 2}" y="${bottom + 30}" text-anchor="middle" font-size="11" fill="#555">${escapeXml(panel.unit)}</text>`,
    );
    let ry = top;
    for (const [i, row] of panel.rows.entries()) {
      const h = row.bars.length * (barHeight + barGap) - barGap;
      out.push(
        `<text x="${plotLeft - 8}" y="${(ry + h / 2 + 4).toFixed(1)}" text-anchor="end" font-size="12" fill="#222">${escapeXml(row.label)}</text>`,
      );
      let by = ry;
      for (const bar of row.bars) {
        const x0 = scale(0);
        const drawn = Number.isFinite(bar.score);
        const x1 = drawn ? scale(bar.score) : x0;
        if (drawn) {
          out.push(
            `<rect x="${x0.toFixed(1)}" y="${by}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${barHeight}" rx="2" fill="${bar.color}"/>`,
          );
        }
        const hasError = drawn && Number.isFinite(bar.error) && bar.error > 0;
        if (hasError) {
          const e0 = scale(bar.score - bar.error);
          const clipped = bar.score + bar.error > axisMax;
          const e1 = scale(Math.min(bar.score + bar.error, axisMax));
          const cy = by + barHeight / 2;
          const end = clipped
            ? `M${(e1 - 6).toFixed(1)} ${cy - 4}L${e1.toFixed(1)} ${cy}L${(e1 - 6).toFixed(1)} ${cy + 4}`
            : `M${e1.toFixed(1)} ${cy - 5}V${cy + 5}`;
          out.push(
            `<path d="M${e0.toFixed(1)} ${cy}H${e1.toFixed(1)}M${e0.toFixed(1)} ${cy - 5}V${cy + 5}${end}" stroke="#222" stroke-width="1.3" fill="none"/>`,
          );
        }
        const reach = hasError ? scale(Math.min(bar.score + bar.error, axisMax)) : x1;
        const labelX = Math.max(x1, reach) + 6;
        const text = hasError
          ? `${compact(bar.score)} ± ${compact(bar.error)}`
          : compact(bar.score);
        out.push(
          `<text x="${labelX.toFixed(1)}" y="${by + barHeight - 4}" font-size="11" fill="#333">${escapeXml(text)}</text>`,
        );
        by += barHeight + barGap;
      }
      if (row.note) {
        out.push(
          `<text x="${width - 12}" y="${(ry + h / 2 + 4).toFixed(1)}" text-anchor="end" font-size="12" font-weight="600" fill="${row.noteColor ?? "#222"}">${escapeXml(row.note)}</text>`,
        );
      }
      ry += heights[i]!;
    }
    y = bottom + 44;
  }
  const height = y;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}" ${FONT}>`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...out,
    `</svg>`,
    "",
  ].join("\n");
}

/**
 * A horizontal bar chart of a run: one panel per suite and unit (each with its own linear scale, so a 1 ns
 * getter and a 1 MiB decode are both readable), one bar per result with its 99.9% confidence interval as
 * an error bar and the score written beside it.
 */
export function renderChart(
  results: readonly BenchmarkResult[],
  options: ChartOptions = {},
): string {
  const method = (r: BenchmarkResult) => r.benchmark.slice(r.benchmark.lastIndexOf(".") + 1);
  // Secondary metrics (such as ·bandwidth) get panels of their own after the primary ones.
  const items = [
    ...results.map((r) => ({ r, metric: r.primaryMetric, suite: suiteOf(r.benchmark) })),
    ...results.flatMap((r) =>
      Object.entries(r.secondaryMetrics ?? {}).map(([name, metric]) => ({
        r,
        metric,
        suite: `${suiteOf(r.benchmark)} ${name}`,
      })),
    ),
  ];
  const panels = panelsOf(
    items,
    (i) => i.suite,
    (i) => i.metric.scoreUnit,
    (i) => ({
      label: rowLabel(i.r, suiteOf(i.r.benchmark)),
      bars: [{ score: i.metric.score, error: i.metric.scoreError, color: method(i.r) }],
      group: paramText(i.r.params),
    }),
  );
  for (const panel of panels) {
    // One colour per benchmark method within the panel, keyed by a legend.
    const methods = [...new Set(panel.rows.map((r) => r.bars[0]!.color))];
    panel.legend = methods.map((name, i) => ({ name, color: PALETTE[i % PALETTE.length]! }));
    for (const row of panel.rows)
      for (const bar of row.bars) bar.color = PALETTE[methods.indexOf(bar.color) % PALETTE.length]!;
    // Put the implementations of one parameter combination next to each other (stable within a group).
    const order = [...new Set(panel.rows.map((r) => r.group))];
    panel.rows.sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
  }
  return render(
    splitByMagnitude(panels),
    options.title ?? "Benchmark results",
    [],
    options.width ?? 960,
  );
}

/**
 * A grouped bar chart of a comparison, like the before/after charts of the JDK reviews: per pair a baseline
 * and a candidate bar with error bars, a legend, and the verdict at the right.
 */
export function renderComparisonChart(comparison: Comparison, options: ChartOptions = {}): string {
  const panels = panelsOf(
    comparison.rows,
    (r) => suiteOf(r.baseline.benchmark),
    (r) => r.unit,
    (r, s) => ({
      // Two benchmarks of one run: the legend names them, so the row needs only its params.
      label:
        r.label.includes(" vs ") && paramText(r.params)
          ? paramText(r.params)
          : rowLabel({ ...r.baseline, benchmark: r.label }, s),
      noteColor: VERDICT_COLORS[r.verdict],
      group: paramText(r.params),
      bars: [
        { score: r.baseScore, error: r.baseError, color: COLORS.baseline },
        { score: r.candidateScore, error: r.candidateError, color: COLORS.candidate },
      ],
      note: describeVerdict(r),
    }),
  );
  const legend = [
    { name: `baseline: ${comparison.baselineName}`, color: COLORS.baseline },
    { name: `candidate: ${comparison.candidateName}`, color: COLORS.candidate },
  ];
  return render(
    splitByMagnitude(panels),
    options.title ?? `${comparison.baselineName} vs ${comparison.candidateName}`,
    legend,
    options.width ?? 960,
  );
}
