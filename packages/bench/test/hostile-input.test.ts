import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeIteration, resolveOptions } from "../src/options";
import { compareResults, formatComparison } from "../src/report/compare";
import { toJmhJson } from "../src/report/jmh-json";
import { escapeXml, renderChart, renderComparisonChart } from "../src/report/svg";
import { buildResult } from "../src/result";
import { planBenchmarks, runBenchmarks } from "../src/run";
import { fitBatch } from "../src/runner";
import { defineSuite } from "../src/suite";
import { higherIsBetter, unitFactor } from "../src/units";
import { runCli } from "./run-cli";

// Inputs an adversarial review found mishandled: each test fails on the code before its fix.

const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (over: Parameters<typeof resolveOptions>[1] = {}) =>
  resolveOptions({ forks: 1, measurement: { iterations: 3, time: 100 } }, over);
const result = (benchmark: string, scores: number[], params = { size: 100 }, over = {}) =>
  buildResult(benchmark, params, options(over), [scores]);

describe("planning refuses what it could not report apart", () => {
  it("two suites of one name (a fork finds its suite by name)", () => {
    const a = defineSuite({ name: "Dup", benchmarks: { x: () => 1 } });
    const b = defineSuite({ name: "Dup", benchmarks: { x: () => 2 } });
    expect(() => planBenchmarks([a, b])).toThrow(
      expect.objectContaining({
        code: "ERR_BENCH_BAD_SUITE",
        message: expect.stringMatching(/Dup/),
      }),
    );
  });

  it("param values a fork's JSON cannot carry (NaN, Infinity), declared or given", () => {
    const bad = defineSuite({
      name: "Inf",
      params: { x: [1, Infinity] },
      benchmarks: { a: () => 1 },
    });
    expect(() => planBenchmarks([bad])).toThrow(
      expect.objectContaining({ code: "ERR_BENCH_BAD_SUITE" }),
    );
    const ok = defineSuite({ name: "Num", params: { x: [1, 2] }, benchmarks: { a: () => 1 } });
    for (const text of ["Infinity", "NaN", "-Infinity"]) {
      expect(() => planBenchmarks([ok], { params: { x: [text] } })).toThrow(
        expect.objectContaining({ code: "ERR_BENCH_BAD_PARAM" }),
      );
    }
  });

  it("a param override named after an Object.prototype member", () => {
    const s = defineSuite({ name: "P", params: { n: [1] }, benchmarks: { a: () => 1 } });
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
      const params = Object.fromEntries([[name, ["1"]]]);
      expect(() => planBenchmarks([s], { params })).toThrow(
        expect.objectContaining({
          code: "ERR_BENCH_BAD_PARAM",
          message: expect.stringContaining(name),
        }),
      );
    }
  });

  it("a filter RegExp with the g or y flag selects every matching benchmark", () => {
    const s = defineSuite({
      name: "S",
      benchmarks: { a: () => 1, b: () => 2, c: () => 3, d: () => 4 },
    });
    for (const filter of [/S\./g, /S\./y, /S\./gy]) {
      expect(planBenchmarks([s], { filter }).map((p) => p.id)).toEqual([
        "S.a",
        "S.b",
        "S.c",
        "S.d",
      ]);
    }
  });
});

describe("a probe that throws fails its own benchmark only", () => {
  it("unavailable() and external.command() that throw become failures; the others run", async () => {
    const s = defineSuite({
      name: "Probe",
      options: {
        forks: 0,
        warmup: { iterations: 0 },
        measurement: { iterations: 1, invocations: 10 },
      },
      benchmarks: {
        a: {
          run: () => 1,
          unavailable: () => {
            throw new Error("probe crashed");
          },
        },
        b: () => 2,
        c: {
          external: {
            command: () => {
              throw new Error("no source file");
            },
          },
        },
      },
    });
    for (const interleave of [false, true]) {
      const report = await runBenchmarks([s], { interleave });
      expect(report.results.map((r) => r.benchmark)).toEqual(["Probe.b"]);
      expect(report.failures.map((f) => [f.benchmark, f.error.message])).toEqual([
        ["Probe.a", expect.stringContaining("probe crashed")],
        ["Probe.c", expect.stringContaining("no source file")],
      ]);
    }
  });
});

