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
  it("never stores a number or undefined: it compares them", () => {
    const bh = new Blackhole();
    for (let i = 0; i < 1000; i++)
      for (const v of [0, 1, Math.random(), undefined, Number.NaN]) bh.consume(v);
    expect(bh.sink).toBeUndefined();
  });

  it("stores other values now and then, ever more rarely, so they escape", () => {
    for (const value of [{}, "x", null, true, 1n, [1]]) {
      const bh = new Blackhole();
      let stores = 0;
      for (let i = 0; i < 1 << 16; i++) {
        bh.sink = undefined;
        bh.consume(value);
        if (bh.sink === value) stores++;
      }
      // A store within the first calls, then at doubling intervals: about log2(65536) of them.
      expect(stores).toBeGreaterThanOrEqual(8);
      expect(stores).toBeLessThanOrEqual(24);
    }
  });

  it("keeps a fresh object's allocation: V8's escape analysis cannot drop it", async () => {
    // Runs the built package (the turbo test task builds first). Counts scavenges while an optimised loop consumes 20 million 200-byte objects: about 4 GB allocated,
    // hundreds of young-generation GCs. A blackhole that only compares lets V8 drop the allocation, and
    // the GCs stop once the loop is optimised.
    const script = `
      const { Blackhole } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
      const { PerformanceObserver } = await import("node:perf_hooks");
      let scavenges = 0;
      const obs = new PerformanceObserver((list) => { scavenges += list.getEntries().length; });
      obs.observe({ entryTypes: ["gc"] });
      const bh = new Blackhole();
      const make = (i) => ({ a: i, b: i, c: i, d: i, e: i, f: i, g: i, h: i, i2: i, j: i, k: i, l: i,
        m: i, n: i, o: i, p: i, q: i, r: i, s: i, t: i, u: i, v: i, w: i, x: i });
      const loop = (n) => { for (let i = 0; i < n; i++) bh.consume(make(i)); };
      for (let k = 0; k < 20; k++) loop(1e6);
      await new Promise((r) => setTimeout(r, 50));
      process.stdout.write(String(scavenges));`;
    const { execFileSync } = await import("node:child_process");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(Number(out)).toBeGreaterThan(500);
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

  it("runs the iteration's and the trial's teardown even when the benchmark throws", async () => {
    const events: string[] = [];
    const suite = defineSuite({
      name: "Boom",
      setup: { iteration: () => void events.push("setup iteration") },
      teardown: {
        iteration: () => void events.push("teardown iteration"),
        trial: () => void events.push("teardown trial"),
      },
      benchmarks: {
        boom() {
          throw new Error("boom");
        },
      },
    });
    await expect(
      runTrial({ suite, benchmark: "boom", params: {}, options: quick() }),
    ).rejects.toThrow("boom");
    expect(events).toEqual(["setup iteration", "teardown iteration", "teardown trial"]);
  });

  it("reports the benchmark's error when a teardown fails after it (the teardown's hid it)", async () => {
    const suite = defineSuite({
      name: "Both",
      teardown: {
        iteration: () => {
          throw new Error("iteration teardown boom");
        },
        trial: () => {
          throw new Error("trial teardown boom");
        },
      },
      benchmarks: {
        boom() {
          throw new Error("bench boom");
        },
        fine: () => 1,
      },
    });
    await expect(
      runTrial({ suite, benchmark: "boom", params: {}, options: quick() }),
    ).rejects.toThrow("bench boom");
    // With nothing failing before it, a teardown's own error is the one reported.
    await expect(
      runTrial({ suite, benchmark: "fine", params: {}, options: quick() }),
    ).rejects.toThrow("iteration teardown boom");
  });

  it("gives up on a trial when the process runs out of work while it waits; should it settle after all, it stops there", async () => {
    let resume: () => void = () => {};
    const events: string[] = [];
    const suite = defineSuite({
      name: "Stuck",
      setup: { iteration: () => void events.push("setup") },
      teardown: {
        iteration: () => void events.push("teardown"),
        trial: () => void events.push("trial teardown"),
      },
      benchmarks: {
        wait: () =>
          new Promise<void>((r) => {
            resume = r;
          }),
      },
    });
    const trial = runTrial({ suite, benchmark: "wait", params: {}, options: quick() });
    await new Promise((r) => setTimeout(r, 10));
    expect(process.listenerCount("beforeExit")).toBe(1);
    // What Node emits once nothing is left to run (vitest's worker never gets there: it keeps its channel open).
    process.emit("beforeExit", 0);
    await expect(trial).rejects.toMatchObject({
      code: "ERR_BENCH_FAILED",
      message:
        "the process ran out of work while a promise it awaited was pending: it never settled",
    });
    expect(process.listenerCount("beforeExit")).toBe(0);
    resume(); // it settles after all: the trial stops at its next step, running no more hooks
    await new Promise((r) => setTimeout(r, 10));
    expect(events).toEqual(["setup"]);
  });

  it("gives up on a trial with no iteration finished within the timeout, which then stops at its next step", async () => {
    const events: string[] = [];
    let resume = () => {};
    let calls = 0;
    const suite = defineSuite({
      name: "Slow",
      setup: { iteration: () => void events.push("setup") },
      teardown: { trial: () => void events.push("trial teardown") },
      benchmarks: {
        // Its first call returns at once, the second waits until resumed.
        wait: () =>
          calls++ === 0
            ? Promise.resolve()
            : new Promise<void>((r) => {
                resume = r;
              }),
      },
    });
    const options = { ...quick(), timeout: 50 };
    const trial = runTrial({ suite, benchmark: "wait", params: {}, options });
    await expect(trial).rejects.toMatchObject({
      code: "ERR_BENCH_TIMEOUT",
      message: `timed out: nothing finished within 50 ms past a ${options.measurement.time} ms iteration (the timeout, -to), before its first iteration finished`,
    });
    expect(process.listenerCount("beforeExit")).toBe(0);
    // It settles after all: the call in flight had its blackhole already, the next one's throws. No more hooks.
    for (let i = 0; i < 3; i++) {
      resume();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(events).toEqual(["setup"]);
    expect(calls).toBe(3);
  });

  it("takes the longest timeout as it is: past setTimeout's limit, it fired at once", async () => {
    const suite = defineSuite({ name: "Long", benchmarks: { a: () => Promise.resolve(1) } });
    const result = await runTrial({
      suite,
      benchmark: "a",
      params: {},
      options: { ...quick(), timeout: 2 ** 31 - 1 },
    });
    expect(result.measurement).toHaveLength(3);
  });

  it("awaits each call of an async benchmark before the next, and consumes what it resolves to", async () => {
    let calls = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const suite = defineSuite({
      name: "Async",
      benchmarks: {
        async tick() {
          calls++;
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          return calls;
        },
      },
    });
    const options = quick({
      warmup: { iterations: 1, invocations: 3 },
      measurement: { iterations: 2, invocations: 7 },
    });
    const result = await runTrial({ suite, benchmark: "tick", params: {}, options });
    expect(calls).toBe(3 + 2 * 7);
    expect(maxInFlight).toBe(1);
    // setImmediate waits for the event loop: each call costs far more than a synchronous no-op.
    expect(result.measurement.every((s) => s > 0)).toBe(true);
  });

  it("awaits a plain function that returns promises, learnt from its first call, by time too", async () => {
    const order: string[] = [];
    let n = 0;
    const suite = defineSuite({
      name: "Thenable",
      benchmarks: {
        later: () => {
          const i = n++;
          order.push(`start ${i}`);
          return Promise.resolve().then(() => void order.push(`end ${i}`));
        },
      },
    });
    await runTrial({ suite, benchmark: "later", params: {}, options: quick() });
    expect(n).toBeGreaterThan(3);
    // Strictly alternating: call i+1 starts only after call i resolved.
    expect(order.slice(0, 6)).toEqual(["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]);
    expect(order.filter((e) => e.startsWith("start"))).toHaveLength(n);
    expect(order.filter((e) => e.startsWith("end"))).toHaveLength(n);
  });

  it("never awaits between the calls or batches of a synchronous benchmark", async () => {
    // A microtask queued by each call can only run when the runner yields. For a synchronous benchmark
    // it must not yield within an iteration, neither between calls nor between the batches of a timed
    // iteration, so every call of one measurement iteration sees the same count of run microtasks.
    let ran = 0;
    const iterations: number[][] = [];
    const suite = defineSuite({
      name: "Sync",
      setup: { iteration: () => void iterations.push([]) },
      benchmarks: {
        queue() {
          iterations.at(-1)!.push(ran);
          queueMicrotask(() => void ran++);
        },
      },
    });
    for (const measurement of [
      { iterations: 2, invocations: 500 },
      { iterations: 2, time: 5 },
    ]) {
      iterations.length = 0;
      await runTrial({
        suite,
        benchmark: "queue",
        params: {},
        options: quick({ warmup: { iterations: 1, invocations: 50 }, measurement }),
      });
      const [, first, second] = iterations;
      expect(first!.length).toBeGreaterThan(1);
      expect(new Set(first).size).toBe(1);
      expect(new Set(second).size).toBe(1);
      // The microtasks did run between iterations: the counter moved on.
      expect(second![0]).toBeGreaterThan(first![0]!);
    }
  });

  it("reports a rejected async benchmark as a failure and still tears down", async () => {
    let tornDown = false;
    const suite = defineSuite({
      name: "Rejects",
      teardown: { trial: () => void (tornDown = true) },
      benchmarks: {
        async boom() {
          throw new Error("async boom");
        },
      },
    });
    await expect(
      runTrial({ suite, benchmark: "boom", params: {}, options: quick() }),
    ).rejects.toThrow("async boom");
    expect(tornDown).toBe(true);
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
