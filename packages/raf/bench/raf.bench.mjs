// Suites for @rafkit/raf in the shapes of the JDK reviews' benchmarks, so that their tables hold next to the
// reviews': RandomAccessFileBenchmark (JDK-8298639: seek(0), then size/N reads or writes of an N-byte
// primitive per op) and RandomAccessFileReadBenchmark (JDK-8292937: open "r", read the whole file, close, per
// op). The names, params (`kiloBytes` 1 and 5), mode and unit are the JDK's; the `impl` param says who does
// the work: the JDK's own RandomAccessFile (an external fork of java/RafBench.java, through the same
// statistics), rafkit, Node's fs, or a floor.
import { randomFillSync } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineSuite, iterationArg, javaCommand } from "@rafkit/bench";
import { RandomAccessFile } from "@rafkit/raf";
import { isNativeAvailable, nativeLibc } from "@rafkit/syscall-state";
import { CODECS, directMemory, fastBackend, NODE_IMPLS, OPEN_READ_CLOSE, WIDTH } from "./impls.mjs";
import { hasBulkJdk, jdk17, jdk25, jdkUnavailable } from "./jdks.mjs";

/** The Java side of the suites, beside this file. */
const RAF_BENCH_JAVA = fileURLToPath(new URL("./java/RafBench.java", import.meta.url));
const nativeUnavailable = () =>
  isNativeAvailable() ? undefined : "the native (koffi) backend does not load on this platform";
/** Why libc's own pread/pwrite cannot be bound here (Windows has kernel32 instead), or undefined. */
function libcUnavailable() {
  try {
    nativeLibc();
    return undefined;
  } catch (error) {
    return `libc's pread/pwrite do not bind here: ${error.message}`;
  }
}

/** The JDKs: before, after, or (without any JDK 21+) the after emulated on JDK 17. */
const JDK_IMPLS = ["jdk17", hasBulkJdk() ? "jdk25" : "jdk17Emulated"];

/**
 * The JDK as an external fork (`java RafBench BENCHMARK OP KILOBYTES VARIANT ...`), one process per fork;
 * undefined for the impls that run in Node.
 */
function jdkCommand(benchmark, op) {
  return ({ impl, kiloBytes }, o) => {
    const java =
      impl === "jdk17" || impl === "jdk17Emulated"
        ? jdk17()
        : impl === "jdk25"
          ? jdk25()
          : undefined;
    if (java === undefined) return undefined;
    return javaCommand(
      RAF_BENCH_JAVA,
      [
        benchmark,
        op,
        String(kiloBytes),
        impl === "jdk17Emulated" ? "emulated" : "stock",
        String(o.warmup.iterations),
        iterationArg(o.warmup, o.mode),
        String(o.measurement.iterations),
        iterationArg(o.measurement, o.mode),
        tmpdir(),
      ],
      { java },
    );
  };
}

const unavailable = ({ impl }) =>
  jdkUnavailable(impl) ??
  (impl === "rafkitUnbuffered"
    ? nativeUnavailable()
    : impl === "nativeFloor"
      ? libcUnavailable()
      : undefined);

function rafState({ kiloBytes, impl }) {
  const size = kiloBytes * 1024;
  // The floors' view runs past the file's bytes, as rafkit's window's does: on Node 24 a DataView set ending
  // at the view's last byte deoptimises, and the floor would be measured slow (see rafkit's Window).
  const backing = new ArrayBuffer(size + 8);
  const bytes = new Uint8Array(backing, 0, size);
  const small = Buffer.alloc(8);
  return {
    impl: NODE_IMPLS[impl],
    size,
    count: 0,
    width: 0,
    small,
    bytes,
    view: new DataView(backing),
    values: [],
    backend: fastBackend(),
    libc: impl === "nativeFloor" ? nativeLibc() : undefined,
    direct: impl === "nativeFloor" ? directMemory() : undefined,
    handle: undefined,
    dir: "",
    path: "",
    cursor: { pointer: 0 },
  };
}

/** The primitive a benchmark method works on: `readInt` -> Int. */
const primitiveOf = (method) => method.replace(/^(read|write)/, "");

/**
 * `Level.Iteration` setup, as in the JDK benchmark: a fresh file of random bytes, read once so the page cache
 * is warm, fresh values to write, and the impl's handle on it. Untimed.
 */
function openIteration(s) {
  s.dir = mkdtempSync(join(tmpdir(), "rafkit-bench-raf-"));
  s.path = join(s.dir, "data.bin");
  writeFileSync(s.path, randomFillSync(new Uint8Array(s.size)));
  readFileSync(s.path);
  s.valueBytes = randomFillSync(new Uint8Array(s.size));
  // The first call of the iteration views the fresh bytes as its primitive's values (see `method`).
  s.width = 0;
  s.handle = s.impl?.open(s.path);
}

function closeIteration(s) {
  if (s.handle !== undefined) s.impl.close(s.handle);
  s.handle = undefined;
  rmSync(s.dir, { recursive: true, force: true });
}

/** One seed-shaped benchmark method (`readInt`, ...): the impl's loop, or the JDK's fork. */
function method(benchmark, name, body) {
  const codec = CODECS[primitiveOf(name)];
  const width = WIDTH[primitiveOf(name)];
  return {
    run(bh, s) {
      // Set on the first call of each iteration: the state does not know which method it serves.
      if (s.width !== width) {
        s.width = width;
        s.count = s.size / width;
        s.values = codec.values(s.valueBytes);
      }
      return body(s, codec, bh);
    },
    external: { command: jdkCommand(benchmark, name) },
    unavailable,
  };
}

