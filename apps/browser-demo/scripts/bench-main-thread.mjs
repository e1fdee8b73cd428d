#!/usr/bin/env node
// Measures main-thread OPFS I/O in Debian's Chromium: a worker owning a sync handle vs createWritable/getFile.
// `node scripts/bench-main-thread.mjs [ops]`; prints ms per op for 4 KiB random reads and 4-byte random writes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "./bundle.mjs";
import { launchChromium } from "./chromium.mjs";
import { serve } from "./serve.mjs";

const ops = Number(process.argv[2] ?? 300);
const out = mkdtempSync(join(tmpdir(), "rafkit-bench-"));
await bundle({
  entryPoints: [fileURLToPath(new URL("../harness/bench.ts", import.meta.url))],
  outdir: out,
});
writeFileSync(
  join(out, "index.html"),
  `<!doctype html><link rel="icon" href="data:,"><script type="module" src="./bench.js"></script>`,
);
const server = await serve([out], out);
const { context, profile } = await launchChromium();
try {
  const page = await context.newPage();
  await page.goto(`${server.url}/index.html?ops=${ops}`);
  const r = await page.evaluate(() => window.bench, undefined, { timeout: 600_000 });
  const per = (ms) => `${((ms * 1000) / r.ops).toFixed(1)} µs/op`;
  console.log(`${r.ops} ops on a ${r.size >> 20} MiB OPFS file, page main thread:`);
  console.log(
    `  4 KiB random reads:  worker ${per(r.worker.read4k)}, getFile().slice() ${per(r.writable.read4k)}`,
  );
  console.log(
    `  4 B random writes:   worker ${per(r.worker.write4)}, createWritable()+close() ${per(r.writable.write4)}`,
  );
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
}
