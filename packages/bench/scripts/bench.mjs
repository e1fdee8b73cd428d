#!/usr/bin/env node
// `pnpm bench`: the standard set (every built-in suite, 2 forks x 5 iterations of 100 ms after 3 warmups),
// then the @rafkit/bits-vs-Node comparisons. Writes JSON and SVG into bench-results/ (gitignored).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (!existsSync(cli)) {
  console.error(`${cli} is missing: run \`pnpm build\` at the repository root first.`);
  process.exit(1);
}
const out = "bench-results";
const run = (...args) => execFileSync(process.execPath, [cli, ...args], { stdio: "inherit" });

run(
  "-f",
  "2",
  "-wi",
  "3",
  "-i",
  "5",
  "-w",
  "100ms",
  "-r",
  "100ms",
  "--json",
  `${out}/bench.json`,
  "--chart",
  `${out}/bench.svg`,
  "--title",
  "rafkit-bench standard set",
);
for (const [baseline, candidate, file] of [
  ["BitsGet.dataView", "BitsGet.bigEndian", "get-dataview-vs-bits"],
  ["BitsSet.dataView", "BitsSet.bigEndian", "set-dataview-vs-bits"],
  ["BitsBulkDecode.dataViewLoop", "BitsBulkDecode.decodeArray", "bulk-dataview-vs-bits"],
  ["BitsModifiedUtf8.textDecoder", "BitsModifiedUtf8.modifiedUtf8", "utf8-textdecoder-vs-bits"],
]) {
  console.log("");
  run(
    "compare",
    `${out}/bench.json#${baseline}`,
    `${out}/bench.json#${candidate}`,
    "--chart",
    `${out}/${file}.svg`,
  );
}