describe("compare pairs only what it can tell apart", () => {
  const file = [
    result("Sum.reduce", [10, 10, 10]),
    result("Sum.forLoop", [5, 5, 5]),
    result("Product.reduce", [1000, 1000, 1000]),
    result("Product.forLoop", [500, 500, 500]),
  ];

  it("a selector that names benchmarks of two suites is refused; a full name pairs", () => {
    expect(() => compareResults(file, file, { baseline: "reduce", candidate: "forLoop" })).toThrow(
      expect.objectContaining({
        code: "ERR_BENCH_AMBIGUOUS",
        message: expect.stringContaining("Sum.reduce and Product.reduce"),
      }),
    );
    const c = compareResults(file, file, { baseline: "Sum.reduce", candidate: "Sum.forLoop" });
    expect(c.rows.map((r) => [r.label, r.ratio])).toEqual([["Sum.reduce vs forLoop", 0.5]]);
    const across = compareResults(file, file, {
      baseline: "Sum.reduce",
      candidate: "Product.forLoop",
    });
    expect(across.rows[0]!.label).toBe("Sum.reduce vs Product.forLoop");
  });

  it("a selector on one side names the same benchmark on the other", () => {
    const before = [result("Sum.reduce", [10, 10, 10]), result("Sum.forLoop", [5, 5, 5])];
    const after = [result("Sum.reduce", [20, 20, 20]), result("Sum.forLoop", [1, 1, 1])];
    for (const c of [
      compareResults(before, after, { baseline: "reduce" }),
      compareResults(before, after, { candidate: "Sum.reduce" }),
    ]) {
      expect(c.rows.map((r) => [r.label, r.ratio])).toEqual([["Sum.reduce", 2]]);
    }
  });

  it("two results of one benchmark, mode and params on a side are refused", () => {
    const twice = [result("S.a", [1, 1, 1]), result("S.a", [2, 2, 2])];
    expect(() => compareResults(twice, [result("S.a", [1, 1, 1])])).toThrow(
      expect.objectContaining({ code: "ERR_BENCH_AMBIGUOUS" }),
    );
    expect(() => compareResults([result("S.a", [1, 1, 1])], twice)).toThrow(
      expect.objectContaining({ code: "ERR_BENCH_AMBIGUOUS" }),
    );
  });

  it("JMH's ops/min, ops/hr and ops/day are throughput: more is better", () => {
    for (const unit of ["ops/min", "ops/hr", "ops/day"]) {
      expect(higherIsBetter(unit)).toBe(true);
      const at = (score: number) => {
        const r = result("S.t", [score, score, score]);
        return { ...r, mode: "thrpt", primaryMetric: { ...r.primaryMetric, scoreUnit: unit } };
      };
      const row = compareResults([at(100)], [at(200)]).rows[0]!;
      expect(row.speedup).toBe(2);
      expect(formatComparison({ ...compareResults([at(100)], [at(200)]) })).toContain(
        "2.00x faster",
      );
    }
    expect(unitFactor("ops/min", "ops/s")).toBeCloseTo(1 / 60, 12);
    expect(unitFactor("min/op", "s/op")).toBe(60);
    expect(unitFactor("ops/day", "ops/hr")).toBeCloseTo(1 / 24, 12);
  });

  it("a baseline score of 0 gives no ratio, not Infinityx", () => {
    const c = compareResults([result("S.a", [0, 0, 0])], [result("S.a", [5, 5, 5])]);
    expect(formatComparison(c)).toContain("no ratio");
    expect(formatComparison(c)).not.toMatch(/Infinityx|NaNx/);
  });
});

describe("SVG stays well-formed on any score or name", () => {
  const numbers = (svg: string) =>
    [...svg.matchAll(/(?:x|y|width|height|x1|x2|d)="([^"]*)"/g)].map((m) => m[1]!);

  it("a NaN or infinite score gets a label and no bar; the other bars keep finite coordinates", () => {
    const finite = result("S.a", [10, 10, 10]);
    const withScore = (score: number) => {
      const r = result("S.b", [1, 1, 1]);
      return { ...r, primaryMetric: { ...r.primaryMetric, score } };
    };
    for (const score of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const svg = renderChart([finite, withScore(score)]);
      for (const value of numbers(svg)) expect(value).not.toMatch(/NaN|Infinity/);
      expect(svg).toContain(`>${String(score)}<`);
      const comparison = compareResults([finite, withScore(3)], [finite, withScore(score)]);
      for (const value of numbers(renderComparisonChart(comparison))) {
        expect(value).not.toMatch(/NaN|Infinity/);
      }
    }
  });

  it("control characters and lone surrogates in names become U+FFFD", () => {
    expect(escapeXml("x\u0001y\u001b\ud800z\udc00")).toBe("x\ufffdy\ufffd\ufffdz\ufffd");
    expect(escapeXml("tab\tnew\nline 😀")).toBe("tab\tnew\nline 😀");
    const svg = renderChart([result("S.a", [1, 1, 1], { size: "x\u0001y" } as never)]);
    expect([...svg].filter((c) => c < " " && !"\t\n\r".includes(c))).toEqual([]);
  });

  it("ticks of tiny scores are told apart", () => {
    const svg = renderChart([result("S.a", [3e-7, 3e-7, 3e-7], undefined, { unit: "ms" })]);
    const ticks = [...svg.matchAll(/font-size="11" fill="#555">([^<]*)</g)]
      .map((m) => m[1]!)
      .filter((t) => !t.includes("/"));
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.length).toBeGreaterThan(2);
  });
});

