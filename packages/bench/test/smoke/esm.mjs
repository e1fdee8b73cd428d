// Runs against the packed tarball: the library API, a forked run of a shipped suite, and the CLI binary.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  builtinSuiteUrl,
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

// A forked run of a suite shipped in the package (its @rafkit/bits dependency comes from the tarball too).
const bits = await loadSuiteModule(builtinSuiteUrl("bits"));
const forked = await runBenchmarks(bits, {
  filter: "^BitsGet\\.bigEndian$",
  params: { type: ["Int32"] },
  overrides: { ...quick, forks: 2 },
});
assert.deepEqual(forked.failures, []);
assert.equal(new Set(forked.pids[0]).size, 2);
assert.ok(!forked.pids[0].includes(process.pid));

// The I/O suites: rafkit against the JDK (an external `java` fork, or a visible skip without java) and
// the async suite, whose npm competitor `random-access-file` is only a dev dependency: skipped here.
const raf = await loadSuiteModule(builtinSuiteUrl("raf"));
const rafRun = await runBenchmarks(raf, {
  filter: "^RafRead\\.(buffered|jdkBulk)$",
  params: { op: ["readInt"], kiloBytes: ["1"] },
  overrides: { ...quick, forks: 1 },
});
assert.deepEqual(rafRun.failures, []);
assert.equal(rafRun.results.length + rafRun.skipped.length, 2);
assert.ok(rafRun.skipped.every((s) => /java/.test(s.reason)));
const asyncSuites = await loadSuiteModule(builtinSuiteUrl("raf-async"));
const asyncRun = await runBenchmarks(asyncSuites, {
  filter: "^RafAsync\\.(asyncBuffered|randomAccessFile)$",
  params: { op: ["readInt"], kiloBytes: ["1"] },
  overrides: { ...quick, forks: 1 },
});
assert.deepEqual(asyncRun.failures, []);
assert.equal(asyncRun.results[0].benchmark, "RafAsync.asyncBuffered");
assert.ok(asyncRun.skipped.every((s) => /random-access-file/.test(s.reason)));

// The binary, as users run it.
const list = execFileSync("npx", ["--no-install", "rafkit-bench", "--list"], { encoding: "utf8" });
assert.match(list, /BitsBulkDecode\.decodeArray/);
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
const targets = execFileSync(
  "npx",
  [
    "--no-install",
    "rafkit-bench",
    "targets",
    "syscall-state",
    "-f",
    "1",
    "-wi",
    "0",
    "-i",
    "3",
    "-r",
    "5ms",
  ],
  { encoding: "utf8" },
);
assert.match(targets, /tlFail \/ tlSuccess\s+[\d.]+x\s+<= 1\.2x\s+(PASS|FAIL)/);
console.log("esm ok");
