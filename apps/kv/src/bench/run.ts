import * as fs from "node:fs";
import * as path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { KvError } from "../errors";
import { type Durability, ENGINE_NAMES, type Engine, type EngineName, openEngine } from "./engines";
import {
  benchKey,
  DEFAULT_INSERT_ORDER,
  type InsertOrder,
  MAX_RECORDS,
  randomValue,
  rng,
  scrambledZipfian,
  WORKLOADS,
} from "./workload";

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
  /** The order the load inserts keys in (default `hashed`, YCSB's default; see {@link InsertOrder}). */
  readonly insertOrder?: InsertOrder;
  readonly engines?: readonly EngineName[];
  /** Measurement iterations each phase is split into, for the error estimate (default 5). */
  readonly iterations?: number;
  /**
   * First run every engine once on an unmeasured data set of 20 000 records and operations per workload (default
   * true), so that neither the harness's nor an engine's JIT warm-up lands in the first engine's numbers.
   */
  readonly warmup?: boolean;
  /**
   * Unmeasured iterations run just before the measured ones of workloads A, B and C (default 1): reads of keys drawn
   * from the phase's distribution, no writes, so that the data is what the previous phase left (the load phase has
   * none: it inserts each record once).
   */
  readonly warmupIterations?: number;
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
  /** Unmeasured iterations run just before (see {@link BenchRunOptions.warmupIterations}). */
  readonly warmupIterations: number;
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
  readonly insertOrder: InsertOrder;
  readonly results: readonly PhaseResult[];
}

/** Runs the load phase and workloads A, B, C on each engine in turn. */
export async function runBench(options: BenchRunOptions): Promise<BenchReport> {
  const records = options.records ?? 100_000;
  const operations = options.operations ?? 100_000;
  const order = options.insertOrder ?? DEFAULT_INSERT_ORDER;
  if (records > MAX_RECORDS)
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `records must be at most ${MAX_RECORDS} (one key per 32-bit record number), got ${records}`,
    );
  fs.mkdirSync(path.join(options.dir, "measured"), { recursive: true });
  // Built once, before the warm-up and outside the timed loops, so that the harness costs little next to a fast
  // read, and so that building them (and the garbage collector promoting them) lands in no engine's numbers.
  const keys = Array.from({ length: records }, (_, i) => flatKey(benchKey(i, order)));
  // The warm-up's engines stay open until every engine has been measured: closing one changes fields that its
  // optimised code took for constants (a store's closed flag, say), which throws away that code, and the engine
  // would then compile its whole read and write path again on its own clock, in its first measured phases.
  const warm: Engine[] = [];
  const warmDir = path.join(options.dir, "warmup");
  try {
    if (options.warmup ?? true) {
      // Large enough to take every path of the timed loop (a chunk is 8192 operations): a path first taken while
      // measuring would have its code deoptimised and recompiled in the first engine's numbers only.
      const small = Math.min(WARMUP_OPERATIONS, records);
      const { onProgress: _quiet, ...rest } = options;
      const warmKeys = Array.from({ length: small }, (_, i) => flatKey(benchKey(i, order)));
      await runEngines(
        {
          ...rest,
          dir: warmDir,
          records: small,
          operations: Math.min(WARMUP_OPERATIONS, operations),
        },
        warmKeys,
        warm,
      );
    }
    return await runEngines(options, keys, null);
  } finally {
    for (const engine of warm) await engine.close();
    fs.rmSync(warmDir, { recursive: true, force: true });
  }
}

/**
 * Runs every engine of `options` on `keys`, in `options.dir/measured`. Each engine is closed when done, or, when
 * `keepOpen` is given, added to it for the caller to close.
 */
