// Compatibility with JMH's own JSON (what JMH Visualizer and other JMH tooling load). The fixture is written
// by hand in JMH 1.37's documented result format (`-rf json`): two results as a real run prints them, one
// with params and scoreError "NaN" (2 iterations), one without params; its statistics follow from its raw data.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../src/options";
import { parseJmhJson, toJmhJson } from "../src/report/jmh-json";
import { buildResult } from "../src/result";
import { computeStatistics } from "../src/stats";

const fixture = readFileSync(
  new URL("./fixtures/jmh-1.37-capture-state.json", import.meta.url),
  "utf8",
);
const jmh = JSON.parse(fixture) as Record<string, unknown>[];

/** JMH Visualizer's reading of a benchmark name: class before the last dot, method after. */
const split = (benchmark: string) => [
  benchmark.slice(0, benchmark.lastIndexOf(".")),
  benchmark.slice(benchmark.lastIndexOf(".") + 1),
];

const ours = (iterations: number, forks: number) =>
  JSON.parse(
    toJmhJson([
      buildResult(
        "RandomAccessFileBenchmark.readInt",
        { kiloBytes: 5, impl: "rafkit" },
        resolveOptions({ unit: "us" }, { forks, measurement: { iterations, time: 100 } }),
        Array.from({ length: forks }, (_, f) =>
          Array.from({ length: iterations }, (_, i) => 10 + f + i),
        ),
      ),
    ]),
  ) as Record<string, unknown>[];

describe("JMH 1.37 JSON", () => {
  it("loads JMH's own output: names, params as strings, NaN errors, raw data per fork", () => {
    const [capture, raf] = parseJmhJson(fixture);
    expect(split(capture!.benchmark)).toEqual([
      "org.openjdk.bench.java.lang.foreign.CaptureStateUtilBench",
      "tlFail",
    ]);
    expect(capture!.params).toBeUndefined();
    expect(capture!.primaryMetric.rawData).toEqual([
      [23.3, 23.5],
      [23.6, 23.7],
      [23.58, 23.8],
    ]);
    expect(capture!.primaryMetric.scoreConfidence).toEqual([23.09754947320893, 24.06245052679107]);
    // The fixture is what JMH computes from its raw data (Student's t at 99.9%, Commons Math's percentiles).
    expect(capture!.primaryMetric.scoreError).toBeCloseTo(
      computeStatistics(capture!.primaryMetric.rawData.flat()).error,
      12,
    );
    expect(raf!.params).toEqual({ kiloBytes: "5" });
    expect(raf!.primaryMetric.scoreError).toBeNaN();
    expect(raf!.jdkVersion).toBe("25.0.3");
  });

  it("writes what JMH writes: the same fields in the same order, at every level", () => {
    const [mine] = ours(3, 2);
    const [theirs] = jmh.filter((r) => "params" in r);
    expect(Object.keys(mine!)).toEqual(Object.keys(theirs!));
    const metric = (r: Record<string, unknown>) => r.primaryMetric as Record<string, unknown>;
    expect(Object.keys(metric(mine!))).toEqual(Object.keys(metric(theirs!)));
    expect(Object.keys(metric(mine!).scorePercentiles as object)).toEqual(
      Object.keys(metric(theirs!).scorePercentiles as object),
    );
  });

  it("follows JMH Visualizer's rules: last-dot split, params as strings, rawData filled, NaN error when n <= 2", () => {
    const [mine] = ours(3, 2);
    expect(split(mine!.benchmark as string)).toEqual(["RandomAccessFileBenchmark", "readInt"]);
    expect(mine!.params).toEqual({ kiloBytes: "5", impl: "rafkit" });
    const metric = mine!.primaryMetric as { rawData: number[][]; scoreError: unknown };
    expect(metric.rawData).toEqual([
      [10, 11, 12],
      [11, 12, 13],
    ]);
    expect(typeof metric.scoreError).toBe("number");
    for (const [iterations, forks] of [
      [1, 2],
      [2, 1],
      [1, 1],
    ] as const) {
      const m = ours(iterations, forks)[0]!.primaryMetric as {
        scoreError: unknown;
        scoreConfidence: unknown;
      };
      expect(m.scoreError).toBe("NaN");
      expect(m.scoreConfidence).toEqual(["NaN", "NaN"]);
    }
    // And it reads back as written.
    const text = toJmhJson(parseJmhJson(JSON.stringify(ours(3, 2))));
    expect(JSON.parse(text)).toEqual(ours(3, 2));
    // In JMH's key order too: read and saved again, params stay before primaryMetric (they went last).
    expect(Object.keys(JSON.parse(text)[0])).toEqual(Object.keys(ours(3, 2)[0]!));
  });
});
