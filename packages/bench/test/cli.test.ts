import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseJmhJson } from "../src/report/jmh-json";
import { runCli } from "./run-cli";

const fixtures = fileURLToPath(new URL("./fixtures/suites.mjs", import.meta.url));
const sumExample = fileURLToPath(new URL("../examples/sum.bench.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tiny = ["-f", "1", "-wi", "1", "-i", "3", "-w", "2ms", "-r", "2ms"];

describe("rafkit-bench CLI", () => {
  it("--list shows the built-in suites with their params", async () => {
    const { code, stdout } = await runCli("--list");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Benchmarks:/);
    expect(stdout).toContain("Harness.empty");
    const example = await runCli("--list", "--suite", sumExample);
    expect(example.stdout).toMatch(/Sum\.forLoop .*size: 100, 10000/);
    // A repeated -p adds values, as JMH's does; it used to keep the last one alone.
    const twice = await runCli("--list", "--suite", sumExample, "-p", "size=7", "-p", "size=9,7");
    expect(twice.stdout).toMatch(/Sum\.forLoop .*size: 7, 9\)/);
  });

  it("runs a filtered built-in benchmark and writes JMH JSON and an SVG chart", async () => {
    const json = join(dir, "run.json");
    const svg = join(dir, "run.svg");
    const { code, stdout, stderr } = await runCli(
      "^Harness\\.",
      ...tiny,
      "--json",
      json,
      "--chart",
      svg,
    );
    expect(stderr).not.toContain("ETA"); // quiet when stderr is not a TTY
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toMatch(/^Benchmark\s+Mode\s+Cnt\s+Score\s+Error\s+Units$/);
    expect(stdout).toMatch(/Harness\.empty\s+avgt\s+3\s+[\d.e-]+ ± +[\d.e-]+\s+ns\/op/);
    const results = parseJmhJson(readFileSync(json, "utf8"));
    expect(results.map((r) => r.benchmark)).toEqual(["Harness.empty", "Harness.constant"]);
    expect(readFileSync(svg, "utf8")).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*Harness[\s\S]*<\/svg>\n$/);
  });

  it("names the line of a syntax error in a suite file (Node's import() does not); not one in a module it imports", async () => {
    const bad = join(dir, "bad.mjs");
    writeFileSync(bad, "export const x = 1;\nexport const S = { a: ( };\n");
    const direct = await runCli("--suite", bad, "--list");
    expect(direct.code).toBe(1);
    expect(direct.stderr).toMatch(
      /^rafkit-bench: cannot load suite module .*bad\.mjs: .*\n.*bad\.mjs:2\nexport const S = \{ a: \( \};\n\s+\^+ \(ERR_BENCH_BAD_SUITE\)\n$/,
    );
    const importer = join(dir, "importer.mjs");
    writeFileSync(importer, 'import "./bad.mjs";\n');
    const indirect = await runCli("--suite", importer, "--list");
    expect(indirect.stderr).toMatch(
      /^rafkit-bench: cannot load suite module .*importer\.mjs: [^\n]+\n$/,
    );
  });

  it("fails clearly when a benchmark throws", async () => {
    const { code, stderr } = await runCli("--suite", fixtures, "Throwing", ...tiny);
    expect(code).toBe(1);
    expect(stderr).toContain("Throwing.boom failed: boom from the benchmark");
    expect(stderr).toContain("1 of 1 benchmarks failed");
  });

  it.each(["0", "1"])(
    "fails clearly (forks %s) when a benchmark's promise never settles, and reports the others",
    async (forks) => {
      // The process just ran out of work and exited 0 with no output at all (forks 0), or the fork did (forks 1).
      const { code, stdout, stderr } = await runCli(
        "--suite",
        fixtures,
        "Never",
        ...tiny,
        "-f",
        forks,
      );
      expect(code).toBe(1);
      expect(stderr).toContain(
        "Never.b_never failed: the process ran out of work while a promise it awaited was pending: it never settled",
      );
      expect(stdout).toMatch(/Never\.a_works[\s\S]*Never\.c_works/);
    },
  );

  it.each(["0", "1"])(
    "gives up on a trial (forks %s) with no iteration finished within the timeout (-to), and reports the others",
    async (forks) => {
      // A live timer kept the process waiting for ever: nothing ended it but a signal.
      const { code, stdout, stderr } = await runCli(
        "--suite",
        fixtures,
        "Stuck",
        ...tiny,
        "-f",
        forks,
        "-to",
        "300ms",
      );
      expect(code).toBe(1);
      expect(stderr).toContain(
        "Stuck.b_pending failed: timed out: nothing finished within 300 ms past a 2 ms iteration (the timeout, -to), before its first iteration finished",
      );
      if (forks === "1") expect(stderr).toMatch(/; the fork \(pid \d+\) was killed/);
      expect(stdout).toMatch(/Stuck\.a_works[\s\S]*Stuck\.c_works/);
    },
  );

  it("kills a fork spinning in a synchronous benchmark, naming the last iteration that finished", async () => {
    const { code, stdout, stderr } = await runCli(
      "--suite",
      fixtures,
      "Forever",
      ...tiny,
      "--timeout",
      "0.3s",
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /Forever\.b_spins failed: timed out: nothing finished within 300 ms past a 2 ms iteration \(the timeout, -to\), after warmup iteration 1 of 1; the fork \(pid \d+\) was killed/,
    );
    expect(stdout).toMatch(/Forever\.a_works[\s\S]*Forever\.c_works/);
  });

  it.each([
    ["0", 'bad timeout "0"'],
    ["3000000", "timeout must be > 0 ms and at most 2147483647 ms (24 days), got 3000000000"],
    ["soon", 'bad timeout "soon": use a time like 30s, 500ms or 10min'],
    ["1000ops", 'bad timeout "1000ops"'],
  ])("rejects -to %s", async (value, message) => {
    const { code, stderr } = await runCli("--suite", fixtures, "Stuck", ...tiny, "-to", value);
    expect(code).toBe(1);
    expect(stderr).toContain(message);
    expect(stderr).toContain("(ERR_BENCH_BAD_OPTION)");
  });

  it("stops a trial it gave up on, should its promise settle after all (an unref'd timer): no hooks run during the next benchmark", async () => {
    const script = `import { defineSuite, runBenchmarks } from ${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)};
const log = [];
const suite = defineSuite({
  name: "S",
  options: { warmup: { iterations: 1, time: 20 }, measurement: { iterations: 3, time: 20 }, forks: 0 },
  setup: { iteration: () => log.push("setup") },
  teardown: { iteration: () => log.push("teardown"), trial: () => log.push("trial teardown") },
  benchmarks: {
    a_unref: async () => { await new Promise((r) => setTimeout(r, 2).unref()); },
    b_ref: async () => { await new Promise((r) => setTimeout(r, 2)); },
  },
});
const report = await runBenchmarks([suite]);
const count = (e) => log.filter((x) => x === e).length;
console.log(JSON.stringify({
  failed: report.failures.map((f) => f.benchmark + ": " + f.error.message),
  results: report.results.map((r) => r.benchmark),
  hooks: [count("setup"), count("teardown"), count("trial teardown")],
  listeners: process.listenerCount("beforeExit"),
}));`;
    const { execFileSync } = await import("node:child_process");
    const out = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }),
    );
    expect(out).toEqual({
      failed: [
        "S.a_unref: the process ran out of work while a promise it awaited was pending: it never settled",
      ],
      results: ["S.b_ref"],
      // a: its first setup only (its teardowns would have run during b's measurement); b: 4 iterations and its trial.
      hooks: [5, 4, 1],
      listeners: 0,
    });
  });

  it("writes --json and --chart when nothing produced a result: a stale file would read as this run's", async () => {
    const json = join(dir, "empty.json");
    const svg = join(dir, "empty.svg");
    writeFileSync(json, '["stale"]');
    writeFileSync(svg, "stale");
    const { code, stdout } = await runCli(
      "--suite",
      fixtures,
      "Throwing",
      ...tiny,
      "--json",
      json,
      "--chart",
      svg,
    );
    expect(code).toBe(1);
    expect(stdout).toContain("No results");
    expect(parseJmhJson(readFileSync(json, "utf8"))).toEqual([]);
    expect(readFileSync(svg, "utf8")).toMatch(/^<\?xml[\s\S]*<\/svg>\n$/);
  });

  it("goes on quietly when its reader goes away (`| head`), and still writes --json", async () => {
    const { spawn } = await import("node:child_process");
    const json = join(dir, "piped.json");
    const child = spawn(
      process.execPath,
      [
        fileURLToPath(new URL("../dist/cli.js", import.meta.url)),
        "--suite",
        sumExample,
        ...tiny,
        "-f",
        "0",
        "--json",
        json,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout.destroy(); // the reader is gone before the table is printed
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    // It died of an uncaught EPIPE, with its stack.
    expect(stderr).not.toMatch(/EPIPE/);
    expect(code).toBe(0);
    expect(parseJmhJson(readFileSync(json, "utf8")).length).toBeGreaterThan(0);
  });

  it("fails clearly when nothing matches the filter", async () => {
    const { code, stderr } = await runCli("NoSuchSuite");
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /no benchmark matches \/NoSuchSuite\/ \(suites: .*Harness.*\) \(ERR_BENCH_NO_MATCH\)/,
    );
  });

  it("fails clearly for a suite module that does not exist", async () => {
    const { code, stderr } = await runCli("--suite", join(dir, "missing.mjs"));
    expect(code).toBe(1);
    expect(stderr).toContain("cannot load suite module");
    expect(stderr).toContain("ERR_BENCH_BAD_SUITE");
  });

  it.each([
    [["-p", "type"], /malformed param "type": expected name=value/],
    [["-p", "type="], /malformed param "type="/],
    [["-p", "type=Int32,"], /malformed param "type=Int32,"/],
    [["-p", "size=abc"], /param size of suite Sum takes finite numbers, got "abc"/],
    [["-p", "nosuch=1"], /no selected benchmark has a param named "nosuch"/],
    [["-f", "two"], /forks must be an integer >= 0, got "two"/],
    [["-r", "fast"], /bad iteration length "fast"/],
    [["--mode", "fastest"], /argument 'fastest' is invalid/],
  ])("rejects bad input %j", async (args, message) => {
    const { code, stderr } = await runCli("--list", "--suite", sumExample, ...args);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
  });

  it("compares two result files and two benchmarks of one file", async () => {
    const a = join(dir, "a.json");
    const b = join(dir, "b.json");
    expect((await runCli("^Harness\\.", ...tiny, "--json", a)).code).toBe(0);
    expect((await runCli("^Harness\\.", ...tiny, "--json", b)).code).toBe(0);
    const files = await runCli("compare", a, b, "--chart", join(dir, "cmp.svg"));
    expect(files.code).toBe(0);
    expect(files.stdout).toMatch(/Harness\.empty\s+avgt\s+.*ns\/op\s+[\d.]+x/);
    expect(readFileSync(join(dir, "cmp.svg"), "utf8")).toContain(`baseline: ${a}`);
    const pair = await runCli("compare", `${a}#empty`, `${a}#constant`);
    expect(pair.code).toBe(0);
    expect(pair.stdout).toContain("Harness.empty vs constant");
    const missing = await runCli("compare", a, join(dir, "nope.json"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read");
  });

  it("skips an unavailable benchmark with a visible message and still succeeds", async () => {
    const suite = join(dir, "skip.bench.mjs");
    const dist = new URL("../dist/index.js", import.meta.url).href;
    writeFileSync(
      suite,
      `import { defineSuite } from ${JSON.stringify(dist)};
export default defineSuite({
  name: "Skip",
  benchmarks: {
    present: () => 1,
    missing: { run: () => 2, unavailable: () => "nothing here" },
  },
});
`,
    );
    const { code, stdout, stderr } = await runCli("--suite", suite, ...tiny);
    expect(code).toBe(0);
    expect(stderr).toContain("skipped Skip.missing: nothing here");
    expect(stdout).toMatch(/Skip\.present\s+avgt\s+3/);
    expect(stdout).not.toContain("Skip.missing");
  });
});
