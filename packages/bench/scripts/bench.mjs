#!/usr/bin/env node
// `pnpm bench`: the standard set, in three runs of 2 forks x 4 iterations of 100 ms after 2 warmups:
//   1. @rafkit/bits against DataView/Buffer, plus the harness's own overhead   -> bench-results/bits.*
//   2. @rafkit/syscall-state (CaptureStateUtil, BackendPread)                -> bench-results/syscall-state.*
//   3. @rafkit/raf (RafRead, RafWrite with the JDK, RafBulk, RafAsync)         -> bench-results/raf.*
// then every issue's targets evaluated on those runs (`rafkit-bench targets --from`), and the comparison
// charts. Writes JSON and SVG into bench-results/ (gitignored). About 5 minutes on 2 cores.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (!existsSync(cli)) {
  console.error(`${cli} is missing: run \`pnpm build\` at the repository root first.`);
  process.exit(1);
}
const out = "bench-results";
let failed = 0;
/** Runs the CLI; a failing run (e.g. one benchmark failed) is reported and the rest still runs. */
const run = (...args) => {
  try {
    execFileSync(process.execPath, [cli, ...args], { stdio: "inherit" });
  } catch {
    failed++;
    console.error(`rafkit-bench ${args.join(" ")}: failed (see above)`);
  }
};
const settings = ["-f", "2", "-wi", "2", "-i", "4", "-w", "100ms", "-r", "100ms"];

const runs = [
  ["bits", "^(Bits|Harness)", "@rafkit/bits vs DataView and Buffer"],
  ["syscall-state", "^(CaptureStateUtil|BackendPread)\\.", "@rafkit/syscall-state"],
  ["raf", "^Raf", "@rafkit/raf vs the JDK and node:fs"],
];
for (const [name, filter, title] of runs) {
  console.log(`\n== ${name}`);
  run(
    filter,
    ...settings,
    "--json",
    `${out}/${name}.json`,
    "--chart",
    `${out}/${name}.svg`,
    "--title",
    title,
  );
}

console.log("\n== targets");
run("targets", ...runs.flatMap(([name]) => ["--from", `${out}/${name}.json`]));

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
  [
    "syscall-state",
    "CaptureStateUtil.explicitSuccess",
    "CaptureStateUtil.tlSuccess",
    "capture-explicit-vs-tl-success",
  ],
  [
    "syscall-state",
    "CaptureStateUtil.nodeThrowFail",
    "CaptureStateUtil.tlFail",
    "capture-node-throw-vs-tl-fail",
  ],
  ["syscall-state", "BackendPread.node", "BackendPread.native", "pread-node-vs-native"],
  ["raf", "RafRead.jdkStock", "RafRead.jdkBulk", "raf-read-jdk-stock-vs-bulk"],
  ["raf", "RafRead.jdkBulk", "RafRead.buffered", "raf-read-jdk-vs-buffered"],
  ["raf", "RafWrite.jdkBulk", "RafWrite.buffered", "raf-write-jdk-vs-buffered"],
  ["raf", "RafRead.jdkBulk", "RafRead.unbufferedNative", "raf-read-jdk-vs-unbuffered"],
  ["raf", "RafRead.nodeFs", "RafRead.buffered", "raf-read-nodefs-vs-buffered"],
  ["raf", "RafAsync.fileHandle", "RafAsync.asyncBuffered", "raf-async-filehandle-vs-async"],
]) {
  console.log("");
  run(
    "compare",
    `${out}/${file}.json#${baseline}`,
    `${out}/${file}.json#${candidate}`,
    "--chart",
    `${out}/${chart}.svg`,
  );
}
if (failed > 0) {
  console.error(`\n${failed} command(s) failed`);
  process.exitCode = 1;
}
