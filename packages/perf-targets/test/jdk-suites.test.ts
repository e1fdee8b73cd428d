import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  computeStatistics,
  findJdks,
  formatTable,
  javaCommand,
  parseJmhJson,
  renderChart,
  runBenchmarks,
  toJmhJson,
} from "@rafkit/bench";
import { describe, expect, it } from "vitest";
import { suitesOf } from "./helpers";

const { RandomAccessFileBenchmark, RandomAccessFileReadBenchmark } = await suitesOf("raf", [
  "RandomAccessFileBenchmark",
  "RandomAccessFileReadBenchmark",
]);
const { CaptureStateUtilBench } = await suitesOf("syscall-state", ["CaptureStateUtilBench"]);

const jdks = findJdks();
const jdk17 = jdks.find((j) => j.major === 17);
const jdk25 = jdks.find((j) => j.major === 25);
if (!jdk17) console.warn("jdk-suites.test.ts: no JDK 17 found: its tests are skipped");
if (!jdk25) console.warn("jdk-suites.test.ts: no JDK 25 found: its tests are skipped");

const source = fileURLToPath(new URL("../../raf/bench/java/RafBench.java", import.meta.url));
const tiny = {
  forks: 1,
  warmup: { iterations: 1, invocations: 2 },
  measurement: { iterations: 3, invocations: 2 },
};

describe.skipIf(!jdk17 || !jdk25)(
  "the real JDKs as external forks of the seed-shaped suites",
  () => {
    it("runs JDK 17 and JDK 25's RandomAccessFile through the same statistics, table, JSON and chart", async () => {
      const report = await runBenchmarks(
        [RandomAccessFileBenchmark, RandomAccessFileReadBenchmark],
        {
          filter: "^RandomAccessFile(Read)?Benchmark\\.readInt$",
          params: { kiloBytes: ["1"], impl: ["jdk17", "jdk25"] },
          overrides: tiny,
        },
      );
      expect(report.failures).toEqual([]);
      expect(report.skipped).toEqual([]);
      expect(
        report.results.map(
          (r) => `${r.benchmark} ${r.params?.impl} ${r.jdkVersion?.split(".")[0]}`,
        ),
      ).toEqual([
        "RandomAccessFileBenchmark.readInt jdk17 17",
        "RandomAccessFileBenchmark.readInt jdk25 25",
        "RandomAccessFileReadBenchmark.readInt jdk17 17",
        "RandomAccessFileReadBenchmark.readInt jdk25 25",
      ]);
      for (const r of report.results) {
        expect(r.vmName).toMatch(/VM/);
        expect(r.primaryMetric.scoreUnit).toBe("us/op");
        const raw = r.primaryMetric.rawData;
        expect(raw).toEqual([expect.any(Array)]);
        expect(raw[0]).toHaveLength(3);
        expect(raw[0]!.every((s) => s > 0)).toBe(true);
        expect(r.primaryMetric.score).toBe(computeStatistics(raw.flat()).mean);
      }
      expect(formatTable(report.results)).toMatch(
        /RandomAccessFileBenchmark\.readInt\s+1\s+jdk25\s+avgt\s+3/,
      );
      expect(parseJmhJson(toJmhJson(report.results))).toEqual(report.results);
      expect(renderChart(report.results)).toContain("jdk25");
    });

    it("runs CaptureStateUtilBench on JDK 25 through CaptureStateUtil, next to rafkit", async () => {
      const report = await runBenchmarks([CaptureStateUtilBench], {
        filter: "^CaptureStateUtilBench\\.tl",
        params: { impl: ["jdk25"] },
        overrides: { ...tiny, measurement: { iterations: 3, invocations: 2000 } },
      });
      expect(report.failures).toEqual([]);
      expect(report.results.map((r) => [r.benchmark, r.jdkVersion?.split(".")[0]])).toEqual([
        ["CaptureStateUtilBench.tlFail", "25"],
        ["CaptureStateUtilBench.tlSuccess", "25"],
      ]);
    });

    it("compiles the harness once and runs the class; a bad op exits non-zero with Java's message", () => {
      const command = javaCommand(
        source,
        ["RandomAccessFileBenchmark", "readFoo", "1", "stock", "0", "1ops", "1", "1ops"],
        { java: jdk25!.java },
      );
      expect(command.args).toContain("-cp");
      const run = spawnSync(command.command, command.args, { encoding: "utf8" });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(/op: readFoo/);
    });
  },
);