async function runEngines(
  options: BenchRunOptions,
  keys: readonly string[],
  keepOpen: Engine[] | null,
): Promise<BenchReport> {
  const records = keys.length;
  const operations = options.operations ?? 100_000;
  const valueSize = options.valueSize ?? 100;
  const concurrency = options.concurrency ?? 256;
  const durability = options.durability ?? "batch";
  const engines = options.engines ?? ENGINE_NAMES;
  const iterations = options.iterations ?? 5;
  const warmupIterations = options.warmupIterations ?? 1;
  const total = engines.length * (records + WORKLOADS.length * operations);
  fs.mkdirSync(path.join(options.dir, "measured"), { recursive: true });
  let done = 0;
  const results: PhaseResult[] = [];
  for (const name of engines) {
    const engine = await openEngine(name, path.join(options.dir, "measured"), durability);
    try {
      const random = rng(42);
      const values = Array.from({ length: 1024 }, () => randomValue(random, valueSize));
      const phase = async (label: string, ops: Int32Array, warmed: number) => {
        options.onProgress?.(done, total, `${name} ${label}`);
        const r = await runPhase(engine, label, ops, keys, iterations, concurrency, values, (n) => {
          options.onProgress?.(done + n, total, `${name} ${label}`);
        });
        done += ops.length;
        results.push({ ...r, engine: name, warmupIterations: warmed });
      };
      await phase(
        "load",
        Int32Array.from({ length: records }, (_, i) => ~i),
        0,
      );
      const zipf = scrambledZipfian(records, random);
      // The warm-up iterations' operations come from a generator of their own, so that the measured ones are the
      // same whether or not there is a warm-up.
      const warmRandom = rng(43);
      const warmZipf = scrambledZipfian(records, warmRandom);
      for (const w of WORKLOADS) {
        // Drawn before the clock starts, so that the harness's cost stays small next to a sub-µs read.
        const draw = (n: number, readFraction: number, rand: () => number, next: () => number) => {
          const ops = new Int32Array(n);
          for (let i = 0; i < n; i++) {
            const read = rand() < readFraction;
            const k = next();
            ops[i] = read ? k : ~k;
          }
          return ops;
        };
        const ops = draw(operations, w.readFraction, random, zipf);
        if (warmupIterations > 0) {
          // Unmeasured, just before the measured iterations, as JMH's warm-up iterations, so that the CPU caches
          // hold this phase's data (the hot keys, the engine's index) rather than what the previous phase, or other
          // processes while it waited for its last flush, left there (see BENCHMARKS.md, "Code choices"). Reads
          // only, of keys drawn as the phase draws them: extra writes would change what every engine holds.
          const warm = draw(
            Math.ceil((warmupIterations * operations) / iterations),
            1,
            warmRandom,
            warmZipf,
          );
          await runPhase(engine, w.name, warm, keys, 1, concurrency, values, () => undefined);
        }
        await phase(w.name, ops, warmupIterations);
      }
    } finally {
      if (keepOpen) keepOpen.push(engine);
      else await engine.close();
    }
  }
  options.onProgress?.(total, total, "done");
  const insertOrder = options.insertOrder ?? DEFAULT_INSERT_ORDER;
  return { records, operations, valueSize, concurrency, durability, insertOrder, results };
}

/**
 * The key as a flat string, as keys read from a file or a socket are. A template literal makes a rope (V8's cons
 * string), which the first engine to read its chars would flatten for all the others: that cost, and its garbage,
 * would land in the first engine's load phase only.
 */
function flatKey(key: string): string {
  return Buffer.from(key, "latin1").toString("latin1");
}

/** Records and operations per phase of the warm-up run. */
const WARMUP_OPERATIONS = 20_000;

/** Reads are timed one in this many (the first of each run of them): two clock reads cost about as much as a fast get. */
const READ_SAMPLE = 16;

/** What the timed loop of one phase keeps between calls of {@link runOps}. */
interface PhaseState {
  readonly engine: Engine;
  readonly ops: Int32Array;
  readonly keys: readonly string[];
  readonly values: readonly Uint8Array[];
  readonly concurrency: number;
  /** Sampled read latencies, µs. */
  readonly reads: Float64Array;
  /** Write latencies, µs. */
  readonly writes: Float64Array;
  readOps: number;
  nReads: number;
  nWrites: number;
  outstanding: number;
  sink: number;
  wake: (() => void) | null;
  failure: unknown;
  onWritten: (start: number) => () => void;
  onFailed: (error: unknown) => void;
}

/**
 * Runs `ops[i, stop)` (a key index `k` for a read of `keys[k]`, `~k` for a write), issuing writes while fewer than
 * `concurrency` are in flight; returns the index it stopped at: `stop`, or a write that must wait for a slot.
 *
 * A plain function, not part of the async {@link runPhase}: V8 optimises a hot loop inside an async function late
 * (see BENCHMARKS.md, "Code choices"), and this loop is the harness's whole cost per operation.
 */
function runOps(s: PhaseState, i: number, stop: number): number {
  const { engine, ops, keys, values, reads } = s;
  let readOps = s.readOps;
  let nReads = s.nReads;
  let sink = s.sink;
  for (; i < stop; i++) {
    const op = ops[i]!;
    if (op >= 0) {
      if (readOps++ % READ_SAMPLE === 0) {
        const t = performance.now();
        sink += engine.read(keys[op]!);
        reads[nReads++] = (performance.now() - t) * 1000;
      } else {
        sink += engine.read(keys[op]!);
      }
    } else {
      if (s.outstanding >= s.concurrency) break;
      s.outstanding++;
      engine.write(keys[~op]!, values[i & 1023]!).then(s.onWritten(performance.now()), s.onFailed);
    }
  }
  s.readOps = readOps;
  s.nReads = nReads;
  s.sink = sink;
  return i;
}

