// The cost of sync points and the seal's second fsync (BENCHMARKS.md, "Sync points"): one measurement of one build,
// printed as a JSON line. Run it against two builds in turn, alternating:
//   node apps/kv/scripts/sync-cost.mjs <a build's apps/kv/dist/index.js> <scratch dir on the disk> <case>
// Cases (100-byte values):
//   always  3 000 sequential puts under sync "always" (a sync point before every put but the first)
//   batch   100 000 puts under "batch", 256 in flight (a sync point per group)
//   rotate  as batch, with 256 KiB data files: a seal (and its second fsync) every ~2 000 puts
//   close   20 rounds of open, 200 puts under "batch", close (a seal at every close); per op: one close
//   bytes   data bytes per put after 20 000 puts, under "always" and "batch"
import * as fs from "node:fs";
import * as path from "node:path";

const [dist, base, kind] = process.argv.slice(2);
const { open } = await import(path.resolve(dist));
const dir = fs.mkdtempSync(path.join(base, "sync-cost-"));
const value = "v".repeat(100);
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** `n` puts of key `k${i % keys}` with `inFlight` of them in flight. */
async function puts(db, n, keys, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await db.put(`k${i % keys}`, value);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

let ops = 0;
let ms = 0;
const extra = {};
if (kind === "always" || kind === "batch" || kind === "rotate") {
  const sync = kind === "always" ? "always" : "batch";
  const db = await open(dir, { sync, ...(kind === "rotate" ? { maxFileSize: 256 * 1024 } : {}) });
  ops = kind === "always" ? 3000 : 100_000;
  const t = now();
  await puts(db, ops, kind === "always" ? 1000 : 20_000, kind === "always" ? 1 : 256);
  ms = now() - t;
  await db.close();
} else if (kind === "close") {
  for (let round = 0; round < 20; round++) {
    const db = await open(dir, { sync: "batch" });
    await puts(db, 200, 200, 200);
    const t = now();
    await db.close();
    ms += now() - t;
    ops++;
  }
} else if (kind === "bytes") {
  for (const sync of ["always", "batch"]) {
    const db = await open(path.join(dir, sync), { sync });
    await puts(db, 20_000, 20_000, sync === "always" ? 1 : 256);
    extra[sync] = db.stats().totalBytes / 20_000;
    await db.close();
  }
} else {
  throw new Error(`unknown case ${kind}`);
}
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ kind, ops, ms: Math.round(ms * 10) / 10, perOp: ms / ops, ...extra }));
