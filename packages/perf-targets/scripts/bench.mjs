#!/usr/bin/env node
// `pnpm bench`'s last step: every target evaluated on the runs the packages' own `bench` tasks just wrote
// (packages/{bits,syscall-state,raf}/bench-results/*.json), the seeds' tables and charts (perf-seeds --from),
// then the comparison charts, into bench-results/.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const benchCli = join(dirname(require.resolve("@rafkit/bench/package.json")), "dist", "cli.js");
const results = (pkg, file) =>
  join(dirname(require.resolve(`${pkg}/package.json`)), "bench-results", `${file}.json`);
const runs = {
  bits: results("@rafkit/bits", "bits"),
  "syscall-state": results("@rafkit/syscall-state", "syscall-state"),
  raf: results("@rafkit/raf", "raf"),
};
const missing = Object.values(runs).filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.error(`missing ${missing.join(", ")}: run \`pnpm bench\` at the repository root.`);
  process.exit(1);
}
let failed = 0;
const run = (script, ...args) => {
  try {
    execFileSync(process.execPath, [script, ...args], { stdio: "inherit" });
  } catch {
    failed++;
    console.error(`${args.join(" ")}: failed (see above)`);
  }
};

console.log("\n== targets");
run(cli, ...Object.values(runs).flatMap((f) => ["--from", f]));

console.log("\n== the seeds: JDK 17, JDK 25 and rafkit");
run(
  fileURLToPath(new URL("../dist/seeds.js", import.meta.url)),
  "--from",
  runs.raf,
  "--from",
  runs["syscall-state"],
);

for (const [file, baseline, candidate, chart] of [
  ["bits", "BitsGet.dataView", "BitsGet.bigEndian", "get-dataview-vs-bits"],
  ["bits", "BitsSet.dataView", "BitsSet.bigEndian", "set-dataview-vs-bits"],
  ["bits", "BitsBulkDecode.dataViewLoop", "BitsBulkDecode.decodeArray", "bulk-dataview-vs-bits"],
  [
    "bits",
    "BitsModifiedUtf8.textDecoder",
    "BitsModifiedUtf8.modifiedUtf8",
    "utf8-textdecoder-vs-bits",
  ],
  ["syscall-state", "BackendPread.node", "BackendPread.native", "pread-node-vs-native"],
]) {
  console.log("");
  run(
    benchCli,
    "compare",
    `${runs[file]}#${baseline}`,
    `${runs[file]}#${candidate}`,
    "--chart",
    `bench-results/${chart}.svg`,
  );
}
if (failed > 0) {
  console.error(`\n${failed} command(s) failed`);
  process.exitCode = 1;
}
