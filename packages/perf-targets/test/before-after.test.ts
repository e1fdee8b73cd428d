import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type BenchmarkResult,
  buildResult,
  parseJmhJson,
  resolveOptions,
  toJmhJson,
} from "@rafkit/bench";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BeforeAfterRow,
  compareTargets,
  DEFAULT_NOISE,
  formatBeforeAfter,
  formatChange,
  markdownBeforeAfter,
} from "../src/before-after";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const docs = (file: string) => fileURLToPath(new URL(`../docs/${file}`, import.meta.url));
/** A saved run of every group but kv (2 forks x 5 iterations, under load: wide CIs). */
const saved = () => parseJmhJson(readFileSync(docs("targets.json"), "utf8"));
/** A saved `rafkv bench` run. */
const savedKv = () => parseJmhJson(readFileSync(docs("targets-kv.json"), "utf8"));
const dir = mkdtempSync(join(tmpdir(), "rafkit-before-after-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `results` with the primary score (and bandwidth) of one benchmark scaled by `factor`. */
function scaled(
  results: BenchmarkResult[],
  benchmark: string,
  params: Record<string, string> | undefined,
  factor: number,
): BenchmarkResult[] {
  const same = (r: BenchmarkResult) =>
    r.benchmark === benchmark && JSON.stringify(r.params) === JSON.stringify(params);
  if (!results.some(same)) throw new Error(`no ${benchmark} in the fixture`);
  return results.map((r) => {
    if (!same(r)) return r;
    const m = r.primaryMetric;
    const bw = r.secondaryMetrics["·bandwidth"];
    return {
      ...r,
      primaryMetric: { ...m, score: m.score * factor, scoreError: m.scoreError * factor },
      secondaryMetrics: bw
        ? { "·bandwidth": { ...bw, score: bw.score / factor, scoreError: bw.scoreError / factor } }
        : r.secondaryMetrics,
    };
  });
}

const row = (rows: BeforeAfterRow[], name: string, params = "") =>
  rows.find((r) => r.target.name === name && r.params === params);

/** A result whose iterations are `scores` (one fork). */
const result = (benchmark: string, scores: number[], params: Record<string, string> = {}) =>
  buildResult(benchmark, params, resolveOptions({ unit: "ns" }), [scores]);

describe("compareTargets on saved runs", () => {
  it("finds every target the same when both builds gave the same run, n/a where the run lacks a side", () => {
    const rows = compareTargets(saved(), saved(), ["bits", "syscall-state", "raf", "raf-async"]);
    const judged = rows.filter((r) => r.movement !== "n/a");
    expect(judged.length).toBeGreaterThan(40);
    for (const r of judged) {
      expect(r.change).toBe(1);
      expect(r.movement).toBe("same");
      expect(r.noise).toBe("ci"); // that run's CIs are all wider than the 5% floor
    }
    // The saved run predates BitsSet.floor: every pairing of that target is n/a on both sides, with why.
    const set = rows.filter((r) => r.target.name === "bits-set-near-floor");
    expect(set.map((r) => r.movement)).toEqual(["n/a", "n/a", "n/a", "n/a", "n/a"]);
    expect(set[0]!.note).toBe("before: BitsSet.floor: no result; after: BitsSet.floor: no result");
    expect(formatBeforeAfter(rows)).toMatch(
      new RegExp(
        `\\n0 better, ${judged.length} same, 0 worse beyond noise, ${rows.length - judged.length} n/a$`,
      ),
    );
  });

  it("reads each target in its own direction: a ratio the goal wants low got worse when it rose", () => {
    const before = saved();
    // bigEndian 3x slower: bits-get-near-dataview (<= 1.5x) 3x worse, beyond its CI (±122%).
    const after = scaled(before, "BitsGet.bigEndian", { type: "Int32" }, 3);
    const rows = compareTargets(before, after, ["bits"]);
    const get = row(rows, "bits-get-near-dataview", "type=Int32")!;
    expect(get.change).toBeCloseTo(1 / 3, 12);
    expect(get.threshold).toBeCloseTo(Math.hypot(get.before!.error!, get.after!.error!), 12);
    expect(get.movement).toBe("worse beyond noise");
    expect(formatChange(get.change)).toBe("-200.0%");
    expect(row(rows, "bits-get-near-dataview", "type=Int16")!.movement).toBe("same");
  });

  it("finds a rate better when it rose beyond its CI, and kv's throughput ratios better when rafkv's rose", () => {
    const before = saved();
    const after = scaled(before, "BitsBulkDecode.decodeArray", undefined, 1 / 3); // 3x the GB/s
    const bulk = row(compareTargets(before, after, ["bits"]), "bits-bulk-decode-rate")!;
    expect(bulk.change).toBeCloseTo(3, 12);
    expect(bulk.movement).toBe("better");
    // rafkv's B phase at twice the ops/s: lmdb's time per op over rafkv's doubles (>= 1x: better), within
    // its CI of 5 iterations (±66% and more), so the same.
    const kv = compareTargets(savedKv(), scaled(savedKv(), "ycsb.B", { engine: "rafkv" }, 2), [
      "kv",
    ]);
    const b = row(kv, "kv-reads-match-lmdb", "B")!;
    expect(b.change).toBeCloseTo(2, 12);
    expect(b.movement).toBe("same");
    expect(row(kv, "kv-reads-match-lmdb", "C")!.change).toBe(1);
  });
});

describe("compareTargets' noise rule", () => {
  // capture-fail-beats-throw: throwCatch / tlFail >= 10x, so higher is better.
  const run = (tlFail: number[], throwCatch: number[]) => [
    result("CaptureStateUtilBench.tlFail", tlFail, { impl: "rafkit" }),
    result("NodeErrno.throwCatch", throwCatch),
  ];
  const tight = (x: number) => [x, x, x, x, x];
  const verdict = (before: BenchmarkResult[], after: BenchmarkResult[]) =>
    row(compareTargets(before, after, ["syscall-state"]), "capture-fail-beats-throw")!;

  it("never counts less than the 5% floor, however tight the CIs", () => {
    const base = run(tight(100), tight(2000)); // 20x
    const slightly = verdict(base, run(tight(104), tight(2000))); // 19.2x: 4% worse
    expect(slightly).toMatchObject({ movement: "same", noise: "floor", threshold: 0.05 });
    expect(formatChange(slightly.change)).toBe("-4.0%");
    expect(verdict(base, run(tight(106), tight(2000))).movement).toBe("worse beyond noise");
    expect(verdict(base, run(tight(94), tight(2000))).movement).toBe("better");
  });

  it("widens to the CIs combined when they are wider than the floor", () => {
    const noisy = [80, 120, 100, 90, 110]; // ±27% at 99.9%
    const v = verdict(
      run(noisy, tight(2000)),
      run(
        noisy.map((x) => x * 1.2),
        tight(2000),
      ),
    );
    expect(v.noise).toBe("ci");
    expect(v.threshold).toBeGreaterThan(0.3);
    expect(v.movement).toBe("same"); // 20% worse, within the noise
  });

  it("takes 10% where a score has no CI (2 iterations or fewer)", () => {
    const one = (x: number) => [x];
    const v = verdict(run(one(100), one(2000)), run(one(108), one(2000)));
    expect(v).toMatchObject({
      movement: "same",
      noise: "no ci",
      threshold: DEFAULT_NOISE.withoutCi,
    });
    expect(verdict(run(one(100), one(2000)), run(one(112), one(2000))).movement).toBe(
      "worse beyond noise",
    );
  });

  it("gives n/a with the run's reason when the base could not run a benchmark", () => {
    const after = run(tight(100), tight(2000));
    const rows = compareTargets([after[1]!], after, ["syscall-state"], {
      beforeNotes: new Map([
        ["CaptureStateUtilBench.tlFail", "failed: adaptSystemCall is not a function"],
      ]),
    });
    const v = row(rows, "capture-fail-beats-throw")!;
    expect(v.movement).toBe("n/a");
    expect(v.after?.verdict).toBe("PASS");
    expect(v.note).toBe(
      "before: CaptureStateUtilBench.tlFail: failed: adaptSystemCall is not a function",
    );
    expect(formatBeforeAfter(rows)).toMatch(
      /n\/a \(before: CaptureStateUtilBench\.tlFail: failed:/,
    );
  });

  it("pairs every pairing of a build with the other build's n/a when that one has no result at all", () => {
    const before = saved().filter((r) => !r.benchmark.startsWith("BitsGet.bigEndian"));
    const rows = compareTargets(before, saved(), ["bits"]).filter(
      (r) => r.target.name === "bits-get-near-dataview",
    );
    expect(rows.map((r) => r.params)).toEqual([
      "type=Int16",
      "type=Int32",
      "type=Int64",
      "type=Float32",
      "type=Float64",
    ]);
    for (const r of rows) expect(r.note).toBe("before: BitsGet.bigEndian: no result");
  });
});

describe("markdownBeforeAfter", () => {
  it("writes one table row per pairing, escaping pipes, with the rule and the counts under it", () => {
    const rows = compareTargets(saved(), saved(), ["raf"]);
    const text = markdownBeforeAfter(rows, ["Before: e1dec15; after: HEAD."]);
    const lines = text.split("\n");
    expect(lines[0]).toBe("Before: e1dec15; after: HEAD.");
    expect(lines[2]).toBe("| Target | Pairing | Before | After | Change | Noise | Verdict |");
    expect(lines.filter((l) => l.startsWith("| buffered-reads-near-floor |"))).toHaveLength(6);
    // A note naming alternatives (jdk25|jdk17Emulated) stays in its cell.
    for (const l of lines.filter((l) => l.startsWith("| "))) {
      expect(l.replace(/\\\|/g, "").split("|")).toHaveLength(9);
    }
    expect(text).toMatch(/\*\*\d+ better, \d+ same, 0 worse beyond noise, \d+ n\/a\*\*\n$/);
  });
});

function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { env: { ...process.env, NO_COLOR: "1" }, cwd: dir },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("perf-targets compare", () => {
  it("compares two saved runs, writes the markdown with --out, and --strict fails on a worse target", async () => {
    const before = join(dir, "before.json");
    const after = join(dir, "after.json");
    writeFileSync(before, toJmhJson(saved()));
    writeFileSync(after, toJmhJson(scaled(saved(), "BitsGet.bigEndian", { type: "Int32" }, 3)));
    const out = join(dir, "table.md");
    const plain = await runCli(
      "compare",
      "bits",
      "--from-before",
      before,
      "--from-after",
      after,
      "--out",
      out,
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(
      /bits-get-near-dataview\s+type=Int32\s+1\.00x\s+2\.99x\s+-200\.0%\s+±121\.7% \(CI\)\s+worse beyond noise/,
    );
    expect(plain.stdout).toMatch(/0 better, 6 same, 1 worse beyond noise, 6 n\/a/);
    expect(readFileSync(out, "utf8")).toMatch(
      /^Before: `.*before\.json`; after: `.*after\.json`\.\n\n\| Target \|/,
    );
    const strict = await runCli(
      "compare",
      "bits",
      "--from-before",
      before,
      "--from-after",
      after,
      "--strict",
    );
    expect(strict.code).toBe(1);
    // As `pnpm bench:before-after -- ...` passes it: the `--` pnpm keeps is dropped.
    const viaPnpm = await runCli(
      "compare",
      "--",
      "--from-before",
      before,
      "--from-after",
      after,
      "bits",
    );
    expect(viaPnpm.code).toBe(0);
    expect(viaPnpm.stdout).toMatch(/0 better, 6 same, 1 worse beyond noise, 6 n\/a/);
  });

  it("refuses run options with saved runs, a lone --from-before, and no --base", async () => {
    const file = join(dir, "lone.json");
    writeFileSync(file, toJmhJson(saved()));
    const withForks = await runCli(
      "compare",
      "--from-before",
      file,
      "--from-after",
      file,
      "-f",
      "2",
    );
    expect(withForks.code).toBe(1);
    expect(withForks.stderr).toMatch(/option '--from-before <file>' cannot be used with option/);
    const lone = await runCli("compare", "--from-before", file);
    expect(lone.stderr).toMatch(/--from-before and --from-after go together/);
    const none = await runCli("compare", "bits");
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/give --base <git-ref>/);
    // One line, as every other refusal: it was an uncaught Error and its stack.
    const badRef = await runCli("compare", "--base", "no-such-ref-xyz", "bits");
    expect(badRef.code).toBe(1);
    expect(badRef.stderr).toMatch(/^perf-targets: "no-such-ref-xyz" names no commit in .*\n$/);
  });

  it("refuses a bad run flag in one line before anything runs: each harness run refused it, every target n/a", async () => {
    const targets = await runCli("bits", "-i", "0");
    expect(targets).toMatchObject({ code: 1, stdout: "" });
    expect(targets.stderr).toBe('perf-targets: iterations must be an integer >= 1, got "0"\n');
    // Before the baseline's checkout and build (a bad ref is told after the flags).
    const compare = await runCli("compare", "bits", "--base", "no-such-ref-xyz", "-r", "soon");
    expect(compare.code).toBe(1);
    expect(compare.stderr).toBe(
      'perf-targets compare: bad iteration length "soon": use a time like 1s, 200ms, 500us, or a count like 1000ops\n',
    );
  });

  it("prints the comparison when its --out cannot be written, then fails", async () => {
    const file = join(dir, "both.json");
    writeFileSync(file, toJmhJson(saved()));
    const blocked = join(dir, "a-file");
    writeFileSync(blocked, "");
    const r = await runCli(
      "compare",
      "bits",
      "--from-before",
      file,
      "--from-after",
      file,
      "--out",
      join(blocked, "table.md"),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/0 better, 7 same, 0 worse beyond noise, 6 n\/a/);
    expect(r.stderr).toMatch(/^perf-targets: cannot write .*table\.md: /m);
  });
});
