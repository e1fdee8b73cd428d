import type { BenchmarkResult } from "@rafkit/bench";
import { KV_TARGETS } from "./kv-targets";
import { nanosPerOp } from "./units";

/**
 * The groups of targets, each named after the suite module whose benchmarks it needs (see `suites.ts`); `kv`
 * reads `rafkv bench`'s JMH JSON (YCSB phases in ops/s per engine).
 */
export const TARGET_GROUPS = ["bits", "syscall-state", "raf", "raf-async", "kv"] as const;

/** A group of targets. */
export type TargetGroup = (typeof TARGET_GROUPS)[number];

/**
 * One side of a ratio: results of these benchmarks (`Suite.benchmark`) whose params match `params` (a value,
 * or any of a list: `impl: ["jdk25", "jdk17Emulated"]` takes whichever ran). Sides pair up by the params they
 * do not fix and, when a side names several benchmarks, by the method (`readInt` with `readInt`).
 */
export interface Side {
  benchmarks: readonly string[];
  params?: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * One performance target, named for the capability it guarantees. A `ratio` divides two scores (time per op)
 * measured in the same run; a `rate` derives GB/s or MB/s from one. Either compares with `goal`.
 */
export type Target = {
  /** What it guarantees, as a stable id (`buffered-reads-near-floor`). */
  name: string;
  /** Its group (which suites it needs). */
  group: TargetGroup;
  /** What it guarantees, in words. */
  text: string;
  /** The floor or peer it is measured against, in words (named in every FAIL). */
  floor: string;
  /** `>=`, `<=` or `>`: how the value must compare with `goal`. */
  op: ">=" | "<=" | ">";
  /** The bound. */
  goal: number;
  /**
   * Forks its benchmarks run with when the command line gives none (default `TARGET_FORKS`). More where the
   * margin is within the spread between forks: each process lays out its JIT code anew.
   */
  forks?: number;
  /**
   * Warmup iterations its benchmarks run with when the command line gives none (default `TARGET_WARMUP`). More
   * where a fork's first iterations run slower for longer: the JIT keeps recompiling while each iteration's
   * fresh file takes paths the last one did not.
   */
  warmupIterations?: number;
} & (
  | {
      kind: "ratio";
      /** The side whose score is divided. */
      numerator: Side;
      /** The side whose score divides. */
      denominator: Side;
      /** The same ratio on another runtime, printed beside (e.g. JDK 25's own `tlFail / tlSuccess`). */
      peer?: { label: string; numerator: Side; denominator: Side };
      /**
       * The same ratio with a floor in rafkit's place: the best any implementation of this API shape can
       * reach on this machine. When the floor misses the goal too, the outcome is CAPPED, not FAIL: no
       * implementation could meet it, and the line says how far rafkit is from the floor instead.
       */
      cap?: { label: string; numerator: Side; denominator: Side };
    }
  | {
      kind: "rate";
      /** The benchmark. */
      side: Side;
      /** Unit of the rate, for display. */
      unit: string;
      /** The rate from a result (e.g. its `·bandwidth` metric, or bytes per op from a param). */
      rate: (result: BenchmarkResult) => number;
    }
);

/** Forks per benchmark of `targets` when neither the target nor the command line says otherwise. */
export const TARGET_FORKS = 2;

/** Warmup iterations per fork when neither the target nor the command line says otherwise. */
export const TARGET_WARMUP = 3;

/**
 * Warmup of the targets whose forks settle late: 1 s of 100 ms iterations. With 3, the first two measured
 * iterations of many buffered pairings' sides ran 10% to 140% slower than the rest, and random-access-file's
 * async writes 11% to 26% (BENCHMARKS.md, "Targets whose forks settle late warm up for 1 s").
 */
const SETTLING_WARMUP = 10;

const bandwidth = (r: BenchmarkResult) => r.secondaryMetrics["·bandwidth"]?.score ?? Number.NaN;

const one = (benchmark: string, params?: Side["params"]): Side => ({
  benchmarks: [benchmark],
  ...(params ? { params } : {}),
});
const methods = (suite: string, names: readonly string[], params: Side["params"]): Side => ({
  benchmarks: names.map((m) => `${suite}.${m}`),
  ...(params ? { params } : {}),
});

const READS = ["readShort", "readInt", "readLong"];
const WRITES = ["writeShort", "writeInt", "writeLong"];
const RAF = "RandomAccessFileBenchmark";
/** JDK 25's stock RandomAccessFile, or the emulation of it on JDK 17 where no JDK 21+ is installed. */
const JDK_AFTER = { impl: ["jdk25", "jdk17Emulated"] };
const rafkit = { impl: "rafkit" };
const capture = (m: string, impl = "rafkit") => one(`CaptureStateUtilBench.${m}`, { impl });

/** rafkit's performance targets, each against a floor or peer measured in the same run. */
export const TARGETS: readonly Target[] = [
  {
    name: "bits-get-near-dataview",
    group: "bits",
    text: "single get within 1.5x of DataView",
    floor: "DataView#getX",
    kind: "ratio",
    numerator: one("BitsGet.bigEndian"),
    denominator: one("BitsGet.dataView"),
    op: "<=",
    goal: 1.5,
    // As the sets: single forks of these few-nanosecond gets settle at speeds up to 1.6x apart.
    forks: 6,
  },
  {
    // Not DataView itself: since V8 13 (Node 24) a bare DataView set costs ~2.3 ns, and a setter that takes a
    // Uint8Array must also find its view and check the offset (the floor), ~1.8x that (BENCHMARKS.md).
    name: "bits-set-near-floor",
    group: "bits",
    text: "single set within 1.3x of the floor Uint8Array setter",
    floor:
      "a view-cache compare + an integer-offset check + the DataView call, called as the codec is (BitsSet.floor)",
    kind: "ratio",
    numerator: one("BitsSet.bigEndian"),
    denominator: one("BitsSet.floor"),
    // The ratio to DataView's own set, printed beside.
    peer: {
      label: "DataView",
      numerator: one("BitsSet.bigEndian"),
      denominator: one("BitsSet.dataView"),
    },
    op: "<=",
    goal: 1.3,
    // Single forks spread by +-0.1x at these few nanoseconds.
    forks: 6,
  },
  {
    name: "bits-bulk-decode-rate",
    group: "bits",
    text: "bulk BE Int32 decode of 1 MiB at 1 GB/s or more",
    floor: "1 GB/s",
    kind: "rate",
    side: one("BitsBulkDecode.decodeArray"),
    unit: "GB/s",
    rate: bandwidth,
    op: ">=",
    goal: 1,
  },
  {
    name: "bits-utf8-decode-rate",
    group: "bits",
    text: "ASCII modified-UTF-8 decode of 1 KiB at 300 MB/s or more",
    floor: "300 MB/s",
    kind: "rate",
    side: one("BitsModifiedUtf8.modifiedUtf8", { length: "1024" }),
    unit: "MB/s",
    // bytes per ns = GB/s; x1000 = MB/s.
    rate: (r) => (Number(r.params?.length) / nanosPerOp(r.primaryMetric)) * 1000,
    op: ">=",
    goal: 300,
  },
  {
    // Not a rate: a 16-byte string costs ~50 ns in String.fromCharCode alone, over the 53 ns that 300 MB/s allows.
    name: "bits-utf8-short-beats-native",
    group: "bits",
    text: "16-byte ASCII modified-UTF-8 decode at least 1.2x faster than TextDecoder",
    floor: "TextDecoder#decode of the same bytes (Buffer#latin1Slice beside)",
    kind: "ratio",
    numerator: one("BitsModifiedUtf8.textDecoder", { length: "16" }),
    denominator: one("BitsModifiedUtf8.modifiedUtf8", { length: "16" }),
    peer: {
      label: "Buffer latin1",
      numerator: one("BitsModifiedUtf8.bufferLatin1", { length: "16" }),
      denominator: one("BitsModifiedUtf8.modifiedUtf8", { length: "16" }),
    },
    op: ">=",
    goal: 1.2,
    // Two forks of either side spread by more than the margin (BENCHMARKS.md, "Why some targets run more forks").
    forks: 5,
  },
  {
    name: "capture-success-near-raw",
    group: "syscall-state",
    text: "tlSuccess within 1.05x of the raw call",
    floor: "the raw koffi call (rawSuccess)",
    kind: "ratio",
    numerator: capture("tlSuccess"),
    denominator: capture("rawSuccess"),
    peer: {
      label: "JDK 25",
      numerator: capture("tlSuccess", "jdk25"),
      denominator: capture("rawSuccess", "jdk25"),
    },
    op: "<=",
    goal: 1.05,
    // tlSuccess is the raw call and one comparison, 0% to 3% over it, and two forks of either side spread by
    // more (BENCHMARKS.md, "Why some targets run more forks"). The capture targets share sides, so all run 6.
    forks: 6,
  },
  {
    name: "capture-fail-near-success",
    group: "syscall-state",
    text: "tlFail within 1.2x of tlSuccess",
    floor: "the successful call (tlSuccess)",
    kind: "ratio",
    numerator: capture("tlFail"),
    denominator: capture("tlSuccess"),
    peer: {
      label: "JDK 25",
      numerator: capture("tlFail", "jdk25"),
      denominator: capture("tlSuccess", "jdk25"),
    },
    op: "<=",
    goal: 1.2,
  },
  {
    name: "capture-fail-beats-throw",
    group: "syscall-state",
    text: "tlFail at least 10x faster than Node's throw/catch",
    floor: "Node's throw/catch (NodeErrno.throwCatch)",
    kind: "ratio",
    numerator: one("NodeErrno.throwCatch"),
    denominator: capture("tlFail"),
    // Both sides make the failing system call: where a call costs over 1 us, even the bare koffi call, errno
    // unread, is under 10x faster than the throw (BENCHMARKS.md, "A machine with dear system calls").
    cap: {
      label: "raw call",
      numerator: one("NodeErrno.throwCatch"),
      denominator: capture("rawFail"),
    },
    op: ">=",
    goal: 10,
  },
  {
    name: "native-pread-beats-node",
    group: "syscall-state",
    text: "4-byte pread: native faster than node backend",
    floor: "the node:fs backend",
    kind: "ratio",
    numerator: one("BackendPread.node"),
    denominator: one("BackendPread.native"),
    op: ">",
    goal: 1,
  },
  {
    name: "buffered-reads-near-floor",
    group: "raf",
    text: "buffered reads within 1.3x of the floor, every primitive",
    floor: "one pread of the range + a DataView loop (impl=floor)",
    kind: "ratio",
    numerator: methods(RAF, READS, rafkit),
    denominator: methods(RAF, READS, { impl: "floor" }),
    cap: {
      label: "buffered floor",
      numerator: methods(RAF, READS, { impl: "bufferedFloor" }),
      denominator: methods(RAF, READS, { impl: "floor" }),
    },
    op: "<=",
    goal: 1.3,
    // One process's JIT code may run these loops at half speed for its whole life (BENCHMARKS.md, "Why
    // some targets run more forks"): with 2 forks, which forks a ratio drew decides it. JMH's default is 5.
    forks: 5,
    warmupIterations: SETTLING_WARMUP,
  },
  {
    name: "buffered-writes-near-floor",
    group: "raf",
    text: "buffered writes (incl. flush) within 1.3x of pointerOnly, every primitive",
    floor: "a DataView fill with its offset in an object field + one pwrite (impl=pointerOnly)",
    kind: "ratio",
    numerator: methods(RAF, WRITES, rafkit),
    denominator: methods(RAF, WRITES, { impl: "pointerOnly" }),
    // The least any buffered file object does (raf's bench/buffered-floor.mjs): a bound check, the DataView
    // call and an index store per primitive, and an out-of-line flush. On Node 24 that alone misses 1.3x.
    cap: {
      label: "buffered floor",
      numerator: methods(RAF, WRITES, { impl: "bufferedFloor" }),
      denominator: methods(RAF, WRITES, { impl: "pointerOnly" }),
    },
    op: "<=",
    goal: 1.3,
    // As the buffered reads: a slow process lasts its whole life, so more forks.
    forks: 5,
    warmupIterations: SETTLING_WARMUP,
  },
  {
    name: "unbuffered-native-near-jdk25",
    group: "raf",
    text: "unbuffered native within 1.25x of JDK 25's RandomAccessFile, per primitive",
    floor: "JDK 25's stock RandomAccessFile (one JNI call per primitive)",
    kind: "ratio",
    numerator: methods(RAF, [...READS, ...WRITES], { impl: "rafkitUnbuffered" }),
    denominator: methods(RAF, [...READS, ...WRITES], JDK_AFTER),
    cap: {
      label: "native floor",
      numerator: methods(RAF, [...READS, ...WRITES], { impl: "nativeFloor" }),
      denominator: methods(RAF, [...READS, ...WRITES], JDK_AFTER),
    },
    op: "<=",
    goal: 1.25,
    // rafkit sits 3% to 7% over the native floor, and the floor at 1.1x to 1.2x JDK 25: the margin is a few
    // percent, under the spread between forks (BENCHMARKS.md, "Why some targets run more forks").
    forks: 8,
  },
  {
    name: "open-read-close-beats-jdk25",
    group: "raf",
    text: "open, read all, close: buffered at least 5x faster than JDK 25",
    floor: "JDK 25's RandomAccessFile in RandomAccessFileReadBenchmark",
    kind: "ratio",
    numerator: methods("RandomAccessFileReadBenchmark", READS, JDK_AFTER),
    denominator: methods("RandomAccessFileReadBenchmark", READS, rafkit),
    cap: {
      label: "floor",
      numerator: methods("RandomAccessFileReadBenchmark", READS, JDK_AFTER),
      denominator: methods("RandomAccessFileReadBenchmark", READS, { impl: "floor" }),
    },
    op: ">=",
    goal: 5,
  },
  {
    name: "bulk-read-rate",
    group: "raf",
    text: "bulk readInts of 1 MiB at 1 GB/s or more",
    floor: "1 GB/s",
    kind: "rate",
    side: one("RafBulk.readInts"),
    unit: "GB/s",
    rate: bandwidth,
    op: ">=",
    goal: 1,
  },
  {
    name: "async-near-await-floor",
    group: "raf-async",
    text: "async buffered within 1.5x of one await per primitive, reads and writes",
    floor:
      "a loop awaiting an already-resolved value per int, + one awaited pwrite of the range for writes (awaitPerInt)",
    kind: "ratio",
    numerator: one("RafAsync.asyncBuffered"),
    denominator: one("RafAsync.awaitPerInt"),
    op: "<=",
    goal: 1.5,
  },
  {
    name: "async-beats-filehandle",
    group: "raf-async",
    text: "async buffered at least 200x faster than FileHandle per int, reads and writes",
    floor: "fs.promises FileHandle, 4 bytes per int",
    kind: "ratio",
    numerator: one("RafAsync.fileHandle"),
    denominator: one("RafAsync.asyncBuffered"),
    // One await per int is the floor of any async API that returns each int: fileHandle over it is the most
    // any such implementation can reach.
    cap: {
      label: "await floor",
      numerator: one("RafAsync.fileHandle"),
      denominator: one("RafAsync.awaitPerInt"),
    },
    op: ">=",
    goal: 200,
  },
  {
    name: "async-beats-random-access-file",
    group: "raf-async",
    text: "async buffered at least 100x faster than random-access-file",
    floor: "the npm package random-access-file, 4 bytes per int",
    kind: "ratio",
    numerator: one("RafAsync.randomAccessFile"),
    denominator: one("RafAsync.asyncBuffered"),
    // One await per int is the floor of any async API that returns each int: randomAccessFile over it is the most
    // any such implementation can reach.
    cap: {
      label: "await floor",
      numerator: one("RafAsync.randomAccessFile"),
      denominator: one("RafAsync.awaitPerInt"),
    },
    op: ">=",
    goal: 100,
    // The peer's writes settle late; the async targets share their sides, so all three warm up as long.
    warmupIterations: SETTLING_WARMUP,
  },
  {
    name: "async-bulk-read-rate",
    group: "raf-async",
    text: "async bulk readInts of 1 MiB at 1 GB/s or more",
    floor: "1 GB/s",
    kind: "rate",
    side: one("RafAsyncBulk.readInts"),
    unit: "GB/s",
    rate: bandwidth,
    op: ">=",
    goal: 1,
  },
  ...KV_TARGETS,
];
