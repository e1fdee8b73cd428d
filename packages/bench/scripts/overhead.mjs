#!/usr/bin/env node
// Harness overhead per invocation of an empty benchmark, side by side with mitata on the same function.
// rafkit-bench measures in its forks (2 by default); mitata measures in this process, as it always does.
// Usage: node scripts/overhead.mjs [--rounds N]   (after `pnpm build`)
import { bench, run } from "mitata";
import { loadSuiteModule, runBenchmarks } from "../dist/index.js";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const suites = await loadSuiteModule(new URL("../dist/suites/harness.js", import.meta.url).href);
const empty = () => {};

const rows = [];
for (let round = 1; round <= rounds; round++) {
  const { results } = await runBenchmarks(suites, {
    filter: "^Harness\\.empty$",
    overrides: {
      forks: 2,
      unit: "ns",
      warmup: { iterations: 3, time: 200 },
      measurement: { iterations: 5, time: 200 },
    },
  });
  const ours = results[0].primaryMetric;
  bench("empty", empty); // mitata forgets registered benchmarks after each run()
  const { benchmarks } = await run({ format: "quiet" });
  const stats = benchmarks[0].runs[0].stats;
  rows.push({
    round,
    ours: ours.score,
    oursError: ours.scoreError,
    mitataAvg: stats.avg,
    mitataP50: stats.p50,
  });
}
console.log(
  "round  rafkit-bench Harness.empty (ns/op)  mitata empty avg (ns)  mitata p50 (ns)  ratio",
);
for (const r of rows) {
  console.log(
    `${String(r.round).padStart(5)}  ${`${r.ours.toFixed(3)} ± ${r.oursError.toFixed(3)}`.padStart(34)}  ${r.mitataAvg.toFixed(3).padStart(21)}  ${r.mitataP50.toFixed(3).padStart(15)}  ${(r.ours / r.mitataAvg).toFixed(2).padStart(5)}x`,
  );
}
