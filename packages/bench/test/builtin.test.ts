import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUILTIN_SUITES, builtinSuiteUrl } from "../src/builtin";
import { javaCommand } from "../src/java";
import { runBenchmarks } from "../src/run";
import { Harness } from "../src/suites/harness";

describe("the built-in suite", () => {
  it("is the harness's own overhead, and runs in the harness", async () => {
    expect(BUILTIN_SUITES).toEqual(["harness"]);
    expect(builtinSuiteUrl("harness")).toMatch(/\/suites\/harness\.js$/);
    const report = await runBenchmarks([Harness], {
      overrides: {
        forks: 0,
        warmup: { iterations: 0, invocations: 1 },
        measurement: { iterations: 1, invocations: 2 },
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.results.map((r) => r.benchmark)).toEqual(["Harness.empty", "Harness.constant"]);
  });
});

describe("javaCommand without javac", () => {
  it("falls back to the source launcher, with the javac options before the file", () => {
    const source = fileURLToPath(new URL("./fixtures/Spin.java", import.meta.url));
    const command = javaCommand(source, ["1"], {
      java: "/nonexistent/bin/java",
      javacArgs: ["--add-exports", "java.base/jdk.internal.foreign=ALL-UNNAMED"],
    });
    expect(command.command).toBe("/nonexistent/bin/java");
    expect(command.args).not.toContain("-cp");
    expect(command.args.slice(-4)).toEqual([
      "--add-exports",
      "java.base/jdk.internal.foreign=ALL-UNNAMED",
      source,
      "1",
    ]);
  });
});
