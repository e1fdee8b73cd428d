import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadSuiteModule } from "../src/loader";
import { runBenchmarks } from "../src/run";

const fixtures = new URL("./fixtures/suites.mjs", import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-fork-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("forks", () => {
  it("run each trial in its own fresh process", async () => {
    const pidFile = join(dir, "pids.txt");
    process.env.RAFKIT_BENCH_PID_FILE = pidFile;
    try {
      const suites = await loadSuiteModule(fixtures);
      const report = await runBenchmarks(suites, {
        filter: "^Pids\\.",
        overrides: {
          forks: 3,
          warmup: { iterations: 0, time: 1 },
          measurement: { iterations: 1, time: 1 },
        },
      });
      expect(report.failures).toEqual([]);
      const pids = report.pids[0]!;
      expect(pids).toHaveLength(3);
      expect(new Set(pids).size).toBe(3);
      expect(pids).not.toContain(process.pid);
      // The benchmark's own state saw the same processes.
      const seen = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
      expect(seen).toEqual(pids);
      expect(report.results[0]!.primaryMetric.rawData).toHaveLength(3);
    } finally {
      delete process.env.RAFKIT_BENCH_PID_FILE;
    }
  });

  it("are killed when no iteration finishes within the timeout, the last finished one named", async () => {
    const suites = await loadSuiteModule(fixtures);
    const report = await runBenchmarks(suites, {
      filter: "^Forever\\.b_spins$",
      overrides: {
        forks: 1,
        warmup: { iterations: 2, time: 1 },
        measurement: { iterations: 1, time: 1 },
        timeout: 200,
      },
    });
    expect(report.results).toEqual([]);
    expect(report.failures[0]!.error).toMatchObject({
      code: "ERR_BENCH_TIMEOUT",
      message: expect.stringMatching(
        /^timed out: nothing finished within 200 ms past a 1 ms iteration \(the timeout, -to\), after warmup iteration 1 of 2; the fork \(pid \d+\) was killed$/,
      ),
    });
  });

  it.skipIf(process.platform === "win32")(
    "end a timed-out trial though a process it started holds the output pipes (and keep a delivered result)",
    async () => {
      const pidFile = join(dir, "helper.pid");
      process.env.RAFKIT_BENCH_HELPER_PID_FILE = pidFile;
      const suites = await loadSuiteModule(fixtures);
      const started = Date.now();
      try {
        const report = await runBenchmarks(suites, {
          filter: "^(Holder\\.pending|SlowExit\\.(one|boom))$",
          overrides: {
            forks: 1,
            warmup: { iterations: 0, time: 1000 }, // no warmup runs: its length is not waited for
            measurement: { iterations: 1, time: 1 },
            timeout: 300,
          },
        });
        // The helper sleeps 30 s with the pipes: "close" waited for it.
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(
          report.failures.map((f) => [f.benchmark, (f.error as { code?: string }).code]),
        ).toEqual([
          ["Holder.pending", "ERR_BENCH_TIMEOUT"],
          ["SlowExit.boom", "ERR_BENCH_FAILED"], // its error, not the timeout of its slow exit
        ]);
        expect(report.failures[0]!.error.message).toMatch(/within 300 ms past a 1 ms iteration/);
        // Its result came before its 2 s exit: it stands (and boom's error, above).
        expect(report.results.map((r) => r.benchmark)).toEqual(["SlowExit.one"]);
      } finally {
        delete process.env.RAFKIT_BENCH_HELPER_PID_FILE;
        for (const pid of readFileSync(pidFile, "utf8").trim().split("\n").map(Number)) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {}
        }
      }
    },
  );

  // No timing goal here, only the harness's arithmetic: every call spins at least N µs, so the interval
  // must reach N (preemption only lengthens a spin), and a harness bug (a wrong unit, batch size or
  // operations count) is off by 1000x, which the loose upper bound catches. A loaded machine stays within it.
  it("report a benchmark of known cost within its error (spin until the clock advances N µs)", async () => {
    const suites = await loadSuiteModule(fixtures);
    const report = await runBenchmarks(suites, {
      filter: "^Spin\\.",
      overrides: {
        forks: 2,
        warmup: { iterations: 2, time: 20 },
        measurement: { iterations: 4, time: 20 },
      },
    });
    expect(report.failures).toEqual([]);
    for (const result of report.results) {
      const micros = Number(result.params!.micros);
      const { score, scoreError, scoreUnit, rawData } = result.primaryMetric;
      expect(scoreUnit).toBe("us/op");
      expect(Math.min(...rawData.flat())).toBeGreaterThanOrEqual(micros);
      expect(Math.min(...rawData.flat())).toBeLessThanOrEqual(micros * 20 + 1000);
      expect(score + scoreError).toBeGreaterThanOrEqual(micros);
      expect(Number.isFinite(scoreError)).toBe(true);
    }
  });

  it("turn a throwing benchmark into a failure and go on", async () => {
    const suites = await loadSuiteModule(fixtures);
    const report = await runBenchmarks(suites, {
      filter: "^(Throwing|Pids)\\.",
      overrides: {
        forks: 1,
        warmup: { iterations: 0, time: 1 },
        measurement: { iterations: 1, time: 1 },
      },
    });
    expect(report.results.map((r) => r.benchmark)).toEqual(["Pids.pid"]);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]!.benchmark).toBe("Throwing.boom");
    expect(report.failures[0]!.error).toMatchObject({
      code: "ERR_BENCH_FAILED",
      message: "boom from the benchmark",
    });
  });

  it("interleave forks when asked: fork k of every benchmark before fork k + 1 of any, alternating direction", async () => {
    const suites = await loadSuiteModule(fixtures);
    const run = async (interleave: boolean) => {
      const order: string[] = [];
      const report = await runBenchmarks(
        suites,
        {
          filter: "^(Spin|Throwing|Pids)\\.",
          params: { micros: ["50"] },
          overrides: {
            forks: 2,
            warmup: { iterations: 0, time: 1 },
            measurement: { iterations: 1, time: 1 },
          },
          interleave,
        },
        {
          onForkStart: (p, fork) => order.push(`${p.benchmark}${fork}`),
          onBenchmarkEnd: (p) => order.push(`end ${p.benchmark}`),
        },
      );
      return { order, report };
    };
    const plain = await run(false);
    expect(plain.order).toEqual([
      "pid1",
      "pid2",
      "end pid",
      "spin1",
      "spin2",
      "end spin",
      "boom1",
      "end boom",
    ]);
    const mixed = await run(true);
    // Round 2 runs in reverse, so no benchmark always goes first. A failed benchmark runs no more forks;
    // results and failures keep the plan's order.
    expect(mixed.order).toEqual([
      "pid1",
      "spin1",
      "boom1",
      "spin2",
      "pid2",
      "end pid",
      "end spin",
      "end boom",
    ]);
    for (const { report } of [plain, mixed]) {
      expect(report.results.map((r) => [r.benchmark, r.primaryMetric.rawData.length])).toEqual([
        ["Pids.pid", 2],
        ["Spin.spin", 2],
      ]);
      expect(report.failures.map((f) => f.benchmark)).toEqual(["Throwing.boom"]);
    }
  });
});
