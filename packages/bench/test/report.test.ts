import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../src/options";
import { compareResults, formatComparison } from "../src/report/compare";
import { parseJmhJson, toJmhJson } from "../src/report/jmh-json";
import { escapeXml, renderChart, renderComparisonChart } from "../src/report/svg";
import { formatTable } from "../src/report/text";
import { type BenchmarkResult, buildResult } from "../src/result";

const options = (over: Parameters<typeof resolveOptions>[0] = {}) =>
  resolveOptions(
    { forks: 2, warmup: { iterations: 1, time: 100 }, measurement: { iterations: 3, time: 100 } },
    over,
  );

const read = (kb: number, raw: number[][], over = {}) =>
  buildResult("RandomAccessFileBenchmark.readInt", { kiloBytes: kb }, options(over), raw);

/** A checker for XML well-formedness: balanced tags, quoted attributes, only escaped & and < in text. */
function assertWellFormed(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = token.exec(body)) !== null) {
    end = token.lastIndex;
    const [, close, name, , selfClose, text] = m;
    if (text !== undefined) {
      expect(text).not.toMatch(/&(?!#\d+;|amp;|lt;|gt;|quot;|apos;)/);
      continue;
    }
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClose) stack.push(name!);
  }
  expect(end).toBe(body.length);
  expect(stack).toEqual([]);
}

describe("JMH JSON", () => {
  const results = [
    read(
      1,
      [
        [10, 11, 12],
        [11, 12, 13],
      ],
      { bytesPerOperation: 1024 },
    ),
    read(5, [[50], [52]]),
  ];

  it("writes JMH's record shape, keys in JMH's order, NaN as a string", () => {
    const parsed = JSON.parse(toJmhJson(results));
    expect(Object.keys(parsed[0])).toEqual([
      "jmhVersion",
      "benchmark",
      "mode",
      "threads",
      "forks",
      "jvm",
      "jvmArgs",
      "jdkVersion",
      "vmName",
      "vmVersion",
      "warmupIterations",
      "warmupTime",
      "warmupBatchSize",
      "measurementIterations",
      "measurementTime",
      "measurementBatchSize",
      "params",
      "primaryMetric",
      "secondaryMetrics",
    ]);
    expect(Object.keys(parsed[0].primaryMetric)).toEqual([
      "score",
      "scoreError",
      "scoreConfidence",
      "scorePercentiles",
      "scoreUnit",
      "rawData",
    ]);
    expect(parsed[0]).toMatchObject({
      benchmark: "RandomAccessFileBenchmark.readInt",
      mode: "avgt",
      threads: 1,
      forks: 2,
      warmupTime: "100 ms",
      params: { kiloBytes: "1" },
      primaryMetric: {
        score: 11.5,
        scoreUnit: "us/op",
        rawData: [
          [10, 11, 12],
          [11, 12, 13],
        ],
      },
    });
    expect(Object.keys(parsed[0].primaryMetric.scorePercentiles)).toEqual([
      "0.0",
      "50.0",
      "90.0",
      "95.0",
      "99.0",
      "99.9",
      "99.99",
      "99.999",
      "99.9999",
      "100.0",
    ]);
    // 1 KiB per op at 11.5 us/op is 1024 / 11500 bytes per ns, i.e. GB/s.
    expect(parsed[0].secondaryMetrics["·bandwidth"].scoreUnit).toBe("GB/s");
    expect(parsed[0].secondaryMetrics["·bandwidth"].rawData[0][0]).toBeCloseTo(1024 / 10_000, 12);
    expect(parsed[1].primaryMetric.scoreError).toBe("NaN"); // n = 2
    expect(parsed[1].primaryMetric.scoreConfidence).toEqual(["NaN", "NaN"]);
  });

  it("round-trips", () => {
    expect(parseJmhJson(toJmhJson(results))).toEqual(results);
  });

  it("spells infinities as JMH's JSON writer does (+INF, -INF) and reads them back", () => {
    // A throughput score from an iteration the clock measured as 0 ns is +Infinity.
    const infinite = buildResult("A.b", {}, options({ mode: "thrpt" }), [
      [Number.POSITIVE_INFINITY, 1, 2],
    ]);
    infinite.primaryMetric.scorePercentiles["0.0"] = Number.NEGATIVE_INFINITY;
    const text = toJmhJson([infinite]);
    const parsed = JSON.parse(text);
    expect(parsed[0].primaryMetric.score).toBe("+INF");
    expect(parsed[0].primaryMetric.rawData[0][0]).toBe("+INF");
    expect(parsed[0].primaryMetric.scorePercentiles["0.0"]).toBe("-INF");
    expect(text).not.toMatch(/Infinity/);
    const [back] = parseJmhJson(text);
    expect(back!.primaryMetric.score).toBe(Number.POSITIVE_INFINITY);
    expect(back!.primaryMetric.scorePercentiles["0.0"]).toBe(Number.NEGATIVE_INFINITY);
    // Files written before the fix spelt them as JavaScript does.
    const [old] = parseJmhJson(
      '[{"benchmark":"A.b","mode":"thrpt","primaryMetric":{"score":"Infinity","scoreError":"-Infinity","scoreUnit":"ops/us","rawData":[["Infinity"]]}}]',
    );
    expect(old!.primaryMetric.score).toBe(Number.POSITIVE_INFINITY);
    expect(old!.primaryMetric.scoreError).toBe(Number.NEGATIVE_INFINITY);
  });

  it("reads a file in the formatting JMH writes (spaces before colons, NaN strings)", () => {
    const [r] = parseJmhJson(
      readFileSync(new URL("./fixtures/jmh-sample.json", import.meta.url), "utf8"),
    );
    expect(r!.benchmark).toBe("org.openjdk.bench.java.io.RandomAccessFileBenchmark.readInt");
    expect(r!.primaryMetric.scoreError).toBeNaN();
    expect(r!.params).toEqual({ kiloBytes: "1" });
    expect(r!.jvmArgs).toEqual(["-Xms1g"]);
  });

  it.each([
    ["{", /invalid JSON/],
    ["{}", /top level should be an array/],
    ["[1]", /\[0\] should be an object/],
    ['[{"benchmark": 1}]', /\[0\]\.benchmark should be a string/],
    [
      '[{"benchmark": "a", "mode": "avgt", "primaryMetric": {"score": "x"}}]',
      /primaryMetric\.score should be a number/,
    ],
    [
      '[{"benchmark": "a", "mode": "avgt", "primaryMetric": {"score": 1, "scoreUnit": "us/op", "rawData": [1]}}]',
      /rawData should be an array of arrays/,
    ],
  ])("rejects %s", (text, message) => {
    expect(() => parseJmhJson(text)).toThrow(message);
    expect(() => parseJmhJson(text)).toThrow(
      expect.objectContaining({ code: "ERR_BENCH_BAD_JSON" }),
    );
  });
});

