import { describe, expect, it } from "vitest";
import { Blackhole } from "../src/blackhole";
import { resolveOptions } from "../src/options";
import { runTrial, scoreOf } from "../src/runner";
import { defineSuite } from "../src/suite";

const quick = (over: Parameters<typeof resolveOptions>[0] = {}) =>
  resolveOptions(
    { forks: 0, warmup: { iterations: 1, time: 5 }, measurement: { iterations: 3, time: 5 } },
    over,
  );

describe("Blackhole", () => {
  it("never stores what it consumes", () => {
    const bh = new Blackhole();
    for (const v of [0, 1, Math.random(), "x", {}, undefined, null, Number.NaN, 1n]) bh.consume(v);
    expect(bh.sink).toBeUndefined();
  });
});

describe("runTrial", () => {
  it("runs state, trial and iteration hooks in JMH's order, hooks outside iterations", async () => {
    const events: string[] = [];
    const suite = defineSuite({
      name: "Hooks",
      params: { size: [3] },
      state: ({ size }) => {
        events.push(`state ${size}`);
        return { calls: 0 };
      },
      setup: {
        trial: () => void events.push("setup trial"),
        iteration: () => void events.push("setup iteration"),
      },
      teardown: {
        trial: (s) => void events.push(`teardown trial ${s.calls > 0}`),
        iteration: () => void events.push("teardown iteration"),
      },
      benchmarks: {
        count(_bh, s) {
          s.calls++;
        },
      },
    });
    const options = quick({
      warmup: { iterations: 1, invocations: 10 },
      measurement: { iterations: 2, invocations: 7 },
    });
    const records: number[] = [];
    const result = await runTrial(
      { suite, benchmark: "count", params: { size: 3 }, options },
      (r) => {
        records.push(r.invocations);
      },
    );
    expect(events).toEqual([
      "state 3",
      "setup trial",
      ...Array(3).fill(["setup iteration", "teardown iteration"]).flat(),
      "teardown trial true",
    ]);
    expect(records).toEqual([10, 7, 7]);
    expect(result.warmup).toHaveLength(1);
    expect(result.measurement).toHaveLength(2);
    expect(result.pid).toBe(process.pid);
  });

  it("runs trial teardown even when the benchmark throws", async () => {
    let tornDown = false;
    const suite = defineSuite({
      name: "Boom",
      teardown: { trial: () => void (tornDown = true) },
      benchmarks: {
        boom() {
          throw new Error("boom");
        },
      },
    });
    await expect(
      runTrial({ suite, benchmark: "boom", params: {}, options: quick() }),
    ).rejects.toThrow("boom");
    expect(tornDown).toBe(true);
  });

  it("rejects async benchmarks", async () => {
    const suite = defineSuite({ name: "Async", benchmarks: { a: async () => 1 } });
    await expect(
      runTrial({ suite, benchmark: "a", params: {}, options: quick() }),
    ).rejects.toMatchObject({
      code: "ERR_BENCH_BAD_SUITE",
    });
  });

  it("single-shot mode makes one call per iteration; --gc works without --expose-gc", async () => {
    let calls = 0;
    const suite = defineSuite({ name: "Ss", benchmarks: { once: () => ++calls } });
    const options = quick({
      mode: "ss",
      gc: true,
      warmup: { iterations: 2 },
      measurement: { iterations: 4 },
    });
    const result = await runTrial({ suite, benchmark: "once", params: {}, options });
    expect(calls).toBe(6);
    expect(result.measurement.every((s) => s > 0)).toBe(true);
  });

  it("a blackhole-consumed computation is not optimised away: its cost grows with its size", async () => {
    const suite = defineSuite({
      name: "Work",
      params: { size: [100, 10_000] },
      benchmarks: {
        sum(bh, _s, { size }) {
          let acc = 0;
          for (let i = 0; i < size; i++) acc = (acc + Math.imul(i, i)) | 0;
          bh.consume(acc);
        },
      },
    });
    const options = quick({
      unit: "ns",
      warmup: { iterations: 3, time: 20 },
      measurement: { iterations: 5, time: 20 },
    });
    const small = await runTrial({ suite, benchmark: "sum", params: { size: 100 }, options });
    const large = await runTrial({ suite, benchmark: "sum", params: { size: 10_000 }, options });
    const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    // 100x the work; anything above 10x shows the loop is really executed.
    expect(mean(large.measurement) / mean(small.measurement)).toBeGreaterThan(10);
  });
});

describe("scoreOf", () => {
  it("converts operations and nanoseconds into time per op or ops per time in the chosen unit", () => {
    expect(scoreOf(1000, 2_000_000, { mode: "avgt", unit: "us" })).toBe(2);
    expect(scoreOf(1000, 2_000_000, { mode: "ss", unit: "ns" })).toBe(2000);
    expect(scoreOf(1000, 2_000_000, { mode: "thrpt", unit: "ms" })).toBe(500);
    expect(scoreOf(1000, 2_000_000, { mode: "thrpt", unit: "s" })).toBe(500_000);
  });
});
