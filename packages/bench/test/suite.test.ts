import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  parseCount,
  parseIterationLength,
  parseParamOption,
  parseParamOptions,
  parseResultRef,
  parseTimeOption,
  rewriteJmhArgs,
} from "../src/cli-args";
import { loadSuiteModule, moduleUrl, syntaxErrorAt } from "../src/loader";
import { DEFAULT_OPTIONS, describeIteration, resolveOptions } from "../src/options";
import { planBenchmarks, runBenchmarks } from "../src/run";
import { defineSuite, isSuite, paramCombinations, type Suite } from "../src/suite";
import { higherIsBetter, parseScoreUnit, scoreUnit, unitFactor } from "../src/units";

describe("defineSuite", () => {
  it("brands valid suites", () => {
    const s = defineSuite({
      name: "Ok",
      benchmarks: { a: () => 1, b: { run: () => 2, options: { unit: "ns" } } },
    });
    expect(isSuite(s)).toBe(true);
    expect(isSuite({ ...s })).toBe(true);
    expect(isSuite({ name: "Ok", benchmarks: {} })).toBe(false);
  });

  it("gives suites of any params and state the type `Suite` (a list of them compiles)", () => {
    const Join = defineSuite({
      name: "Join",
      params: { words: [10, 1000] },
      state: ({ words }) => ({ list: Array.from({ length: words }, (_, i) => `w${i}`) }),
      benchmarks: { join: (_bh, { list }) => list.join("") },
    });
    const Plain = defineSuite({ name: "Plain", benchmarks: { a: () => 1 } });
    const all: Suite[] = [Join, Plain];
    expect(all.map((s) => s.name)).toEqual(["Join", "Plain"]);
  });

  const one = (): number => 1;
  it.each<[unknown, RegExp]>([
    [{ name: "has space", benchmarks: { a: one } }, /suite name must be an identifier/],
    [{ name: "Empty", benchmarks: {} }, /has no benchmarks/],
    [{ name: "S", benchmarks: { "a-b": one } }, /benchmark name "a-b"/],
    [{ name: "S", benchmarks: { a: 1 } }, /must be a function, \{ run \} or \{ external \}/],
    [{ name: "S", params: { size: [] }, benchmarks: { a: one } }, /needs at least one value/],
    [{ name: "S", params: { "x y": [1] }, benchmarks: { a: one } }, /param name "x y"/],
  ])("rejects %j", (definition, message) => {
    expect(() => defineSuite(definition as never)).toThrow(message);
  });

  it("crosses params, the last varying fastest", () => {
    expect(paramCombinations({ a: [1, 2], b: ["x", "y"] })).toEqual([
      { a: 1, b: "x" },
      { a: 1, b: "y" },
      { a: 2, b: "x" },
      { a: 2, b: "y" },
    ]);
    expect(paramCombinations(undefined)).toEqual([{}]);
  });
});

describe("options", () => {
  it("layers defaults, suite, benchmark and overrides", () => {
    const o = resolveOptions(
      { unit: "ns", measurement: { iterations: 7, invocations: 10 } },
      { measurement: { iterations: 2, time: 5 } },
    );
    expect(o.unit).toBe("ns");
    expect(o.forks).toBe(DEFAULT_OPTIONS.forks);
    expect(o.measurement).toEqual({ iterations: 2, time: 5 }); // a later time drops an earlier count
    expect(DEFAULT_OPTIONS.forks).toBeGreaterThanOrEqual(2);
    expect(o.timeout).toBe(600_000); // JMH's 10 minutes
  });

  it.each([
    [{ mode: "fast" }, /mode must be one of/],
    [{ unit: "h" }, /time unit must be one of/],
    [{ forks: -1 }, /forks must be an integer >= 0/],
    [{ operationsPerInvocation: 0 }, /operationsPerInvocation must be > 0/],
    [{ measurement: { iterations: 0 } }, /measurement iterations must be an integer >= 1/],
    [{ warmup: { iterations: 1, invocations: 0 } }, /warmup invocations must be an integer >= 1/],
    [{ warmup: { iterations: 1, time: 0 } }, /warmup time must be > 0 ms/],
    [{ timeout: 0 }, /timeout must be > 0 ms/],
    [{ timeout: 2 ** 31 }, /at most 2147483647 ms/],
    [{ timeout: "1s" }, /timeout must be > 0 ms/],
  ])("rejects %j", (layer, message) => {
    expect(() => resolveOptions(layer as never)).toThrow(message);
  });

  it("describes iteration lengths as JMH does", () => {
    expect(describeIteration({ iterations: 1, time: 1000 }, "avgt")).toBe("1 s");
    expect(describeIteration({ iterations: 1, time: 200 }, "avgt")).toBe("200 ms");
    expect(describeIteration({ iterations: 1, time: 0.5 }, "avgt")).toBe("500 us");
    expect(describeIteration({ iterations: 1, invocations: 10 }, "avgt")).toBe("10 ops");
    expect(describeIteration({ iterations: 1, time: 1000 }, "ss")).toBe("single-shot");
  });
});

