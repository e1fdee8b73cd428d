import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { iterationArg, runExternalFork } from "../src/external";
import { findJdks, javaCommand, javaUnavailable } from "../src/java";
import { resolveOptions } from "../src/options";
import { parseJmhJson, toJmhJson } from "../src/report/jmh-json";
import { formatTable } from "../src/report/text";
import { runBenchmarks } from "../src/run";
import { computeStatistics } from "../src/stats";
import { defineSuite } from "../src/suite";
import { quietStderr } from "./quiet-stderr";

const hasJava = spawnSync("java", ["-version"]).status === 0;
quietStderr();
const source = fileURLToPath(new URL("./fixtures/Spin.java", import.meta.url));

const JavaSpin = defineSuite({
  name: "JavaSpin",
  benchmarks: {
    spin: {
      external: {
        command: (_params, o) =>
          javaCommand(source, [
            String(o.warmup.iterations),
            iterationArg(o.warmup, o.mode),
            String(o.measurement.iterations),
            iterationArg(o.measurement, o.mode),
          ]),
      },
      unavailable: () => javaUnavailable(),
    },
  },
});

describe.skipIf(!hasJava)("a Java program as an external fork", () => {
  it("goes through the same statistics, table and JSON as a Node benchmark", async () => {
    const report = await runBenchmarks([JavaSpin], {
      overrides: {
        forks: 1,
        warmup: { iterations: 1, invocations: 2 },
        measurement: { iterations: 3, invocations: 2 },
      },
    });
    expect(report.failures).toEqual([]);
    const [r] = report.results;
    expect(r!.jdkVersion).toMatch(/^\d+/);
    expect(r!.vmName).toMatch(/VM/);
    const raw = r!.primaryMetric.rawData;
    expect(raw).toHaveLength(1);
    expect(raw[0]).toHaveLength(3);
    expect(r!.primaryMetric.score).toBe(computeStatistics(raw.flat()).mean);
    expect(formatTable(report.results)).toMatch(/JavaSpin\.spin\s+avgt\s+3/);
    expect(parseJmhJson(toJmhJson(report.results))).toEqual(report.results);
  });

  it("compiles once and runs the class; bad arguments exit non-zero with the program's message", async () => {
    expect(javaUnavailable()).toBeUndefined();
    const command = javaCommand(source, ["0", "1", "1", "1ops"]);
    if (spawnSync("javac", ["-version"]).status === 0) expect(command.args).toContain("-cp");
    await expect(
      runExternalFork(command, resolveOptions({ warmup: { iterations: 0, time: 1 } })),
    ).rejects.toMatchObject({ code: "ERR_BENCH_FAILED", message: /usage: java Spin/ });
  });

  it("passes JVM options before the class, and names them for the results' jvmArgs (they were [])", () => {
    const command = javaCommand(source, ["x"], { jvmArgs: ["-Dspin=1"] });
    expect(command.args.indexOf("-Dspin=1")).toBeLessThan(command.args.indexOf("x"));
    expect(command.runtimeArgs).toEqual(expect.arrayContaining(["-Xmx256m", "-Dspin=1"]));
    expect(command.runtimeArgs).not.toContain("x");
  });
});

describe("javaUnavailable", () => {
  it("names a missing java in the skip reason", () => {
    process.env.RAFKIT_BENCH_JAVA = "/nonexistent/java";
    try {
      expect(javaUnavailable()).toMatch(/\/nonexistent\/java not found/);
    } finally {
      delete process.env.RAFKIT_BENCH_JAVA;
    }
  });

  it.skipIf(!hasJava)("refuses a java older than asked for", () => {
    expect(javaUnavailable("java", 999)).toMatch(/needs 999 or later/);
  });
});

describe("findJdks", () => {
  it("finds a JDK home by its release file's version, newest first", () => {
    const home = mkdtempSync(join(tmpdir(), "rafkit-bench-jdk-"));
    const saved = process.env.JAVA_HOME;
    try {
      mkdirSync(join(home, "bin"));
      writeFileSync(join(home, "bin", "java"), "#!/bin/sh\nexit 0\n");
      chmodSync(join(home, "bin", "java"), 0o755);
      writeFileSync(join(home, "release"), 'IMPLEMENTOR="test"\nJAVA_VERSION="99.0.1"\n');
      process.env.JAVA_HOME = home;
      const jdks = findJdks();
      expect(jdks[0]).toEqual({
        home,
        java: join(home, "bin", "java"),
        version: "99.0.1",
        major: 99,
      });
      for (let i = 1; i < jdks.length; i++)
        expect(jdks[i]!.major).toBeLessThanOrEqual(jdks[i - 1]!.major);
    } finally {
      if (saved === undefined) delete process.env.JAVA_HOME;
      else process.env.JAVA_HOME = saved;
      rmSync(home, { recursive: true, force: true });
    }
  });
});
