import * as fs from "node:fs";
import * as path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { benchChart, benchJson, benchSummary, benchTable } from "../src/bench/report";
import { runBench } from "../src/bench/run";
import { benchKey, rng, scrambledZipfian } from "../src/bench/workload";
import { runCli } from "../src/cli-main";
import { open } from "../src/store";
import { tempDir } from "./helpers";

describe("YCSB workload generator", () => {
  it("draws skewed keys within range, repeatably", () => {
    const n = 1000;
    const draw = scrambledZipfian(n, rng(7));
    const counts = new Map<number, number>();
    for (let i = 0; i < 20_000; i++) {
      const k = draw();
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(n);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const top = Math.max(...counts.values());
    expect(top).toBeGreaterThan(10 * (20_000 / n)); // far hotter than uniform
    const again = scrambledZipfian(n, rng(7));
    const first = scrambledZipfian(n, rng(7));
    expect(Array.from({ length: 10 }, again)).toEqual(Array.from({ length: 10 }, first));
    expect(benchKey(42)).toBe("user0000000042");
  });

  it("names records in hashed order (YCSB's insertorder): 14-byte keys, distinct, in no key order", () => {
    const n = 100_000;
    const hashed = Array.from({ length: n }, (_, i) => benchKey(i, "hashed"));
    expect(hashed.every((k) => /^user\d{10}$/.test(k))).toBe(true);
    expect(new Set(hashed).size).toBe(n);
    let rises = 0;
    for (let i = 1; i < n; i++) if (hashed[i]! > hashed[i - 1]!) rises++;
    // A random order rises about half the time; the ordered names every time.
    expect(rises / (n - 1)).toBeGreaterThan(0.45);
    expect(rises / (n - 1)).toBeLessThan(0.55);
    expect(benchKey(n - 1, "hashed")).toBe(hashed[n - 1]); // the same name every time
    const ordered = Array.from({ length: 1000 }, (_, i) => benchKey(i, "ordered"));
    expect(ordered.every((k, i) => i === 0 || k > ordered[i - 1]!)).toBe(true);
  });
});

describe("bench", () => {
  it("runs load and A/B/C on all three engines and reports through @rafkit/bench", async () => {
    const report = await runBench({
      dir: tempDir(),
      records: 400,
      operations: 400,
      iterations: 2,
      concurrency: 16,
    });
    expect(report.results.map((r) => `${r.engine}:${r.phase}`)).toEqual(
      ["rafkv", "lmdb", "classic-level"].flatMap((e) =>
        ["load", "A", "B", "C"].map((p) => `${e}:${p}`),
      ),
    );
    for (const r of report.results) {
      expect(r.opsPerSecond).toBeGreaterThan(0);
      expect(r.iterations).toHaveLength(2);
      expect(r.latency.p99).toBeGreaterThanOrEqual(r.latency.p50);
    }
    const c = report.results.find((r) => r.phase === "C")!;
    expect(c.writeLatency).toBeUndefined();
    // One unmeasured warm-up iteration before A, B and C, none before the load; JMH's JSON says so.
    expect(report.results.map((r) => r.warmupIterations)).toEqual(
      Array.from({ length: 3 }, () => [0, 1, 1, 1]).flat(),
    );
    expect(
      (JSON.parse(benchJson(report)) as { warmupIterations: number }[]).map(
        (r) => r.warmupIterations,
      ),
    ).toEqual(Array.from({ length: 3 }, () => [0, 1, 1, 1]).flat());
    expect(benchSummary(report)).toMatch(/rafkv \/ lmdb: load [\d.]+x, A/);
    expect(benchTable(report)).toMatch(/ycsb\.A\s+classic-level\s+hashed\s+thrpt/);
    expect(JSON.parse(benchJson(report))).toHaveLength(12);
    expect(benchChart(report)).toMatch(/<svg[^>]*>[\s\S]*classic-level[\s\S]*<\/svg>/);
  });

  it("loads in hashed order unless told otherwise, and says which in its report and JSON", async () => {
    for (const order of [undefined, "ordered"] as const) {
      const dir = tempDir();
      const report = await runBench({
        dir,
        records: 300,
        operations: 100,
        iterations: 1,
        concurrency: 8,
        engines: ["rafkv"],
        warmup: false,
        ...(order ? { insertOrder: order } : {}),
      });
      const used = order ?? "hashed";
      expect(report.insertOrder).toBe(used);
      const json = JSON.parse(benchJson(report)) as { params: Record<string, string> }[];
      expect(json.every((r) => r.params.insertOrder === used)).toBe(true);
      // The store the load filled holds the keys of that order, and not the other's.
      const db = await open(path.join(dir, "measured", "rafkv"));
      try {
        expect(await db.has(benchKey(7, used))).toBe(true);
        expect(await db.has(benchKey(7, used === "hashed" ? "ordered" : "hashed"))).toBe(false);
      } finally {
        await db.close();
      }
    }
  });

  it("refuses more records than 32-bit record numbers name, before creating anything", async () => {
    const dir = tempDir();
    await expect(runBench({ dir, records: 2 ** 32 + 1 })).rejects.toMatchObject({
      code: "ERR_KV_INVALID_ARG",
    });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("keeps the warm-up's engines open until every engine has been measured, then removes them", async () => {
    const dir = tempDir();
    const warmup = path.join(dir, "warmup");
    const seen = new Map<string, boolean>();
    await runBench({
      dir,
      records: 300,
      operations: 300,
      iterations: 1,
      concurrency: 8,
      onProgress: (_done, _total, phase) => {
        // Only measured phases report progress; the warm-up's stores must still be there (open) meanwhile.
        if (!seen.has(phase))
          seen.set(phase, fs.existsSync(path.join(warmup, "measured", "rafkv")));
      },
    });
    expect(seen.get("rafkv load")).toBe(true);
    expect(seen.get("classic-level C")).toBe(true);
    expect(fs.existsSync(warmup)).toBe(false);
  });

  it("is available as rafkv DIR bench, writing JSON and a chart", async () => {
    const dir = tempDir();
    const out: Buffer[] = [];
    const stdout = new PassThrough();
    stdout.on("data", (d: Buffer) => out.push(d));
    const code = await runCli(
      [
        dir,
        "bench",
        "--records",
        "200",
        "--ops",
        "200",
        "--engines",
        "rafkv,lmdb",
        "--durability",
        "none",
        "--table",
        "--out",
        path.join(dir, "out"),
      ],
      {
        stdout,
        stderr: new PassThrough() as unknown as NodeJS.WriteStream,
        stdin: Readable.from([]),
      },
    );
    expect(code).toBe(0);
    expect(Buffer.concat(out).toString()).toMatch(/sync: "never"; lmdb: noSync: true/);
    expect(Buffer.concat(out).toString()).toMatch(/writes in flight, hashed inserts/);
    expect(Buffer.concat(out).toString()).toMatch(/ycsb.load:·p99\s+lmdb\s+hashed\s+thrpt/);
    expect(fs.existsSync(path.join(dir, "out", "bench.svg"))).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(["out"]); // the scratch stores are gone
  });
});
