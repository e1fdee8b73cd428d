// Merges the results JSON of several node.exe runs (scripts/ci/windows.sh) into one file for the support
// matrix, and prints the closing "N passed, N failed" over all of them. A run that wrote no file counts as
// one failure, so a node.exe that died before its summary cannot pass unnoticed.
// Usage: node merge-results.mjs OUT RUN.json...
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const [out, ...runs] = process.argv.slice(2);
let merged;
let missing = 0;
for (const file of runs) {
  if (!existsSync(file)) {
    console.log(`  FAIL ${file}: node.exe wrote no results`);
    missing++;
    continue;
  }
  const doc = JSON.parse(readFileSync(file, "utf8"));
  if (merged === undefined) merged = doc;
  else {
    merged.passed += doc.passed;
    merged.failed += doc.failed;
    merged.skipped = (merged.skipped ?? 0) + (doc.skipped ?? 0);
    merged.tests.push(...doc.tests);
  }
}
if (merged !== undefined) {
  merged.failed += missing;
  writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
}
const passed = merged?.passed ?? 0;
const failed = (merged?.failed ?? 0) + (merged === undefined ? missing : 0);
console.log(`${merged?.skipped ?? 0} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
