#!/usr/bin/env node
// `pnpm bench` for the harness itself: its per-invocation overhead (the built-in Harness suite) and the
// example suite, 2 forks x 4 iterations of 100 ms after 2 warmups -> bench-results/harness.{json,svg}.
// rafkit's own suites live next to the code they measure (packages/*/bench/) and run in their packages.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (!existsSync(cli)) {
  console.error(`${cli} is missing: run \`pnpm build\` at the repository root first.`);
  process.exit(1);
}
const builtin = fileURLToPath(new URL("../dist/suites/harness.js", import.meta.url));
const example = fileURLToPath(new URL("../examples/sum.bench.mjs", import.meta.url));
execFileSync(
  process.execPath,
  [
    cli,
    "--suite",
    builtin,
    "--suite",
    example,
    ...["-f", "2", "-wi", "2", "-i", "4", "-w", "100ms", "-r", "100ms"],
    ...["--json", "bench-results/harness.json", "--chart", "bench-results/harness.svg"],
    ...["--title", "@rafkit/bench: harness overhead and the example suite"],
  ],
  { stdio: "inherit" },
);
