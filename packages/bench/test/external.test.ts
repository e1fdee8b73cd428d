import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { iterationArg, runExternalFork } from "../src/external";
import { resolveOptions } from "../src/options";
import { formatTable } from "../src/report/text";
import { runBenchmarks } from "../src/run";
import { defineSuite } from "../src/suite";
import { quietStderr } from "./quiet-stderr";

const harness = fileURLToPath(new URL("./fixtures/external-harness.mjs", import.meta.url));
const stderr = quietStderr();

/** A suite whose one benchmark is the stand-in harness, run with `behaviour`. */
function externalSuite(behaviour: string, unavailable?: () => string | undefined) {
  return defineSuite({
    name: "Ext",
    params: { size: [1, 2] },
    benchmarks: {
      outside: {
        external: {
          command: (_params, o) => ({
            command: process.execPath,
            args: [
              harness,
              behaviour,
              String(o.warmup.iterations),
              String(o.measurement.iterations),
            ],
            runtimeArgs: ["--stack-size=900"],
          }),
        },
        ...(unavailable ? { unavailable } : {}),
      },
    },
  });
}

const overrides = {
  forks: 2,
  warmup: { iterations: 2, time: 1 },
  measurement: { iterations: 3, time: 1 },
};

describe("external forks", () => {
  it("score the program's iteration lines like Node forks, one process per fork", async () => {
    const report = await runBenchmarks([externalSuite("ok")], {
      params: { size: ["1"] },
      overrides: { ...overrides, operationsPerInvocation: 4 },
    });
    expect(report.failures).toEqual([]);
    const [result] = report.results;
    // 2e6 ns / (1000 ops x 4 per invocation) = 500 ns = 0.5 us per op; warmups are not scored.
    expect(result!.primaryMetric.rawData).toEqual([
      [0.5, 0.5, 0.5],
      [0.5, 0.5, 0.5],
    ]);
    expect(result!.primaryMetric.score).toBe(0.5);
    expect(result!.primaryMetric.scoreError).toBe(0);
    expect(result!.jdkVersion).toBe("1.2.3");
    expect(result!.vmName).toBe("FakeVM");
    expect(result!.jvm).toBe("/opt/fake/bin/fake");
    expect(new Set(report.pids[0])).toHaveProperty("size", 2);
    expect(report.pids[0]).not.toContain(process.pid);
    // Lines that are not iteration lines go to this process's stderr, as documented.
    expect(stderr.join("")).toContain("chatter that is not an iteration line");
    expect(formatTable(report.results)).toMatch(/Ext\.outside\s+1\s+avgt\s+6\s+0\.500/);
  });

  it("run one process even with forks 0 (they cannot run in this one)", async () => {
    const events: string[] = [];
    const report = await runBenchmarks(
      [externalSuite("ok")],
      { params: { size: ["2"] }, overrides: { ...overrides, forks: 0 } },
      { onIteration: (_p, fork, r) => void events.push(`${fork} ${r.phase} ${r.index}`) },
    );
    expect(report.results[0]!.primaryMetric.rawData).toEqual([[2, 2, 2]]);
    expect(events).toEqual([
      "1 warmup 0",
      "1 warmup 1",
      "1 measurement 0",
      "1 measurement 1",
      "1 measurement 2",
    ]);
  });

  it.each([
    ["crash", /exited with code 3[\s\S]*something went wrong/],
    ["short", /reported 2 warmup and 2 measurement iterations, expected 2 and 3/],
    ["late-warmup", /warmup iteration came after a measurement iteration/],
    // Scored, it would be 0 us/op (or Infinity ops/us) and drag the mean with it.
    ["zero-time", /an iteration of 1 ops took 0 ns: too short for the clock/],
    // It went to stderr as chatter, and the failure then counted iterations without naming it.
    ["malformed", /a malformed iteration line .*: \{"warmup":false,"ops":"1000","nanos":2000000\}/],
  ])("fail clearly when the program misbehaves (%s)", async (behaviour, message) => {
    const report = await runBenchmarks([externalSuite(behaviour)], {
      params: { size: ["1"] },
      overrides,
    });
    expect(report.results).toEqual([]);
    expect(report.failures[0]!.error).toMatchObject({ code: "ERR_BENCH_FAILED" });
    expect(report.failures[0]!.error.message).toMatch(message);
  });

  it("record what the program says of its runtime, the rest unknown: never this Node process", async () => {
    const report = await runBenchmarks([externalSuite("partial-runtime")], {
      params: { size: ["1"] },
      overrides,
    });
    expect(report.failures).toEqual([]);
    expect(report.results[0]).toMatchObject({
      jvm: process.execPath, // the command it ran
      jdkVersion: "99",
      vmName: "unknown",
      vmVersion: "unknown",
      jvmArgs: ["--stack-size=900"], // the runtime's own options, as the command names them (they were [])
    });
  });

  it.skipIf(process.platform !== "linux")(
    "are killed when the harness is told to stop (a JVM would run its trial to the end)",
    async () => {
      const script = `const { defineSuite, runBenchmarks } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
const command = () => ({ command: process.execPath, args: [${JSON.stringify(harness)}, "sleep", "1", "1"] });
await runBenchmarks([defineSuite({ name: "Sleep", benchmarks: { sleep: { external: { command } } } })]);`;
      const { spawn } = await import("node:child_process");
      const parent = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      // The fork's "pid N" line is not an iteration line: the harness passes it to its stderr.
      const pid = await new Promise<number>((resolve) => {
        let text = "";
        parent.stderr.on("data", (d: Buffer) => {
          text += d;
          const m = /pid (\d+)/.exec(text);
          if (m) resolve(Number(m[1]));
        });
      });
      parent.kill("SIGTERM");
      const signal = await new Promise((resolve) => parent.on("exit", (_code, s) => resolve(s)));
      expect(signal).toBe("SIGTERM");
      // Dead: gone, or a zombie where nothing reaps the orphan (a container's init).
      const state = () => {
        try {
          return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0];
        } catch {
          return "gone";
        }
      };
      for (let i = 0; i < 40 && !["Z", "X", "gone"].includes(state()!); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(["Z", "X", "gone"]).toContain(state());
    },
  );

  it("are killed when no iteration finishes within the timeout (-to), naming the last that did", async () => {
    const error = await runExternalFork(
      { command: process.execPath, args: [harness, "stall", "2", "3"] },
      resolveOptions({ ...overrides, timeout: 300 }),
    ).then(
      () => new Error("it ended"),
      (e: Error) => e,
    );
    expect(error).toMatchObject({ code: "ERR_BENCH_TIMEOUT" });
    expect(error.message).toMatch(
      /^timed out: nothing finished within 300 ms past a 1 ms iteration \(the timeout, -to\), after warmup iteration 1 of 2; the external fork \(pid (\d+)\) was killed$/,
    );
    if (process.platform === "linux") {
      const pid = /pid (\d+)/.exec(error.message)![1];
      const state = () => {
        try {
          return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0];
        } catch {
          return "gone";
        }
      };
      expect(["Z", "X", "gone"]).toContain(state());
    }
  });

  it.skipIf(process.platform === "win32")(
    "are ended at the timeout though a process they started holds the output pipes (a JVM under sh)",
    async () => {
      const started = Date.now();
      const error = await runExternalFork(
        { command: "sh", args: ["-c", "sleep 8; true"] },
        resolveOptions({ ...overrides, timeout: 300 }),
      ).then(
        () => new Error("it ended"),
        (e: Error) => e,
      );
      expect(error).toMatchObject({ code: "ERR_BENCH_TIMEOUT" });
      expect(Date.now() - started).toBeLessThan(5000); // it waited the sleep out
    },
  );

  it("fail with ERR_BENCH_FORK when the program cannot start", async () => {
    await expect(
      runExternalFork(
        { command: "/nonexistent/rafkit-bench-no-such-program", args: [] },
        resolveOptions(overrides),
      ),
    ).rejects.toMatchObject({ code: "ERR_BENCH_FORK" });
  });

  it("skip unavailable combinations with their reason (asked per combination, told once), without failing", async () => {
    let asked = 0;
    const skippedEvents: string[] = [];
    const report = await runBenchmarks(
      [
        externalSuite("ok", () => {
          asked++;
          return "no such runtime here";
        }),
      ],
      { overrides },
      { onBenchmarkSkipped: (p, reason) => void skippedEvents.push(`${p.id}: ${reason}`) },
    );
    expect(asked).toBe(2);
    expect(skippedEvents).toEqual(["Ext.outside: no such runtime here"]);
    expect(report.failures).toEqual([]);
    expect(report.results).toEqual([]);
    expect(report.skipped).toEqual([
      { benchmark: "Ext.outside", params: { size: 1 }, reason: "no such runtime here" },
      { benchmark: "Ext.outside", params: { size: 2 }, reason: "no such runtime here" },
    ]);
  });

  it("describe iteration lengths as external harnesses take them", () => {
    expect(iterationArg({ iterations: 1, time: 250 }, "avgt")).toBe("250ms");
    expect(iterationArg({ iterations: 1, invocations: 40 }, "thrpt")).toBe("40ops");
    expect(iterationArg({ iterations: 1, time: 250 }, "ss")).toBe("1ops");
  });
});