describe("units", () => {
  it("names, parses and converts JMH score units", () => {
    expect(scoreUnit("avgt", "us")).toBe("us/op");
    expect(scoreUnit("thrpt", "ms")).toBe("ops/ms");
    expect(parseScoreUnit("ops/s")).toEqual({ kind: "throughput", unit: "s" });
    expect(parseScoreUnit("B/op")).toBeUndefined();
    expect(unitFactor("us/op", "ns/op")).toBe(1000);
    expect(unitFactor("ops/us", "ops/ms")).toBe(1000);
    expect(unitFactor("ops/us", "us/op")).toBeUndefined();
    expect(higherIsBetter("ops/s")).toBe(true);
    expect(higherIsBetter("GB/s")).toBe(true);
    expect(higherIsBetter("ns/op")).toBe(false);
  });
});

describe("command-line parsing", () => {
  it("maps JMH's multi-letter flags", () => {
    expect(rewriteJmhArgs(["-wi", "3", "-bm", "ss", "-tu", "ns", "-to", "1", "-i", "2"])).toEqual([
      "--warmup-iterations",
      "3",
      "--mode",
      "ss",
      "--unit",
      "ns",
      "--timeout",
      "1",
      "-i",
      "2",
    ]);
  });

  it("parses iteration lengths, counts, params and result references", () => {
    expect(parseIterationLength("1s")).toEqual({ time: 1000 });
    expect(parseIterationLength("2")).toEqual({ time: 2000 });
    expect(parseIterationLength("250us")).toEqual({ time: 0.25 });
    expect(parseIterationLength("100ops")).toEqual({ invocations: 100 });
    expect(parseIterationLength("7x")).toEqual({ invocations: 7 });
    expect(() => parseIterationLength("0ops")).toThrow(/bad iteration length/);
    expect(parseTimeOption("10min", "timeout")).toBe(600_000);
    expect(parseTimeOption("30", "timeout")).toBe(30_000); // seconds, as JMH's -to
    expect(parseTimeOption("250ms", "timeout")).toBe(250);
    expect(() => parseTimeOption("1000ops", "timeout")).toThrow(
      expect.objectContaining({
        code: "ERR_BENCH_BAD_OPTION",
        message: expect.stringMatching(/^bad timeout "1000ops"/),
      }),
    );
    expect(parseCount("3", "forks")).toBe(3);
    expect(() => parseCount("0", "iterations", 1)).toThrow(/iterations must be an integer >= 1/);
    expect(parseParamOption("kiloBytes=1, 5")).toEqual(["kiloBytes", ["1", "5"]]);
    expect(parseParamOptions(["n=1,2", "__proto__=x", "n=2,3"])).toEqual(
      Object.fromEntries([
        ["n", ["1", "2", "3"]],
        ["__proto__", ["x"]],
      ]),
    );
    expect(() => parseParamOption("=1")).toThrow(
      expect.objectContaining({ code: "ERR_BENCH_BAD_PARAM" }),
    );
    expect(parseResultRef("a.json#readInt")).toEqual({ file: "a.json", benchmark: "readInt" });
    expect(parseResultRef("a.json")).toEqual({ file: "a.json" });
  });
});

