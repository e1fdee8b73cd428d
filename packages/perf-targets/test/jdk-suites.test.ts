import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  computeStatistics,
  formatTable,
  javaCommand,
  javaUnavailable,
  parseJmhJson,
  renderChart,
  runBenchmarks,
  toJmhJson,
} from "@rafkit/bench";
import { describe, expect, it } from "vitest";
import { suitesOf } from "./helpers";

const { RafRead, RafWrite } = await suitesOf("raf", ["RafRead", "RafWrite"]);
const hasJava = spawnSync("java", ["-version"]).status === 0;
if (!hasJava)
  console.warn("java.test.ts: skipped, `java` is not on PATH (the JDK suites need JDK 17+)");

const source = fileURLToPath(new URL("../../raf/bench/java/RafBench.java", import.meta.url));
const tiny = {
  forks: 1,
  warmup: { iterations: 1, invocations: 2 },
  measurement: { iterations: 3, invocations: 2 },
};

describe.skipIf(!hasJava)("the JDK as an external fork (java/RafBench.java)", () => {
  it("runs the JDK variants through the same statistics, table, JSON and chart", async () => {
    const report = await runBenchmarks([RafRead, RafWrite], {
      filter: "^(RafRead\\.jdkBulk|RafWrite\\.jdkStock)$",
      params: { kiloBytes: ["1"] },
      overrides: tiny,
    });
    expect(report.failures).toEqual([]);
    expect(report.skipped).toEqual([]);
    // 3 read ops and 3 write ops, each at 1 KiB.
    expect(report.results.map((r) => `${r.benchmark} ${r.params?.op}`)).toEqual([
      "RafRead.jdkBulk readShort",
      "RafRead.jdkBulk readInt",
      "RafRead.jdkBulk readLong",
      "RafWrite.jdkStock writeShort",
      "RafWrite.jdkStock writeInt",
      "RafWrite.jdkStock writeLong",
    ]);
    for (const r of report.results) {
      expect(r.jdkVersion).toMatch(/^\d+/);
      expect(r.vmName).toMatch(/VM/);
      expect(r.primaryMetric.scoreUnit).toBe("us/op");
      const raw = r.primaryMetric.rawData;
      expect(raw).toHaveLength(1);
      expect(raw[0]).toHaveLength(3);
      expect(raw[0]!.every((s) => s > 0)).toBe(true);
      const stats = computeStatistics(raw.flat());
      expect(r.primaryMetric.score).toBe(stats.mean);
      expect(r.primaryMetric.scoreError).toBe(stats.error);
    }
    expect(formatTable(report.results)).toMatch(/RafRead\.jdkBulk\s+readInt\s+1\s+avgt\s+3/);
    expect(parseJmhJson(toJmhJson(report.results))).toEqual(report.results);
    expect(renderChart(report.results)).toContain("jdkStock");
  });

  it("compiles the harness once and runs the class; a bad op exits non-zero with Java's message", async () => {
    expect(javaUnavailable()).toBeUndefined();
    const command = javaCommand(source, ["readFoo", "1", "bulk", "0", "1ops", "1", "1ops"]);
    const hasJavac = spawnSync("javac", ["-version"]).status === 0;
    if (hasJavac) expect(command.args).toContain("-cp");
    const run = spawnSync(command.command, command.args, { encoding: "utf8" });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/op: readFoo/);
  });
});
