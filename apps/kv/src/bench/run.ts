import * as fs from "node:fs";
import * as path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { type Durability, ENGINE_NAMES, type Engine, type EngineName, openEngine } from "./engines";
import { benchKey, randomValue, rng, scrambledZipfian, WORKLOADS } from "./workload";

/** Options of {@link runBench}. */
export interface BenchRunOptions {
  /** A scratch directory; each engine gets a fresh sub-directory. */
  readonly dir: string;
  /** Records loaded (default 100 000). */
  readonly records?: number;
  /** Operations per workload A, B, C (default 100 000). */
  readonly operations?: number;
  /** Value size in bytes (default 100). */
  readonly valueSize?: number;
  /** Writes in flight at once, as from that many concurrent clients (default 256). */
  readonly concurrency?: number;
  readonly durability?: Durability;
  readonly engines?: readonly EngineName[];
  /** Measurement iterations each phase is split into, for the error estimate (default 5). */
  readonly iterations?: number;
  /**
   * First run every engine once on a small unmeasured data set (default true), so that neither the harness's nor
   * an engine's JIT warm-up lands in the first engine's numbers.
   */
  readonly warmup?: boolean;
  /** Called as operations complete, and with each phase's name when it starts. */
  readonly onProgress?: (done: number, total: number, phase: string) => void;
}

/** Latency percentiles, in microseconds. */
export interface Latency {
  readonly p50: number;
  readonly p99: number;
}

/** One phase of one engine. */
export interface PhaseResult {
  readonly engine: EngineName;
  readonly config: string;
  /** `load`, `A`, `B` or `C`. */
  readonly phase: string;
  readonly operations: number;
  readonly seconds: number;
  readonly opsPerSecond: number;
  /** ops/s of each iteration. */
  readonly iterations: readonly number[];
  /** All operations. */
  readonly latency: Latency;
  readonly readLatency?: Latency;
  readonly writeLatency?: Latency;
}

/** The whole run. */
export interface BenchReport {
  readonly records: number;
  readonly operations: number;
  readonly valueSize: number;
  readonly concurrency: number;
  readonly durability: Durability;
  readonly results: readonly PhaseResult[];
}

/** Runs the load phase and workloads A, B, C on each engine in turn. */
export async function runBench(options: BenchRunOptions): Promise<BenchReport> {
  const records = options.records ?? 100_000;
  const operations = options.operations ?? 100_000;
  const valueSize = options.valueSize ?? 100;
  const concurrency = options.concurrency ?? 256;
  const durability = options.durability ?? "batch";
  const engines = options.engines ?? ENGINE_NAMES;
  const iterations = options.iterations ?? 5;
  const total = engines.length * (records + WORKLOADS.length * operations);
  fs.mkdirSync(path.join(options.dir, "measured"), { recursive: true });
  if (options.warmup ?? true) {
    const small = Math.min(2000, records);
    const { onProgress: _quiet, ...rest } = options;
    await runBench({
      ...rest,
      dir: path.join(options.dir, "warmup"),
      records: small,
      operations: Math.min(2000, operations),
      warmup: false,
    });
    fs.rmSync(path.join(options.dir, "warmup"), { recursive: true, force: true });
  }
  let done = 0;
  const results: PhaseResult[] = [];
  // Built once, outside the timed loops, so that the harness costs little next to a fast read.
  const keys = Array.from({ length: records }, (_, i) => benchKey(i));
  for (const name of engines) {
    const engine = await openEngine(name, path.join(options.dir, "measured"), durability);
    try {
      const random = rng(42);
      const values = Array.from({ length: 1024 }, () => randomValue(random, valueSize));
      const phase = async (
        label: string,
        count: number,
        pick: (i: number) => [boolean, string],
      ) => {
        options.onProgress?.(done, total, `${name} ${label}`);
        const r = await runPhase(
          engine,
          label,
          count,
          iterations,
          concurrency,
          pick,
          values,
          (n) => {
            options.onProgress?.(done + n, total, `${name} ${label}`);
          },
        );
        done += count;
        results.push({ ...r, engine: name });
      };
      await phase("load", records, (i) => [false, keys[i]!]);
      const zipf = scrambledZipfian(records, random);
      for (const w of WORKLOADS) {
        await phase(w.name, operations, () => [random() < w.readFraction, keys[zipf()]!]);
      }
    } finally {
      await engine.close();
    }
  }
  options.onProgress?.(total, total, "done");
  return { records, operations, valueSize, concurrency, durability, results };
}

async function runPhase(
  engine: Engine,
  phase: string,
  count: number,
  iterations: number,
  concurrency: number,
  pick: (i: number) => [read: boolean, key: string],
  values: readonly Uint8Array[],
  progress: (done: number) => void,
): Promise<Omit<PhaseResult, "engine">> {
  const reads = new Float64Array(count);
  const writes = new Float64Array(count);
  let nReads = 0;
  let nWrites = 0;
  let outstanding = 0;
  let wake: (() => void) | null = null;
  let failure: unknown = null;
  let sink = 0;
  const onWritten = (start: number) => () => {
    writes[nWrites++] = (performance.now() - start) * 1000;
    outstanding--;
    const w = wake;
    wake = null;
    w?.();
  };
  const onFailed = (error: unknown) => {
    failure ??= error;
    outstanding--;
    const w = wake;
    wake = null;
    w?.();
  };
  const rates: number[] = [];
  const started = performance.now();
  let i = 0;
  for (let it = 0; it < iterations; it++) {
    const end = Math.round(((it + 1) * count) / iterations);
    const t0 = performance.now();
    const from = i;
    for (; i < end; i++) {
      const [read, key] = pick(i);
      if (read) {
        const t = performance.now();
        sink += engine.read(key);
        reads[nReads++] = (performance.now() - t) * 1000;
      } else {
        while (outstanding >= concurrency) await new Promise<void>((resolve) => (wake = resolve));
        outstanding++;
        engine.write(key, values[i & 1023]!).then(onWritten(performance.now()), onFailed);
      }
      if ((i & 8191) === 8191) {
        progress(i);
        await nextTurn();
      }
      if (failure) throw failure;
    }
    while (outstanding > 0) await new Promise<void>((resolve) => (wake = resolve));
    if (failure) throw failure;
    rates.push((i - from) / ((performance.now() - t0) / 1000));
  }
  const seconds = (performance.now() - started) / 1000;
  if (sink === Number.MIN_VALUE) console.log(sink); // keeps reads from being optimised away
  const readLatency = nReads > 0 ? percentiles(reads.subarray(0, nReads)) : undefined;
  const writeLatency = nWrites > 0 ? percentiles(writes.subarray(0, nWrites)) : undefined;
  const all = new Float64Array(nReads + nWrites);
  all.set(reads.subarray(0, nReads));
  all.set(writes.subarray(0, nWrites), nReads);
  return {
    config: engine.config,
    phase,
    operations: count,
    seconds,
    opsPerSecond: count / seconds,
    iterations: rates,
    latency: percentiles(all),
    ...(readLatency ? { readLatency } : {}),
    ...(writeLatency ? { writeLatency } : {}),
  };
}

function percentiles(samples: Float64Array): Latency {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}