describe("planning and loading", () => {
  const suite = defineSuite({
    name: "Plan",
    params: { n: [1, 2], flag: [true, false], s: ["x"] },
    benchmarks: { a: () => 1, b: () => 2 },
  });

  it("filters by regex and converts param overrides to the declared type", () => {
    const plan = planBenchmarks([suite], {
      filter: "\\.b$",
      params: { n: ["3"], flag: ["false"], s: ["y", "z"] },
    });
    expect(plan.map((p) => [p.id, p.params])).toEqual([
      ["Plan.b", { n: 3, flag: false, s: "y" }],
      ["Plan.b", { n: 3, flag: false, s: "z" }],
    ]);
    expect(() => planBenchmarks([suite], { params: { flag: ["maybe"] } })).toThrow(
      /takes true or false/,
    );
    expect(() => planBenchmarks([suite], { filter: "(" })).toThrow(/bad filter regex/);
  });

  it("names the benchmark whose own or suite options are bad, but not for a bad override", () => {
    const bad = defineSuite({
      name: "Bad",
      options: { forks: -1 },
      benchmarks: { a: () => 1, b: { run: () => 2, options: { forks: 1, mode: "fast" as never } } },
    });
    expect(() => planBenchmarks([bad], { filter: "\\.a$" })).toThrow(
      expect.objectContaining({
        code: "ERR_BENCH_BAD_OPTION",
        message: "Bad.a's options: forks must be an integer >= 0, got -1",
      }),
    );
    expect(() => planBenchmarks([bad], { filter: "\\.b$" })).toThrow(
      /^Bad\.b's options: mode must be one of/,
    );
    expect(() => planBenchmarks([suite], { overrides: { timeout: -1 } })).toThrow(
      /^timeout must be > 0 ms/,
    );
  });

  it("runs each param value once, and takes a declared value spelled as given in its own type", () => {
    // Twice, a value ran twice and made two results of one name, which compare then refused.
    const twice = planBenchmarks([suite], {
      filter: "\\.a$",
      params: { n: ["100", "1e2", "0x64"] },
    });
    expect(twice.map((p) => [p.params.n, p.params.flag])).toEqual([
      [100, true],
      [100, false],
    ]);
    const repeated = defineSuite({
      name: "Twice",
      params: { n: [1, 1, 2] },
      benchmarks: { a: () => 1 },
    });
    expect(planBenchmarks([repeated]).map((p) => p.params.n)).toEqual([1, 2]);
    // Mixed types: "1" was passed on as the string "1" where the suite declares the number 1.
    const mixed = defineSuite({
      name: "Mixed",
      params: { size: [1, "auto"] },
      benchmarks: { a: () => 1 },
    });
    expect(
      planBenchmarks([mixed], { params: { size: ["1", "auto", "7"] } }).map((p) => p.params.size),
    ).toEqual([1, "auto", "7"]);
  });

  it("plans a suite given twice once (one module passed twice): it was two suites of one name", () => {
    expect(planBenchmarks([suite, suite], { filter: "Plan\\.a$" })).toHaveLength(
      planBenchmarks([suite], { filter: "Plan\\.a$" }).length,
    );
  });

  it("cannot fork a suite that was not loaded from a module", async () => {
    const report = await runBenchmarks([suite], {
      filter: "Plan.a",
      params: { n: ["1"], flag: ["true"] },
    });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]!.error).toMatchObject({ code: "ERR_BENCH_FORK" });
  });

  it("runs in-process with forks 0 and tells listeners", async () => {
    const events: string[] = [];
    const report = await runBenchmarks(
      [suite],
      {
        filter: "Plan.a",
        params: { n: ["1"], flag: ["true"] },
        overrides: {
          forks: 0,
          warmup: { iterations: 1, invocations: 5 },
          measurement: { iterations: 3, invocations: 5 },
        },
      },
      {
        onStart: (plan) => void events.push(`start ${plan.length}`),
        onBenchmarkStart: (p) => void events.push(`bench ${p.id}`),
        onForkStart: (_p, fork) => void events.push(`fork ${fork}`),
        onIteration: (_p, _f, r) => void events.push(`${r.phase} ${r.index}`),
        onBenchmarkEnd: (_p, o) => void events.push(o.result ? "ok" : "failed"),
        onEnd: () => void events.push("end"),
      },
    );
    expect(report.pids).toEqual([[process.pid]]);
    expect(events).toEqual([
      "start 1",
      "bench Plan.a",
      "fork 0",
      "warmup 0",
      "measurement 0",
      "measurement 1",
      "measurement 2",
      "ok",
      "end",
    ]);
  });

  it("asks node --check where a syntax error in a suite file is, and only for a SyntaxError in a file", () => {
    const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-syntax-"));
    try {
      const bad = join(dir, "bad.mjs");
      writeFileSync(bad, "export const x = 1;\nexport const S = { a: ( };\n");
      const url = moduleUrl(bad);
      expect(syntaxErrorAt(url, new SyntaxError("x"))).toMatch(
        /^\n.*bad\.mjs:2\nexport const S = \{ a: \( \};\n\s+\^+$/,
      );
      expect(syntaxErrorAt(url, new TypeError("x"))).toBe("");
      expect(syntaxErrorAt("data:text/javascript,(", new SyntaxError("x"))).toBe("");
      writeFileSync(bad, "export const fine = 1;\n");
      expect(syntaxErrorAt(url, new SyntaxError("x"))).toBe(""); // the error was in a module it imports
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads suites from a module and rejects modules without any", async () => {
    const loaded = await loadSuiteModule(new URL("./fixtures/suites.mjs", import.meta.url).href);
    expect(loaded.map((l) => l.suite.name).sort()).toEqual([
      "Forever",
      "Holder",
      "Never",
      "Pids",
      "SlowExit",
      "Spin",
      "Stuck",
      "Throwing",
    ]);
    await expect(loadSuiteModule("node:path")).rejects.toThrow(/exports no suite/);
    expect(moduleUrl("/tmp/x.mjs")).toBe("file:///tmp/x.mjs");
  });
});