/**
 * Runs a phase's `ops` (see {@link runOps}) in `iterations` parts, writes with up to `concurrency` in flight. Every
 * write's latency is recorded; reads are timed on a 1-in-{@link READ_SAMPLE} sample, weighted accordingly in the
 * percentiles of all operations. The same for every engine.
 */
async function runPhase(
  engine: Engine,
  phase: string,
  ops: Int32Array,
  keys: readonly string[],
  iterations: number,
  concurrency: number,
  values: readonly Uint8Array[],
  progress: (done: number) => void,
): Promise<Omit<PhaseResult, "engine" | "warmupIterations">> {
  const count = ops.length;
  const wakeUp = () => {
    const w = s.wake;
    s.wake = null;
    w?.();
  };
  const s: PhaseState = {
    engine,
    ops,
    keys,
    values,
    concurrency,
    reads: new Float64Array(Math.ceil(count / READ_SAMPLE) + 1),
    writes: new Float64Array(count),
    readOps: 0,
    nReads: 0,
    nWrites: 0,
    outstanding: 0,
    sink: 0,
    wake: null,
    failure: null,
    onWritten: (start) => () => {
      s.writes[s.nWrites++] = (performance.now() - start) * 1000;
      s.outstanding--;
      wakeUp();
    },
    onFailed: (error) => {
      s.failure ??= error;
      s.outstanding--;
      wakeUp();
    },
  };
  const slot = () => new Promise<void>((resolve) => (s.wake = resolve));
  const rates: number[] = [];
  const started = performance.now();
  let i = 0;
  for (let it = 0; it < iterations; it++) {
    const end = Math.round(((it + 1) * count) / iterations);
    const t0 = performance.now();
    const from = i;
    while (i < end) {
      // A chunk at a time: between chunks, report progress and let the event loop run.
      const stop = Math.min(end, (i | 8191) + 1);
      while (i < stop) {
        i = runOps(s, i, stop);
        if (i < stop) {
          while (s.outstanding >= concurrency) await slot();
          if (s.failure) throw s.failure;
        }
      }
      if ((i & 8191) === 0 && i < end) {
        progress(i);
        await nextTurn();
      }
      if (s.failure) throw s.failure;
    }
    while (s.outstanding > 0) await slot();
    if (s.failure) throw s.failure;
    rates.push((i - from) / ((performance.now() - t0) / 1000));
  }
  const seconds = (performance.now() - started) / 1000;
  if (s.sink === Number.MIN_VALUE) console.log(s.sink); // keeps reads from being optimised away
  const { nReads, nWrites, readOps } = s;
  const readSamples = s.reads.subarray(0, nReads);
  const writeSamples = s.writes.subarray(0, nWrites);
  const readLatency = nReads > 0 ? percentiles([[readSamples, 1]]) : undefined;
  const writeLatency = nWrites > 0 ? percentiles([[writeSamples, 1]]) : undefined;
  return {
    config: engine.config,
    phase,
    operations: count,
    seconds,
    opsPerSecond: count / seconds,
    iterations: rates,
    latency: percentiles([
      [readSamples, nReads > 0 ? readOps / nReads : 0],
      [writeSamples, 1],
    ]),
    ...(readLatency ? { readLatency } : {}),
    ...(writeLatency ? { writeLatency } : {}),
  };
}

/** p50 and p99 over groups of samples, each sample of a group standing for `weight` operations. */
function percentiles(groups: readonly [samples: Float64Array, weight: number][]): Latency {
  const sorted = groups.map(
    ([samples, weight]) => [Float64Array.from(samples).sort(), weight] as const,
  );
  const total = sorted.reduce((sum, [samples, weight]) => sum + samples.length * weight, 0);
  const at = (q: number) => {
    // Merge the sorted groups until the weight seen passes q of the total.
    const next = sorted.map(() => 0);
    let seen = 0;
    let last = 0;
    for (;;) {
      let g = -1;
      for (let j = 0; j < sorted.length; j++) {
        const [samples] = sorted[j]!;
        if (next[j]! < samples.length && (g < 0 || samples[next[j]!]! < sorted[g]![0][next[g]!]!))
          g = j;
      }
      if (g < 0) return last;
      const [samples, weight] = sorted[g]!;
      last = samples[next[g]!++]!;
      seen += weight;
      if (seen > q * total) return last;
    }
  };
  return { p50: at(0.5), p99: at(0.99) };
}