describe("a benchmark measured in Node for some params and by another program for others", () => {
  const Mixed = defineSuite({
    name: "Mixed",
    params: { impl: ["node", "other", "absent"] },
    benchmarks: {
      work: {
        run: () => 42,
        external: {
          command: ({ impl }, o) =>
            impl === "node"
              ? undefined
              : {
                  command: process.execPath,
                  args: [
                    harness,
                    "ok",
                    String(o.warmup.iterations),
                    String(o.measurement.iterations),
                  ],
                },
        },
        unavailable: ({ impl }) => (impl === "absent" ? "absent is not installed" : undefined),
      },
    },
  });

  it("runs each combination where it belongs and skips only the unavailable one", async () => {
    const skipped: string[] = [];
    const report = await runBenchmarks(
      [Mixed],
      { overrides: { ...overrides, forks: 0 } },
      { onBenchmarkSkipped: (p, reason) => skipped.push(`${p.params.impl}: ${reason}`) },
    );
    expect(report.failures).toEqual([]);
    expect(report.results.map((r) => r.params?.impl)).toEqual(["node", "other"]);
    // The external one ran in its own process (its runtime line), the Node one in this process.
    expect(report.results[1]!.vmName).toBe("FakeVM");
    expect(report.results[0]!.vmName).not.toBe("FakeVM");
    expect(report.pids[0]).toEqual([process.pid]);
    expect(report.skipped).toEqual([
      { benchmark: "Mixed.work", params: { impl: "absent" }, reason: "absent is not installed" },
    ]);
    expect(skipped).toEqual(["absent: absent is not installed"]);
  });
});
