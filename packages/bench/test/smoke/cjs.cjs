// CommonJS consumers get the same API; forks still find the (ESM) fork entry and shipped suites.
const assert = require("node:assert/strict");
const bench = require("@rafkit/bench");

assert.ok(Math.abs(bench.studentTQuantile(0.975, 10) - 2.2281389) < 1e-6);
assert.equal(bench.runFork, undefined); // internals stay internal

(async () => {
  const suites = await bench.loadSuiteModule(
    require
      .resolve("@rafkit/bench/package.json")
      .replace(/package\.json$/, "dist/suites/harness.js"),
  );
  const report = await bench.runBenchmarks(suites, {
    filter: "^Harness\\.constant$",
    overrides: {
      forks: 1,
      warmup: { iterations: 1, time: 5 },
      measurement: { iterations: 3, time: 5 },
    },
  });
  assert.deepEqual(report.failures, []);
  assert.equal(report.results[0].primaryMetric.rawData[0].length, 3);
  assert.notEqual(report.pids[0][0], process.pid);
  console.log("cjs ok");
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
