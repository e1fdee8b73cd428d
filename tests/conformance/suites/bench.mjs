// @rafkit/bench on this runtime: a run in this process and one in a fork (a child of this same executable) give
// results, and name the runtime that ran them as JMH names a JVM (Bun's was written up as Node's V8).
import assert from "node:assert/strict";
import { loadSuiteModule, runBenchmarks } from "@rafkit/bench";
import { runtimeInfo, test } from "../harness.mjs";

test("bench: a run in this process and one in a fork name this runtime", ["bench"], async () => {
  const suites = await loadSuiteModule(new URL("../helpers/bench-suite.mjs", import.meta.url).href);
  const { name, version } = runtimeInfo();
  const want =
    name === "Bun"
      ? { jdkVersion: `Bun ${version}`, vmName: "JavaScriptCore" }
      : name === "Deno"
        ? { jdkVersion: `Deno ${version}`, vmName: "V8" }
        : { jdkVersion: process.version, vmName: "V8" };
  for (const forks of [0, 1]) {
    const report = await runBenchmarks(suites, {
      overrides: {
        forks,
        warmup: { iterations: 0, time: 1 },
        measurement: { iterations: 2, time: 5 },
      },
    });
    assert.deepEqual(report.failures, []);
    const [result] = report.results;
    assert.equal(result.primaryMetric.rawData.flat().length, 2);
    assert.deepEqual({ jdkVersion: result.jdkVersion, vmName: result.vmName }, want);
    assert.equal(result.jvm, process.execPath);
    assert.equal(report.pids[0][0] === process.pid, forks === 0);
  }
});
