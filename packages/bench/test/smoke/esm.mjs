// Runs against the packed tarball: the library API, a forked run of a shipped suite, and the CLI binary.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  computeStatistics,
  defineSuite,
  formatTable,
  loadSuiteModule,
  parseJmhJson,
  renderChart,
  runBenchmarks,
  studentTQuantile,
  toJmhJson,
} from "@rafkit/bench";

assert.ok(Math.abs(studentTQuantile(0.9995, 9) - 4.7809126) < 1e-6);
assert.equal(computeStatistics([1, 2, 3, 4, 5]).mean, 3);

// In-process run of a suite declared here.
const Sum = defineSuite({
  name: "Sum",
  params: { size: [10, 100] },
  state: ({ size }) => Array.from({ length: size }, (_, i) => i),
  benchmarks: { reduce: (_bh, data) => data.reduce((a, b) => a + b, 0) },
});
const quick = {
  forks: 0,
  warmup: { iterations: 1, time: 5 },
  measurement: { iterations: 3, time: 5 },
};
const local = await runBenchmarks([Sum], { overrides: quick });
assert.equal(local.results.length, 2);
assert.match(
  formatTable(local.results),
  /^Benchmark\s+\(size\)\s+Mode\s+Cnt\s+Score\s+Error\s+Units/,
);
assert.deepEqual(parseJmhJson(toJmhJson(local.results)), local.results);
assert.match(renderChart(local.results), /<svg[\s\S]*<\/svg>/);

// A forked run of the suite shipped in the package.
const harness = await loadSuiteModule(
  new URL("./node_modules/@rafkit/bench/dist/suites/harness.js", import.meta.url),
);
const forked = await runBenchmarks(harness, {
  filter: "^Harness\\.empty$",
  overrides: { ...quick, forks: 2 },
});
assert.deepEqual(forked.failures, []);
assert.equal(new Set(forked.pids[0]).size, 2);
assert.ok(!forked.pids[0].includes(process.pid));

// The binary, as users run it.
const list = execFileSync("npx", ["--no-install", "rafkit-bench", "--list"], { encoding: "utf8" });
assert.match(list, /Harness\.constant/);
const table = execFileSync(
  "npx",
  [
    "--no-install",
    "rafkit-bench",
    "^Harness\\.empty$",
    "-f",
    "1",
    "-wi",
    "1",
    "-i",
    "3",
    "-w",
    "5ms",
    "-r",
    "5ms",
  ],
  { encoding: "utf8" },
);
assert.match(table, /Harness\.empty\s+avgt\s+3/);
console.log("esm ok");