describe("text table", () => {
  it("lays results out as JMH does, with a blank error when there is none", () => {
    const table = formatTable([read(1, [[1060.5, 1061, 1061.5]]), read(5, [[5745.5], [5745.9]])]);
    const lines = table.split("\n");
    expect(lines[0]).toMatch(/^Benchmark\s+\(kiloBytes\) {2}Mode {2}Cnt\s+Score\s+Error {2}Units$/);
    expect(lines[1]).toMatch(
      /^RandomAccessFileBenchmark\.readInt\s+1 {2}avgt {4}3 {2}1061\.000 ± \d+\.\d{3} {2}us\/op$/,
    );
    expect(lines[2]).toMatch(
      /^RandomAccessFileBenchmark\.readInt\s+5 {2}avgt {4}2 {2}5745\.700\s+us\/op$/,
    );
    // Columns line up: every row as long as the header, the score's last digit under "Score".
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[1]!.indexOf("1061.000") + "1061.000".length).toBe(lines[0]!.indexOf("Score") + 5);
  });

  it("adds a row per secondary metric", () => {
    const table = formatTable([read(1, [[10, 11, 12]], { bytesPerOperation: 1 << 20 })]);
    expect(table).toMatch(/readInt:·bandwidth\s+1\s+avgt\s+3\s+[\d.]+ ± [\d.]+\s+GB\/s/);
  });
});

describe("compare", () => {
  const result = (
    benchmark: string,
    raw: number[][],
    unit: "ns" | "us" = "us",
    mode: "avgt" | "thrpt" = "avgt",
  ) => buildResult(benchmark, { kiloBytes: 1 }, options({ unit, mode }), raw);

  it("pairs by name and params, converts units, and judges by CI overlap", () => {
    const base = [
      result("S.a", [[100, 101, 99]]),
      result("S.b", [[100, 130, 70]]),
      result("S.onlyBase", [[1, 1, 1]]),
    ];
    const cand = [result("S.a", [[50_000, 50_500, 49_500]], "ns"), result("S.b", [[95, 125, 65]])];
    const c = compareResults(base, cand);
    expect(c.rows.map((r) => [r.label, r.verdict])).toEqual([
      ["S.a", "faster"],
      ["S.b", "same"],
    ]);
    expect(c.rows[0]!.candidateScore).toBeCloseTo(50, 10); // ns converted to the baseline's us
    expect(c.rows[0]!.ratio).toBeCloseTo(0.5, 10);
    expect(c.rows[0]!.speedup).toBeCloseTo(2, 10);
    expect(c.unmatched.baseline.map((r) => r.benchmark)).toEqual(["S.onlyBase"]);
    expect(formatComparison(c)).toMatch(
      /S\.a\s+1\s+avgt\s+100\.000 ± [\d.]+\s+50\.000 ± [\d.]+\s+us\/op\s+0\.500x\s+2\.00x faster/,
    );
    expect(formatComparison(c)).toContain("only in baseline: S.onlyBase");
  });

  it("knows that more is better in throughput mode, and says when it cannot tell", () => {
    const c = compareResults(
      [result("S.t", [[10, 10.1, 9.9]], "us", "thrpt")],
      [result("S.t", [[5, 5.1, 4.9]], "us", "thrpt")],
    );
    expect(c.rows[0]!.verdict).toBe("slower");
    const nan = compareResults([result("S.t", [[10], [11]])], [result("S.t", [[5], [6]])]);
    expect(nan.rows[0]!.overlap).toBeUndefined();
    expect(formatComparison(nan)).toContain("faster? (no CI)");
  });

  it("pairs two benchmarks of one run by params", () => {
    const run = [result("S.a", [[2, 2, 2]]), result("S.b", [[1, 1, 1]])];
    const c = compareResults(run, run, { baseline: "a", candidate: "S.b" });
    expect(c.rows).toHaveLength(1);
    expect(c.rows[0]!.label).toBe("S.a vs b");
    expect(() => compareResults(run, run, { baseline: "zzz" })).toThrow(
      /no baseline benchmark named "zzz"/,
    );
  });

  it("refuses to compare time with throughput", () => {
    expect(() =>
      compareResults([result("S.a", [[1, 1, 1]])], [result("S.a", [[1, 1, 1]], "us", "thrpt")]),
    ).not.toThrow();
    const t = result("S.a", [[1, 1, 1]]);
    const thr = { ...result("S.a", [[1, 1, 1]], "us", "thrpt"), mode: "avgt" };
    expect(() => compareResults([t], [thr])).toThrow(/cannot compare/);
  });
});

