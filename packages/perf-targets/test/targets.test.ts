import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildResult,
  loadSuiteModule,
  planBenchmarks,
  resolveOptions,
  toJmhJson,
} from "@rafkit/bench";
import { afterAll, describe, expect, it } from "vitest";
import { suiteModules } from "../src/suites";
import {
  evaluateTargets,
  exactFilter,
  formatTargets,
  TARGET_FORKS,
  TARGET_GROUPS,
  TARGETS,
  targetBenchmarks,
  targetRuns,
} from "../src/targets";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-targets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A result whose every iteration scored `score` (so the mean is exactly `score`). */
function result(
  benchmark: string,
  score: number,
  params: Record<string, string | number> = {},
  options: Parameters<typeof resolveOptions>[0] = {},
) {
  return buildResult(benchmark, params, resolveOptions({ unit: "ns" }, options), [
    [score, score, score],
  ]);
}

describe("targets", () => {
  it("divide the named scores, pair them by params, and compare with the goal in the right direction", () => {
    const results = [
      result("CaptureStateUtil.rawSuccess", 100),
      result("CaptureStateUtil.tlSuccess", 104), // 1.04 <= 1.05: PASS
      result("CaptureStateUtil.tlFail", 130), // 130/104 = 1.25 > 1.2: FAIL
      result("CaptureStateUtil.nodeThrowFail", 1300), // 1300/130 = 10 >= 10: PASS
      result("BackendPread.native", 300),
      result("BackendPread.node", 300), // 1.0, not > 1: FAIL
    ];
    const outcomes = evaluateTargets(results, ["syscall-state"]);
    expect(outcomes.map((o) => [o.target.text, o.value, o.verdict])).toEqual([
      ["tlSuccess within 1.05x of the raw call", 1.04, "PASS"],
      ["tlFail within 1.2x of tlSuccess", 1.25, "FAIL"],
      ["tlFail at least 10x faster than Node's throw/catch", 10, "PASS"],
      ["4-byte pread: native faster than node backend", 1, "FAIL"],
    ]);
  });

  it("pair ratio targets per parameter combination, converting units, and say n/a for a missing side", () => {
    const results = [
      result("RafRead.buffered", 2, { op: "readInt", kiloBytes: 1 }, { unit: "us" }),
      result("RafRead.jdkBulk", 150_000, { op: "readInt", kiloBytes: 1 }), // ns: 75x the buffered 2 us
      result("RafRead.buffered", 10, { op: "readInt", kiloBytes: 5 }, { unit: "us" }),
    ];
    const outcomes = evaluateTargets(results, ["raf"]).filter(
      (o) => o.target.text === "buffered reads at least 50x faster than JDK one-call-per-primitive",
    );
    expect(outcomes).toHaveLength(2);
    expect(outcomes[0]).toMatchObject({
      params: "op=readInt,kiloBytes=1",
      value: 75,
      verdict: "PASS",
    });
    expect(outcomes[1]).toMatchObject({
      params: "op=readInt,kiloBytes=5",
      verdict: "n/a",
      note: "RafRead.jdkBulk: no result",
    });
    expect(outcomes[1]!.value).toBeNaN();
  });

  it("pair ratio sides whatever order their params are listed in", () => {
    // A file edited or written by another tool may list the params in another order.
    const results = [
      result("RafRead.jdkBulk", 150_000, { op: "readInt", kiloBytes: 1 }),
      result("RafRead.buffered", 2_000, { kiloBytes: 1, op: "readInt" }),
    ];
    const outcomes = evaluateTargets(results, ["raf"]).filter(
      (o) => o.target.text === "buffered reads at least 50x faster than JDK one-call-per-primitive",
    );
    expect(outcomes.map((o) => [o.params, o.value, o.verdict])).toEqual([
      ["op=readInt,kiloBytes=1", 75, "PASS"],
    ]);
  });

  it("never pass on a score of 0: a ratio or rate of 0 or Infinity is n/a", () => {
    const zero = (b: string, params: Record<string, string | number> = {}) =>
      buildResult(b, params, resolveOptions({ unit: "ns" }), [[0, 0, 0]]);
    const outcomes = evaluateTargets(
      [
        result("CaptureStateUtil.nodeThrowFail", 1000),
        zero("CaptureStateUtil.tlFail"), // 1000 / 0 = Infinity would pass ">= 10"
        zero("CaptureStateUtil.tlSuccess"), // 0 / 100 = 0 would pass "<= 1.05"
        result("CaptureStateUtil.rawSuccess", 100),
        zero("BitsModifiedUtf8.modifiedUtf8", { length: 16 }), // 16 B in 0 ns = Infinity MB/s
      ],
      ["syscall-state", "bits"],
    );
    const byText = (t: string) => outcomes.find((o) => o.target.text.startsWith(t))!;
    for (const t of ["tlFail at least 10x", "tlSuccess within 1.05x", "ASCII modified-UTF-8"]) {
      expect(byText(t).verdict).toBe("n/a");
      expect(byText(t).note).toMatch(/0 or infinite/);
    }
    expect(formatTargets(outcomes)).toMatch(/0 PASS, /);
  });

  it("make no pair when a side has two results (two runs' files): n/a, not the first found", () => {
    const outcomes = evaluateTargets(
      [
        result("BackendPread.node", 500),
        result("BackendPread.native", 200),
        result("BackendPread.native", 900),
      ],
      ["syscall-state"],
    ).filter((o) => o.target.text.startsWith("4-byte pread"));
    expect(outcomes).toMatchObject([
      { verdict: "n/a", note: "BackendPread.native: 2 results; give one run's" },
    ]);
  });

  it("read rates from the bandwidth metric or from the params", () => {
    const results = [
      result("RafBulk.readInts", 0, {}, {}),
      result("BitsModifiedUtf8.modifiedUtf8", 2, { length: 1024 }), // 1024 B in 2 ns = 512 GB/s
      result("BitsModifiedUtf8.modifiedUtf8", 100, { length: 16 }), // 16 B / 100 ns = 160 MB/s
    ];
    results[0] = buildResult(
      "RafBulk.readInts",
      {},
      resolveOptions({ unit: "us", bytesPerOperation: 1 << 20 }),
      [[1048.576, 1048.576, 1048.576]], // 1 MiB in 1048.576 us = 1 GB/s exactly
    );
    const byText = (t: string) =>
      evaluateTargets(results).filter((o) => o.target.text.startsWith(t));
    expect(byText("bulk readInts")).toMatchObject([{ verdict: "PASS" }]);
    expect(byText("bulk readInts")[0]!.value).toBeCloseTo(1, 12);
    const utf8 = byText("ASCII modified-UTF-8");
    expect(utf8.map((o) => [o.params, Math.round(o.value), o.verdict])).toEqual([
      ["length=1024", 512_000, "PASS"],
      ["length=16", 160, "FAIL"],
    ]);
    expect(byText("bulk BE Int32")).toMatchObject([{ verdict: "n/a" }]);
  });

  it("print a table with each target's value, goal and verdict, and a summary", () => {
    const text = formatTargets(
      evaluateTargets(
        [
          result("RafAsync.asyncBuffered", 10, { op: "readInt", kiloBytes: 1 }),
          result("RafAsync.syncBuffered", 2, { op: "readInt", kiloBytes: 1 }),
        ],
        ["raf-async"],
      ),
    );
    expect(text).toMatch(
      /async buffered within 3x of sync buffered\s+asyncBuffered \/ syncBuffered\s+op=readInt,kiloBytes=1\s+5\.00x\s+<= 3x\s+FAIL/,
    );
    expect(text).toMatch(/n\/a \(RafAsync\.fileHandle: no result\)/);
    expect(text).toMatch(/0 PASS, 1 FAIL, 2 n\/a$/);
  });

  it("name only benchmarks that the built-in suites declare, and select exactly them", async () => {
    const suites = (
      await Promise.all(TARGET_GROUPS.flatMap(suiteModules).map((m) => loadSuiteModule(m)))
    ).flat();
    const ids = targetBenchmarks(TARGET_GROUPS);
    expect(ids).toContain("RafRead.jdkBulk");
    const planned = new Set(planBenchmarks(suites, { filter: exactFilter(ids) }).map((p) => p.id));
    expect([...planned].sort()).toEqual([...ids].sort());
    expect(new RegExp(exactFilter(["A.b"])).test("A.bc")).toBe(false);
    expect(TARGETS.every((t) => TARGET_GROUPS.includes(t.group))).toBe(true);
  });

  it("run each benchmark once, with the most forks any of its targets asks for, unless -f says", () => {
    const runs = targetRuns(["bits"]);
    expect(runs.map((r) => r.forks)).toEqual([TARGET_FORKS, 6]);
    expect(runs[1]?.benchmarks.sort()).toEqual(["BitsSet.bigEndian", "BitsSet.dataView"]);
    expect(runs[0]?.benchmarks).toContain("BitsGet.dataView");
    const all = runs.flatMap((r) => r.benchmarks);
    expect(all.sort()).toEqual(targetBenchmarks(["bits"]).sort()); // each once
    expect(targetRuns(["syscall-state"]).map((r) => r.forks)).toEqual([TARGET_FORKS]);
    const given = targetRuns(TARGET_GROUPS, 3);
    expect(given).toEqual([{ forks: 3, benchmarks: targetBenchmarks(TARGET_GROUPS) }]);
  });
});

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("perf-targets", () => {
  it("evaluates saved results with --from, and --strict fails on a miss", async () => {
    const file = join(dir, "saved.json");
    writeFileSync(
      file,
      toJmhJson([
        result("BackendPread.native", 200),
        result("BackendPread.node", 500),
        result("CaptureStateUtil.tlSuccess", 100),
        result("CaptureStateUtil.rawSuccess", 50),
      ]),
    );
    const plain = await run("syscall-state", "--from", file);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/node \/ native\s+2\.50x\s+> 1x\s+PASS/);
    expect(plain.stdout).toMatch(/tlSuccess \/ rawSuccess\s+2\.00x\s+<= 1\.05x\s+FAIL/);
    const strict = await run("syscall-state", "--from", file, "--strict");
    expect(strict.code).toBe(1);
  });

  it("runs the benchmarks of a group in one run and prints their table before the targets", async () => {
    const json = join(dir, "run.json");
    const { code, stdout } = await run(
      "syscall-state",
      "-f",
      "1",
      "-wi",
      "0",
      "-i",
      "3",
      "-r",
      "2ms",
      "--json",
      json,
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Benchmark\s+Mode\s+Cnt\s+Score/);
    expect(stdout).toMatch(/CaptureStateUtil\.tlFail\s+avgt\s+3/);
    expect(stdout).not.toMatch(/explicitSuccess/); // only what the targets need
    expect(stdout).toMatch(/\d+ PASS, \d+ FAIL, 0 n\/a/);
  });

  it("rejects run options with --from, where nothing runs, instead of ignoring them", async () => {
    const file = join(dir, "from-only.json");
    writeFileSync(file, toJmhJson([result("BackendPread.native", 200)]));
    for (const extra of [
      ["-f", "3"],
      ["-i", "9"],
      ["-r", "1s"],
      ["--json", join(dir, "x.json")],
    ]) {
      const { code, stderr } = await run("syscall-state", "--from", file, ...extra);
      expect(code).toBe(1);
      expect(stderr).toMatch(/option '--from <file>' cannot be used with option/);
    }
  });

  it("rejects an unknown group", async () => {
    const { code, stderr } = await run("nope");
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /unknown target group "nope"; use bits, syscall-state, raf, raf-async or all/,
    );
  });
});
