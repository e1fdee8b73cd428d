import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type BenchmarkResult,
  buildResult,
  loadSuiteModule,
  planBenchmarks,
  resolveOptions,
  toJmhJson,
} from "@rafkit/bench";
import { afterAll, describe, expect, it } from "vitest";
import {
  evaluateTargets,
  exactFilter,
  formatTargets,
  oneResultEach,
  targetBenchmarks,
  targetRuns,
} from "../src/evaluate";
import { suiteModules } from "../src/suites";
import { TARGET_FORKS, TARGET_GROUPS, TARGET_WARMUP, TARGETS } from "../src/targets";

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

const byName = (outcomes: ReturnType<typeof evaluateTargets>, name: string) =>
  outcomes.filter((o) => o.target.name === name);
const capture = (m: string, score: number, impl = "rafkit") =>
  result(`CaptureStateUtilBench.${m}`, score, { impl });

describe("targets", () => {
  it("divide the named scores, pair them by params, and compare with the goal in the right direction", () => {
    const results = [
      capture("rawSuccess", 100),
      capture("tlSuccess", 104), // 1.04 <= 1.05: PASS
      capture("tlFail", 130), // 130/104 = 1.25 > 1.2: FAIL
      result("NodeErrno.throwCatch", 1300), // 1300/130 = 10 >= 10: PASS
      result("BackendPread.native", 300),
      result("BackendPread.node", 300), // 1.0, not > 1: FAIL
    ];
    const outcomes = evaluateTargets(results, ["syscall-state"]);
    expect(outcomes.map((o) => [o.target.name, o.value, o.verdict])).toEqual([
      ["capture-success-near-raw", 1.04, "PASS"],
      ["capture-fail-near-success", 1.25, "FAIL"],
      ["capture-fail-beats-throw", 10, "PASS"],
      ["native-pread-beats-node", 1, "FAIL"],
    ]);
    // The gap: what rafkit's side must lose, in ns per op. 130 - 1.2 x 104 = 5.2; 300 - 300 / 1 = 0.
    expect(outcomes[1]!.gap).toBeCloseTo(5.2, 9);
    expect(outcomes[3]!.gap).toBe(0);
  });

  it("print the peer runtime's ratio beside rafkit's", () => {
    const outcomes = evaluateTargets(
      [
        capture("tlSuccess", 100),
        capture("tlFail", 110),
        capture("tlSuccess", 2, "jdk25"),
        capture("tlFail", 24, "jdk25"),
      ],
      ["syscall-state"],
    );
    const [fail] = byName(outcomes, "capture-fail-near-success");
    expect(fail).toMatchObject({ value: 1.1, peer: 12, verdict: "PASS" });
    expect(byName(outcomes, "capture-success-near-raw")[0]!.verdict).toBe("n/a"); // no raw call ran
    const text = formatTargets(outcomes);
    expect(text).toMatch(/capture-fail-near-success\s+1\.10x\s+<= 1\.2x\s+JDK 25 12\.00x\s+PASS/);
  });

  it("pair seed-shaped sides per method and free params, converting units, with alternatives for a peer", () => {
    const raf = (m: string, impl: string, kiloBytes: number, score: number, unit = "us") =>
      result(`RandomAccessFileBenchmark.${m}`, score, { kiloBytes, impl }, { unit: unit as "us" });
    const results = [
      raf("readInt", "rafkitUnbuffered", 1, 100),
      raf("readInt", "jdk25", 1, 90_000, "ns"), // 100 us / 90 us = 1.11 <= 1.25
      raf("readLong", "rafkitUnbuffered", 1, 100),
      raf("readLong", "jdk17Emulated", 1, 50), // the fallback peer: 2x > 1.25
      raf("readInt", "rafkitUnbuffered", 5, 100),
    ];
    const outcomes = byName(evaluateTargets(results, ["raf"]), "unbuffered-native-near-jdk25");
    expect(outcomes.map((o) => [o.params, Number(o.value.toFixed(3)), o.verdict])).toEqual([
      ["readInt,kiloBytes=1", 1.111, "PASS"],
      ["readLong,kiloBytes=1", 2, "FAIL"],
      ["readInt,kiloBytes=5", Number.NaN, "n/a"],
    ]);
    expect(outcomes[1]!.gap).toBeCloseTo((100 - 1.25 * 50) * 1000, 6); // in ns
    expect(outcomes[2]!.note).toBe(
      "RandomAccessFileBenchmark.*{impl=jdk25|jdk17Emulated}: no result",
    );
  });

  it("pair ratio sides whatever order their params are listed in", () => {
    const results = [
      result("RandomAccessFileReadBenchmark.readInt", 1000, { impl: "jdk25", kiloBytes: 1 }),
      result("RandomAccessFileReadBenchmark.readInt", 100, { kiloBytes: 1, impl: "rafkit" }),
    ];
    const outcomes = byName(evaluateTargets(results, ["raf"]), "open-read-close-beats-jdk25");
    expect(outcomes.map((o) => [o.params, o.value, o.verdict])).toEqual([
      ["readInt,kiloBytes=1", 10, "PASS"],
    ]);
  });

  it("never pass on a score of 0: a ratio or rate of 0 or Infinity is n/a", () => {
    const zero = (b: string, params: Record<string, string | number> = {}) =>
      buildResult(b, params, resolveOptions({ unit: "ns" }), [[0, 0, 0]]);
    const outcomes = evaluateTargets(
      [
        result("NodeErrno.throwCatch", 1000),
        zero("CaptureStateUtilBench.tlFail", { impl: "rafkit" }), // 1000 / 0 = Infinity would pass ">= 10"
        zero("CaptureStateUtilBench.tlSuccess", { impl: "rafkit" }), // 0 / 100 = 0 would pass "<= 1.05"
        capture("rawSuccess", 100),
        zero("BitsModifiedUtf8.modifiedUtf8", { length: 1024 }), // 1 KiB in 0 ns = Infinity MB/s
      ],
      ["syscall-state", "bits"],
    );
    for (const name of [
      "capture-fail-beats-throw",
      "capture-success-near-raw",
      "bits-utf8-decode-rate",
    ]) {
      expect(byName(outcomes, name)[0]!.verdict).toBe("n/a");
      expect(byName(outcomes, name)[0]!.note).toMatch(/0 or infinite/);
    }
    expect(formatTargets(outcomes)).toMatch(/0 PASS, /);
  });

  it("make no pair when a side has two results (two runs' files): n/a, not the first found", () => {
    const outcomes = byName(
      evaluateTargets(
        [
          result("BackendPread.node", 500),
          result("BackendPread.native", 200),
          result("BackendPread.native", 900),
        ],
        ["syscall-state"],
      ),
      "native-pread-beats-node",
    );
    expect(outcomes).toMatchObject([
      { verdict: "n/a", note: "BackendPread.native: 2 results; give one run's" },
    ]);
  });

  it("read rates from the bandwidth metric or from the params, with the gap of a slow one", () => {
    const results = [
      buildResult(
        "RafBulk.readInts",
        {},
        resolveOptions({ unit: "us", bytesPerOperation: 1 << 20 }),
        [
          [1048.576, 1048.576, 1048.576], // 1 MiB in 1048.576 us = 1 GB/s exactly
        ],
      ),
      result("BitsModifiedUtf8.modifiedUtf8", 10_000, { length: 1024 }), // 1024 B / 10 us = 102.4 MB/s
      // The 16-byte decode is a ratio to TextDecoder, not a rate.
      result("BitsModifiedUtf8.modifiedUtf8", 100, { length: 16 }),
      result("BitsModifiedUtf8.textDecoder", 150, { length: 16 }),
      result("BitsModifiedUtf8.bufferLatin1", 130, { length: 16 }),
    ];
    const outcomes = evaluateTargets(results, TARGET_GROUPS);
    const bulk = byName(outcomes, "bulk-read-rate");
    expect(bulk).toMatchObject([{ verdict: "PASS" }]);
    expect(bulk[0]!.value).toBeCloseTo(1, 12);
    const utf8 = byName(outcomes, "bits-utf8-decode-rate");
    expect(utf8.map((o) => [o.params, o.value, o.verdict])).toEqual([["", 102.4, "FAIL"]]);
    // 1 KiB at 300 MB/s takes 3413.3 ns: 10000 - 3413.3 ns to cut.
    expect(utf8[0]!.gap).toBeCloseTo(10_000 - 1024 / 0.3, 9);
    expect(byName(outcomes, "bits-utf8-short-beats-native")).toMatchObject([
      { value: 1.5, verdict: "PASS" },
    ]);
    expect(byName(outcomes, "bits-bulk-decode-rate")).toMatchObject([{ verdict: "n/a" }]);
  });

  it("judge rafkv against lmdb and classic-level on rafkv bench's throughputs (ops/s)", () => {
    const ycsb = (phase: string, engine: string, opsPerSecond: number) =>
      buildResult(`ycsb.${phase}`, { engine }, resolveOptions({ mode: "thrpt", unit: "s" }), [
        [opsPerSecond, opsPerSecond, opsPerSecond],
      ]);
    const outcomes = evaluateTargets(
      [
        ycsb("C", "rafkv", 3_000_000),
        ycsb("C", "lmdb", 1_000_000),
        ycsb("C", "classic-level", 500_000),
        ycsb("load", "rafkv", 200_000),
        ycsb("load", "lmdb", 250_000),
      ],
      ["kv"],
    );
    const got = (name: string) =>
      byName(outcomes, name).map((o) => [o.params, Number(o.value.toFixed(2)), o.verdict]);
    expect(got("kv-reads-match-lmdb")).toEqual([["C", 3, "PASS"]]);
    expect(got("kv-reads-beat-classic-level")).toEqual([["C", 6, "PASS"]]);
    expect(got("kv-writes-match-lmdb")).toEqual([["load", 0.8, "FAIL"]]);
    // rafkv's load: 5000 ns per op against lmdb's 4000: 1000 ns to cut.
    expect(byName(outcomes, "kv-writes-match-lmdb")[0]!.gap).toBeCloseTo(1000, 6);
  });

  it("print a table, every FAIL with its floor and gap, and a PASS/FAIL count", () => {
    const text = formatTargets(
      evaluateTargets(
        [
          result("RafAsync.asyncBuffered", 10, { op: "readInt", kiloBytes: 1 }),
          result("RafAsync.awaitPerInt", 2, { op: "readInt", kiloBytes: 1 }),
        ],
        ["raf-async"],
      ),
    );
    expect(text).toMatch(
      /async-near-await-floor\s+kiloBytes=1,op=readInt\s+5\.00x\s+<= 1\.5x\s+FAIL/,
    );
    expect(text).toMatch(/n\/a \(RafAsync\.fileHandle: no result\)/);
    expect(text).toContain(
      "FAIL async-near-await-floor (kiloBytes=1,op=readInt): async buffered within 1.5x of one await per primitive, reads and writes; floor: a loop awaiting an already-resolved value per int, + one awaited pwrite of the range for writes (awaitPerInt); gap: 7.0 ns/op to cut",
    );
    expect(text).toMatch(/0 PASS, 1 FAIL, 0 CAPPED, 3 n\/a$/);
  });

  it("cap the capture-vs-throw ratio by the bare failing call: CAPPED where even it is under 10x", () => {
    const outcomes = (rawFail: number) =>
      byName(
        evaluateTargets(
          [
            result("NodeErrno.throwCatch", 10_000),
            capture("tlFail", 1600), // 6.25x
            capture("rawFail", rawFail),
          ],
          ["syscall-state"],
        ),
        "capture-fail-beats-throw",
      )[0]!;
    expect(outcomes(1500)).toMatchObject({ value: 6.25, verdict: "CAPPED" }); // the raw call: 6.67x
    expect(outcomes(1500).cap).toBeCloseTo(10_000 / 1500, 9);
    expect(outcomes(900)).toMatchObject({ verdict: "FAIL" }); // the raw call reaches 11.1x: rafkit's miss
    expect(formatTargets([outcomes(1500)])).toMatch(
      /capture-fail-beats-throw\s+6\.25x\s+>= 10x\s+raw call 6\.67x\s+CAPPED/,
    );
  });

  it("say CAPPED, not FAIL, when the floor measured beside misses the goal too, and FAIL when it does not", () => {
    const at = (kiloBytes: number) => ({ op: "writeInt", kiloBytes });
    const outcomes = evaluateTargets(
      [
        // 1 KiB: FileHandle 9000 ns; even the await floor (60) gives only 150x < 200x; rafkit 90 -> 100x.
        result("RafAsync.fileHandle", 9000, at(1)),
        result("RafAsync.awaitPerInt", 60, at(1)),
        result("RafAsync.asyncBuffered", 90, at(1)),
        // 5 KiB: the floor gives 450x, so rafkit's 180x is a FAIL with a gap.
        result("RafAsync.fileHandle", 45000, at(5)),
        result("RafAsync.awaitPerInt", 100, at(5)),
        result("RafAsync.asyncBuffered", 250, at(5)),
      ],
      ["raf-async"],
    );
    const rows = byName(outcomes, "async-beats-filehandle");
    expect(rows.map((o) => [o.params, o.value, o.cap, o.verdict])).toEqual([
      ["kiloBytes=1,op=writeInt", 100, 150, "CAPPED"],
      ["kiloBytes=5,op=writeInt", 180, 450, "FAIL"],
    ]);
    const text = formatTargets(rows);
    expect(text).toMatch(
      /async-beats-filehandle\s+kiloBytes=1,op=writeInt\s+100x\s+>= 200x\s+await floor 150x\s+CAPPED/,
    );
    expect(text).toContain(
      "CAPPED async-beats-filehandle (kiloBytes=1,op=writeInt): async buffered at least 200x faster than FileHandle per int, reads and writes; even the await floor reaches only 150x (goal >= 200x), so no implementation of this shape meets it here; rafkit 100x, 1.50x the await floor's time",
    );
    expect(text).toContain("; await floor reaches 450x; gap: 25.0 ns/op to cut");
    expect(text).toMatch(/0 PASS, 1 FAIL, 1 CAPPED, 0 n\/a$/);
  });

  it("name only benchmarks that the suites declare, and select exactly them", async () => {
    const suites = (
      await Promise.all(
        TARGET_GROUPS.flatMap((g) => suiteModules(g)).map((m) => loadSuiteModule(m)),
      )
    ).flat();
    const suiteGroups = TARGET_GROUPS.filter((g) => g !== "kv"); // kv's come from `rafkv bench`
    const ids = targetBenchmarks(suiteGroups);
    expect(ids).toContain("RandomAccessFileReadBenchmark.readInt");
    const planned = new Set(planBenchmarks(suites, { filter: exactFilter(ids) }).map((p) => p.id));
    expect([...planned].sort()).toEqual([...ids].sort());
    expect(new RegExp(exactFilter(["A.b"])).test("A.bc")).toBe(false);
    expect(new Set(TARGETS.map((t) => t.name)).size).toBe(TARGETS.length);
    expect(TARGETS.every((t) => /^[a-z0-9]+(-[a-z0-9]+)+$/.test(t.name))).toBe(true);
  });

  it("run each target's sides with its forks, the impls it fixes only, and a ratio's sides together", () => {
    const runs = targetRuns(["bits"]);
    expect(runs.map((r) => r.forks)).toEqual([TARGET_FORKS, TARGET_FORKS, 5, 6, 6]);
    expect(runs.at(-1)?.benchmarks.sort()).toEqual([
      "BitsSet.bigEndian",
      "BitsSet.dataView",
      "BitsSet.floor",
    ]);
    // The 1 KiB decode rate at the default forks, the 16-byte ratio's three sides at 5, apart.
    const utf8 = runs.filter((r) => r.benchmarks.some((b) => b.startsWith("BitsModifiedUtf8.")));
    expect(utf8.map((r) => [r.forks, r.params.length])).toEqual([
      [TARGET_FORKS, ["1024"]],
      [5, ["16"]],
    ]);
    expect(utf8[1]?.benchmarks.sort()).toEqual([
      "BitsModifiedUtf8.bufferLatin1",
      "BitsModifiedUtf8.modifiedUtf8",
      "BitsModifiedUtf8.textDecoder",
    ]);
    const raf = targetRuns(["raf"]).filter((r) =>
      r.benchmarks.includes("RandomAccessFileBenchmark.readInt"),
    );
    expect(raf.map((r) => [r.forks, r.warmupIterations, r.params.impl?.sort()])).toEqual([
      [5, 10, ["bufferedFloor", "floor", "pointerOnly", "rafkit"]],
      [8, TARGET_WARMUP, ["jdk17Emulated", "jdk25", "nativeFloor", "rafkitUnbuffered"]],
    ]);
    // tlSuccess's target asks for 6; the targets that share its sides (tlSuccess, tlFail) run with it, so each
    // ratio's sides share one run.
    expect(targetRuns(["syscall-state"]).map((r) => [r.forks, r.benchmarks.sort()])).toEqual([
      [TARGET_FORKS, ["BackendPread.native", "BackendPread.node"]],
      [
        6,
        [
          "CaptureStateUtilBench.rawFail",
          "CaptureStateUtilBench.rawSuccess",
          "CaptureStateUtilBench.tlFail",
          "CaptureStateUtilBench.tlSuccess",
        ],
      ],
      [6, ["NodeErrno.throwCatch"]],
    ]);
    expect(targetRuns(TARGET_GROUPS, 3).every((r) => r.forks === 3)).toBe(true);
    // Only the targets whose forks settle late warm up longer (the async ones all, as they share sides); a
    // warmup from the command line is every run's.
    expect(new Set(targetRuns(["bits", "syscall-state"]).map((r) => r.warmupIterations))).toEqual(
      new Set([TARGET_WARMUP]),
    );
    const async = targetRuns(["raf-async"]).sort((a, b) => a.warmupIterations - b.warmupIterations);
    expect(async.map((r) => [r.warmupIterations, r.benchmarks.sort()])).toEqual([
      [TARGET_WARMUP, ["RafAsyncBulk.readInts"]],
      [
        10,
        [
          "RafAsync.asyncBuffered",
          "RafAsync.awaitPerInt",
          "RafAsync.fileHandle",
          "RafAsync.randomAccessFile",
        ],
      ],
    ]);
    expect(targetRuns(["raf"], undefined, TARGETS, 4).every((r) => r.warmupIterations === 4)).toBe(
      true,
    );
    // With one fork count and warmup for all, each suite is one run again, every benchmark in it once.
    const one = targetRuns(["bits", "raf"], 3, TARGETS, 3);
    for (const r of one) expect(new Set(r.benchmarks).size).toBe(r.benchmarks.length);
    expect(new Set(one.map((r) => r.benchmarks[0]!.split(".")[0])).size).toBe(one.length);
  });

  it("keep the result of most forks, then most warmup, when two runs measured the same benchmark and params", () => {
    const r = (forks: number, impl: string, warmupIterations = 3) =>
      ({
        ...result("RandomAccessFileBenchmark.readInt", 100 * forks, { kiloBytes: "1", impl }),
        forks,
        warmupIterations,
      }) as BenchmarkResult;
    const kept = oneResultEach([
      r(2, "jdk25"),
      r(8, "jdk25"),
      r(5, "rafkit", 10),
      r(3, "jdk25"),
      r(5, "rafkit"),
      r(8, "jdk25", 1),
    ]);
    expect(kept.map((k) => [k.params?.impl, k.forks, k.warmupIterations])).toEqual([
      ["jdk25", 8, 3],
      ["rafkit", 5, 10],
    ]);
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
        capture("tlSuccess", 100),
        capture("rawSuccess", 50),
      ]),
    );
    const plain = await run("syscall-state", "--from", file);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/native-pread-beats-node\s+2\.50x\s+> 1x\s+PASS/);
    expect(plain.stdout).toMatch(/capture-success-near-raw\s+2\.00x\s+<= 1\.05x\s+JDK 25 -\s+FAIL/);
    expect(plain.stdout).toMatch(
      /floor: the raw koffi call \(rawSuccess\); gap: 47\.5 ns\/op to cut/,
    );
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
    expect(stdout).toMatch(/^Benchmark\s+\(impl\)\s+Mode\s+Cnt\s+Score/);
    expect(stdout).toMatch(/CaptureStateUtilBench\.tlFail\s+rafkit\s+avgt\s+3/);
    expect(stdout).not.toMatch(/explicitSuccess/); // only what the targets need
    expect(stdout).toMatch(/\d+ PASS, \d+ FAIL, \d+ CAPPED, 0 n\/a/);
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
      /unknown target group "nope"; use bits, syscall-state, raf, raf-async, kv or all/,
    );
  });
});
