import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import pc from "picocolors";
import { benchConfigs, benchSummary } from "./bench/report";
import { runBench } from "./bench/run";
import { benchKey } from "./bench/workload";
import { progressBar } from "./progress";
import { open } from "./store";

/** Sizes of {@link runDemo}, and where it writes. */
export interface DemoOptions {
  /** Records loaded (default 100 000). */
  readonly records?: number;
  /** Records and operations per workload of the closing benchmark (default 20 000). */
  readonly benchRecords?: number;
  readonly out?: NodeJS.WritableStream;
  /** Where progress goes: a bar on a terminal, a few plain lines otherwise. Default stderr. */
  readonly err?: NodeJS.WriteStream;
}

/** The demo: create a store, load records, read back and verify, delete and compact, then a short benchmark. */
export async function runDemo(options: DemoOptions = {}): Promise<void> {
  const RECORDS = options.records ?? 100_000;
  const BENCH = options.benchRecords ?? 20_000;
  const out = options.out ?? process.stdout;
  const err = options.err ?? process.stderr;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "rafkv-demo-"));
  const lines: string[] = [];
  const step = (text: string) => {
    out.write(`${pc.bold(pc.cyan("›"))} ${text}\n`);
  };
  const done = (text: string) => {
    lines.push(text);
    out.write(`  ${pc.green("✓")} ${text}\n`);
  };
  try {
    const dir = path.join(root, "store");
    step(`1. creating a store in ${dir} (sync: "batch")`);
    const db = await open(dir, { sync: "batch" });

    step(`2. loading ${RECORDS.toLocaleString("en-US")} records`);
    const recordValue = (i: number) => `value of record ${i}: ${"·".repeat(i % 64)}`;
    let bar = progressBar("load", "records", err);
    let t = performance.now();
    const window: Promise<void>[] = [];
    for (let i = 0; i < RECORDS; i++) {
      window.push(db.put(benchKey(i), recordValue(i)));
      if (window.length === 1000) {
        await Promise.all(window.splice(0));
        bar.update(i + 1, RECORDS);
      }
    }
    await Promise.all(window);
    bar.update(RECORDS, RECORDS);
    bar.stop();
    let ms = performance.now() - t;
    done(
      `loaded ${RECORDS.toLocaleString("en-US")} records in ${ms.toFixed(0)} ms (${rate(RECORDS, ms)} puts/s, fsync'd in batches)`,
    );

    step("3. reading every record back and checking it");
    bar = progressBar("verify", "records", err);
    t = performance.now();
    let bad = 0;
    for (let i = 0; i < RECORDS; i++) {
      if ((await db.getString(benchKey(i))) !== recordValue(i)) bad++;
      if ((i + 1) % 1000 === 0) bar.update(i + 1, RECORDS);
    }
    bar.update(RECORDS, RECORDS);
    bar.stop();
    ms = performance.now() - t;
    if (bad > 0) throw new Error(`${bad} records read back wrong`);
    done(
      `all ${RECORDS.toLocaleString("en-US")} values read back intact in ${ms.toFixed(0)} ms (${rate(RECORDS, ms)} gets/s)`,
    );

    step("4. deleting every third record, then compacting");
    const deletes: Promise<boolean>[] = [];
    for (let i = 0; i < RECORDS; i += 3) deletes.push(db.delete(benchKey(i)));
    await Promise.all(deletes);
    const before = db.stats();
    bar = progressBar("compact", "records", err);
    t = performance.now();
    const compaction = await db.compact({ onProgress: (n, total) => bar.update(n, total) });
    bar.stop();
    ms = performance.now() - t;
    const after = db.stats();
    const check = await db.verify();
    if (!check.ok || after.keys !== RECORDS - deletes.length)
      throw new Error(`verify failed: ${check.problems.join("; ")}`);
    done(
      `deleted ${deletes.length.toLocaleString("en-US")}; compaction copied ${compaction.records.toLocaleString("en-US")} live records in ${ms.toFixed(0)} ms: ${mib(before.totalBytes)} → ${mib(after.totalBytes)}; verify ok`,
    );
    await db.close();

    step(
      `5. a short YCSB-like benchmark against lmdb and classic-level (${n(BENCH)} records, ${n(BENCH)} ops per workload)`,
    );
    bar = progressBar("bench", "ops", err);
    const report = await runBench({
      dir: path.join(root, "bench"),
      records: BENCH,
      operations: BENCH,
      iterations: 3,
      onProgress: (n, total, phase) => bar.update(n, total, phase),
    });
    bar.stop();
    out.write(`\n${pc.dim(benchConfigs(report.results))}\n${benchSummary(report)}\n`);
    out.write(
      `\n${pc.bold("rafkv demo: all steps passed.")} Full benchmark: ${pc.cyan("pnpm --filter @rafkit/kv-example bench")}\n`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function rate(n: number, ms: number): string {
  return Math.round((n / ms) * 1000).toLocaleString("en-US");
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function n(x: number): string {
  return x.toLocaleString("en-US");
}