describe("SVG charts", () => {
  const results: BenchmarkResult[] = [
    read(1, [[400, 420, 410]]),
    read(5, [[2100, 2150, 2120]]),
    { ...read(1, [[1, 2, 3]]), benchmark: "Other<&>.x\"'" },
  ];

  it("renders a well-formed run chart with error bars, units and one panel per suite", () => {
    const svg = renderChart(results, { title: "a < b & c" });
    assertWellFormed(svg);
    expect(svg).toContain("<title>a &#60; b &#38; c</title>");
    expect(svg).toContain("RandomAccessFileBenchmark");
    expect(svg).toContain("us/op, lower is better");
    expect(svg).toContain("readInt (kiloBytes=5)");
    expect(svg.match(/<path d="M/g)).toHaveLength(3); // one error bar per result
  });

  it("renders a well-formed comparison chart with a legend and verdicts", () => {
    const c = compareResults(
      results,
      results.map((r) => ({
        ...r,
        primaryMetric: { ...r.primaryMetric, score: r.primaryMetric.score / 3 },
      })),
      {
        baselineName: "before",
        candidateName: "after",
      },
    );
    const svg = renderComparisonChart(c);
    assertWellFormed(svg);
    expect(svg).toContain("baseline: before");
    expect(svg).toContain("candidate: after");
    expect(svg).toContain("3.00x faster");
  });

  it("splits a panel whose parameter combinations differ by more than 20x, and charts secondary metrics", () => {
    const spread = [
      read(1, [[10, 11, 12]], { bytesPerOperation: 1024 }),
      read(5, [[1000, 1100, 1200]], { bytesPerOperation: 5120 }),
    ];
    const svg = renderChart(spread);
    assertWellFormed(svg);
    expect(svg).toContain(">RandomAccessFileBenchmark (kiloBytes=1) <tspan");
    expect(svg).toContain(">RandomAccessFileBenchmark (kiloBytes=5) <tspan");
    expect(svg).toContain("RandomAccessFileBenchmark ·bandwidth <tspan");
    expect(svg).toContain("GB/s, higher is better");
    const close = renderChart([read(1, [[10, 11, 12]]), read(5, [[50, 51, 52]])]);
    expect(close).toContain(">RandomAccessFileBenchmark <tspan");
    const cmp = renderComparisonChart(compareResults(spread, spread));
    assertWellFormed(cmp);
    expect(cmp).toContain(">RandomAccessFileBenchmark (kiloBytes=5) <tspan");
  });

  it("colours each benchmark of a panel and wraps a long legend", () => {
    const names = Array.from({ length: 12 }, (_, i) => `aRatherLongBenchmarkName${i}`);
    const many = names.map((n, i) => ({
      ...read(1, [[10 + i, 11 + i, 12 + i]]),
      benchmark: `Wide.${n}`,
    }));
    const svg = renderChart(many);
    assertWellFormed(svg);
    const swatches = [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="12"/g)];
    expect(swatches).toHaveLength(12);
    expect(new Set(swatches.map((m) => m[2])).size).toBeGreaterThan(1); // more than one legend line
    expect(Math.max(...swatches.map((m) => Number(m[1])))).toBeLessThan(960);
    expect(
      new Set(
        [
          ...svg.matchAll(
            /<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="16" rx="2" fill="(#[0-9a-f]+)"/g,
          ),
        ].map((m) => m[1]),
      ).size,
    ).toBe(10);
  });

  it("escapes every XML special character", () => {
    expect(escapeXml(`<a href="x">&'`)).toBe("&#60;a href=&#34;x&#34;&#62;&#38;&#39;");
  });
});
