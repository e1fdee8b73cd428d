import { type BenchmarkResult, metricOf } from "@rafkit/bench";
import { describe, expect, it } from "vitest";
import { mergeRuns } from "../src/kv-bench";

const result = (engine: string, iterations: number[]): BenchmarkResult => ({
  jmhVersion: "rafkit-bench 0.1",
  benchmark: "ycsb.load",
  mode: "thrpt",
  threads: 1,
  forks: 0,
  jvm: "node",
  jvmArgs: [],
  jdkVersion: "",
  vmName: "",
  vmVersion: "",
  warmupIterations: 0,
  warmupTime: "",
  warmupBatchSize: 1,
  measurementIterations: iterations.length,
  measurementTime: "",
  measurementBatchSize: 1,
  params: { engine },
  primaryMetric: metricOf([iterations], "ops/s"),
  secondaryMetrics: {},
});

describe("mergeRuns: several rafkv bench runs count as one benchmark's forks", () => {
  it("joins each benchmark's iterations across runs and scores them together, engines apart", () => {
    const merged = mergeRuns([
      [result("rafkv", [100, 110]), result("lmdb", [50])],
      [result("rafkv", [300, 290]), result("lmdb", [70])],
    ]);
    expect(merged).toHaveLength(2);
    const rafkv = merged.find((r) => r.params?.engine === "rafkv")!;
    expect(rafkv.primaryMetric.rawData).toEqual([
      [100, 110],
      [300, 290],
    ]);
    expect(rafkv.primaryMetric.score).toBe(200);
    expect(merged.find((r) => r.params?.engine === "lmdb")!.primaryMetric.score).toBe(60);
  });

  it("one run is returned as it was", () => {
    const one = [result("rafkv", [1, 2, 3])];
    expect(mergeRuns([one])).toEqual(one);
  });
});