const read = (s, codec, bh) => s.impl.read(s.handle, s, codec, bh);
const write = (s, codec) => s.impl.write(s.handle, s, codec);

/**
 * RandomAccessFileBenchmark (JDK-8298639): seek(0), then size/N `readShort`/`readInt`/`readLong` (each value
 * to the blackhole) or writes of random values per op. `impl`: `jdk17` (RandomAccessFile byte by byte, the
 * reviews' "before"), `jdk25` (bulk, the "after"; `jdk17Emulated` stands in without a JDK 21+), `rafkit`
 * (defaults: 8 KiB window, native backend; writes include the final flush), `rafkitUnbuffered` /
 * `rafkitUnbufferedNode` (`bufferSize: 0`: one system call per primitive), `nodeFs` (`fs.readSync` of N
 * bytes per primitive, what Node code does today), `nativeFloor` (libc's `pread`/`pwrite` of N bytes through
 * koffi per primitive, unchecked, on memory at a fixed address, and a `DataView`: the floor of any
 * unbuffered native file), `floor` (one
 * `pread` of the range and a `DataView` loop; for writes a `DataView` fill and one `pwrite`), `pointerOnly`
 * (the floor with its offset in an object's field, the floor of any stateful file API) and `bufferedFloor`
 * (a file object with rafkit's methods and one window, nothing else: per primitive a bound check, a
 * `DataView` access and an index store, with an out-of-line refill or flush when the bound fails; the floor
 * of any buffered file API, buffered-floor.mjs).
 */
export const RandomAccessFileBenchmark = defineSuite({
  name: "RandomAccessFileBenchmark",
  description: "seek(0) + size/N primitive reads or writes per op (JDK-8298639)",
  params: { kiloBytes: [1, 5], impl: [...JDK_IMPLS, ...Object.keys(NODE_IMPLS)] },
  state: rafState,
  setup: { iteration: openIteration },
  teardown: { iteration: closeIteration },
  options: { unit: "us" },
  benchmarks: Object.fromEntries(
    ["readInt", "readLong", "readShort", "writeInt", "writeLong", "writeShort"].map((m) => [
      m,
      method("RandomAccessFileBenchmark", m, m.startsWith("read") ? read : write),
    ]),
  ),
});

/**
 * RandomAccessFileReadBenchmark (JDK-8292937): each op opens the file "r", reads it whole as Short, Int or
 * Long and closes it; open and close are inside the measurement. `impl` as in RandomAccessFileBenchmark;
 * `floor` opens, `pread`s the whole file once into a `DataView` loop and closes.
 */
export const RandomAccessFileReadBenchmark = defineSuite({
  name: "RandomAccessFileReadBenchmark",
  description: "open r + read the whole file as N-byte primitives + close per op (JDK-8292937)",
  params: { kiloBytes: [1, 5], impl: [...JDK_IMPLS, ...Object.keys(OPEN_READ_CLOSE)] },
  state: (params) => ({
    ...rafState(params),
    impl: undefined,
    openReadClose: OPEN_READ_CLOSE[params.impl],
  }),
  setup: { iteration: openIteration },
  teardown: { iteration: closeIteration },
  options: { unit: "us" },
  benchmarks: Object.fromEntries(
    ["readInt", "readLong", "readShort"].map((m) => [
      m,
      method("RandomAccessFileReadBenchmark", m, (s, codec, bh) => s.openReadClose(s, codec, bh)),
    ]),
  ),
});

const MIB = 1 << 20;

/** The bulk floor's decode: one `getInt32` per element. */
function decodeInts(view, ints) {
  for (let i = 0; i < ints.length; i++) ints[i] = view.getInt32(i * 4);
}
/**
 * Bulk: `readInts` of 1 MiB into an `Int32Array` after seek(0), rafkit defaults (the read bypasses the
 * window), against the floor: one `pread` and a `DataView` loop. `·bandwidth` gives GB/s.
 */
export const RafBulk = defineSuite({
  name: "RafBulk",
  description: "seek(0) + readInts of 1 MiB per op; reports ·bandwidth in GB/s",
  state: () => {
    const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-bulk-"));
    const path = join(dir, "data.bin");
    writeFileSync(path, randomFillSync(new Uint8Array(MIB)));
    const bytes = new Uint8Array(MIB);
    return {
      backend: fastBackend(),
      dir,
      file: new RandomAccessFile(path, "r", { backend: isNativeAvailable() ? "native" : "node" }),
      fd: openSync(path, "r"),
      bytes,
      view: new DataView(bytes.buffer),
      ints: new Int32Array(MIB / 4),
    };
  },
  teardown: {
    trial(s) {
      s.file.close();
      closeSync(s.fd);
      rmSync(s.dir, { recursive: true, force: true });
    },
  },
  options: { unit: "us", bytesPerOperation: MIB },
  benchmarks: {
    readInts(_bh, s) {
      s.file.seek(0);
      s.file.readInts(s.ints);
      return s.ints[s.ints.length - 1];
    },
    floor(_bh, s) {
      s.backend.pread(s.fd, s.bytes, 0, MIB, 0);
      decodeInts(s.view, s.ints);
      return s.ints[s.ints.length - 1];
    },
  },
});
/** The raf suites in run order. */
export default [RandomAccessFileBenchmark, RandomAccessFileReadBenchmark, RafBulk];