describe("the run's report", () => {
  it("measurement lengths are whole numbers of JMH's units", () => {
    expect(describeIteration({ iterations: 1, time: 1e-4 }, "avgt")).toBe("100 ns");
    expect(describeIteration({ iterations: 1, time: 1.5 }, "avgt")).toBe("1500 us");
    expect(describeIteration({ iterations: 1, time: 2000 }, "avgt")).toBe("2 s");
    expect(describeIteration({ iterations: 1, time: 100 }, "avgt")).toBe("100 ms");
  });

  it("an external benchmark's forks are at least 1 in the JSON: it ran in a process of its own", async () => {
    const s = defineSuite({
      name: "Ext",
      options: {
        forks: 0,
        warmup: { iterations: 0 },
        measurement: { iterations: 1, invocations: 1 },
      },
      benchmarks: {
        x: {
          external: {
            command: () => ({
              command: process.execPath,
              args: ["-e", `console.log(JSON.stringify({ warmup: false, ops: 10, nanos: 1000 }))`],
            }),
          },
        },
      },
    });
    const report = await runBenchmarks([s]);
    expect(report.failures.map((f) => f.error.message)).toEqual([]);
    expect(JSON.parse(toJmhJson(report.results))[0].forks).toBe(1);
  });

  it("a batch grown in a longer warmup is halved back to the measurement's goal", () => {
    // 20 µs a call; warmup batches of 512 calls (~10 ms); a 1 ms iteration's goal is 50 µs a batch.
    const last = { nanos: 512 * 20_000, size: 512 };
    expect(fitBatch(512, last, 50_000)).toBe(4); // 80 µs, within twice the goal
    expect(fitBatch(512, last, 6e6)).toBe(512); // within twice a longer goal: kept
    expect(fitBatch(1, last, 1)).toBe(1); // never below one call
    expect(fitBatch(8, { nanos: 0, size: 1 }, 1e4)).toBe(8); // nothing measured yet
  });
});

describe("the CLI", () => {
  it("a report file that cannot be written is a clear error, after the other reports", async () => {
    const notDir = join(dir, "file.json");
    writeFileSync(notDir, "");
    const r = await runCli(
      "Harness.empty",
      ...["-f", "0", "-wi", "0", "-i", "1", "-r", "1000ops"],
      ...["--json", join(notDir, "x.json"), "--chart", join(dir, "ok.svg")],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ERR_BENCH_OUTPUT");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.stderr).toContain(`wrote ${join(dir, "ok.svg")}`);
    expect(r.stdout).toMatch(/^Benchmark/);
  });

  it("compare prints control characters of names and params as escapes: a file cannot drive the terminal", async () => {
    const file = join(dir, "esc.json");
    const name = "S.a\u001b[2J\u001b]0;pwned\u0007\u009b31m";
    writeFileSync(file, toJmhJson([result(name, [1, 1, 1], { size: "1\r\u007f" as never })]));
    const r = await runCli("compare", `${file}#${name}`, file);
    expect(r.code).toBe(0);
    expect([...r.stdout].filter((c) => c !== "\n" && /\p{Cc}/u.test(c))).toEqual([]);
    expect(r.stdout).toContain("S.a\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m");
    expect(r.stdout).toContain("1\\x0d\\x7f");
    expect(r.stdout).toContain(`Baseline: ${file}#S.a\\x1b[2J`);
  });

  it("compare reads a file whose name holds a #", async () => {
    const file = join(dir, "run#1.json");
    writeFileSync(file, toJmhJson([result("S.a", [1, 1, 1])]));
    const r = await runCli("compare", file, file);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("S.a");
  });
});
