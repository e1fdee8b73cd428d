import * as fs from "node:fs";
import * as path from "node:path";
import { type Command, Option } from "commander";
import { ENGINE_NAMES, type EngineName } from "./bench/engines";
import { DEFAULT_INSERT_ORDER, INSERT_ORDERS, type InsertOrder } from "./bench/workload";
import { toInt } from "./cli-util";
import { KvError } from "./errors";
import type { OutputSink } from "./output-sink";
import { progressBar } from "./progress";

/**
 * Adds `rafkv <dir> bench` to `program`: the YCSB-like benchmark in a scratch directory under `<dir>` (BENCHMARKS.md).
 * The harness and the other engines load only when it runs.
 */
export function addBenchCommand(
  program: Command,
  needDir: () => string,
  sink: OutputSink,
  stderr: NodeJS.WriteStream,
): void {
  program
    .command("bench")
    .description(
      "YCSB-like load + workloads A/B/C vs lmdb and classic-level, in a scratch dir under <dir>",
    )
    .option("--records <n>", "records to load", toInt, 100_000)
    .option("--ops <n>", "operations per workload", toInt, 100_000)
    .option("--value-size <n>", "value size in bytes", toInt, 100)
    .option("--concurrency <n>", "writes in flight", toInt, 256)
    .addOption(
      new Option("--durability <d>", "batch: fsync'd group commits; none: no fsync")
        .choices(["batch", "none"])
        .default("batch"),
    )
    .addOption(
      new Option(
        "--insert-order <order>",
        "the load's key order, as YCSB's insertorder: hashed (its default) or ordered (a B-tree's best case)",
      )
        .choices(INSERT_ORDERS)
        .default(DEFAULT_INSERT_ORDER),
    )
    .option(
      "--engines <list>",
      `comma-separated subset of ${ENGINE_NAMES.join(",")}`,
      ENGINE_NAMES.join(","),
    )
    .option("--out <dir>", "write bench.json (JMH format) and bench.svg here")
    .option("--table", "also print the JMH-style result table")
    .action(
      async (opts: {
        records: number;
        ops: number;
        valueSize: number;
        concurrency: number;
        durability: "batch" | "none";
        insertOrder: InsertOrder;
        engines: string;
        out?: string;
        table?: boolean;
      }) => {
        const engines = opts.engines.split(",").map((e) => e.trim()) as EngineName[];
        for (const e of engines) {
          if (!ENGINE_NAMES.includes(e))
            throw new KvError("ERR_KV_INVALID_ARG", `unknown engine ${e}`);
        }
        const base = needDir();
        if (!fs.existsSync(base))
          throw new KvError("ERR_KV_NO_STORE", `no such directory: ${base}`, base);
        const scratch = fs.mkdtempSync(path.join(base, "rafkv-bench-"));
        const bar = progressBar("bench", "ops", stderr);
        // Loaded on demand, so that the other commands never load the harness or the other stores.
        const { benchChart, benchConfigs, benchJson, benchSummary, benchTable, runBench } =
          await import("./bench");
        try {
          const report = await runBench({
            dir: scratch,
            records: opts.records,
            operations: opts.ops,
            valueSize: opts.valueSize,
            concurrency: opts.concurrency,
            durability: opts.durability,
            insertOrder: opts.insertOrder,
            engines,
            onProgress: (done, total, phase) => bar.update(done, total, phase),
          });
          bar.stop();
          await sink.write(
            `${opts.records} records, ${opts.valueSize}-byte values, ${opts.ops} ops per workload, ${opts.concurrency} writes in flight, ${opts.insertOrder} inserts\n${benchConfigs(report.results)}\n\n${benchSummary(report)}\n`,
          );
          if (opts.table) await sink.write(`\n${benchTable(report)}\n`);
          if (opts.out) {
            fs.mkdirSync(opts.out, { recursive: true });
            fs.writeFileSync(path.join(opts.out, "bench.json"), benchJson(report));
            fs.writeFileSync(path.join(opts.out, "bench.svg"), benchChart(report));
            await sink.write(
              `\nwrote ${path.join(opts.out, "bench.json")} and ${path.join(opts.out, "bench.svg")}\n`,
            );
          }
        } finally {
          bar.stop();
          fs.rmSync(scratch, { recursive: true, force: true });
        }
      },
    );
}
