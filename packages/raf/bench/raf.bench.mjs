// Suites for @rafkit/raf in the shapes of the JDK reviews' benchmarks, so that their tables hold next to the
// reviews': RandomAccessFileBenchmark (JDK-8298639: seek(0), then size/N reads or writes of an N-byte
// primitive per op) and RandomAccessFileReadBenchmark (JDK-8292937: open "r", read the whole file, close, per
// op). The names, params (`kiloBytes` 1 and 5), mode and unit are the JDK's; the `impl` param says who does
// the work: the JDK's own RandomAccessFile (an external fork of java/RafBench.java, through the same
// statistics), rafkit, Node's fs, or a floor.
import { randomFillSync } from "node:crypto";
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineSuite, iterationArg, javaCommand } from "@rafkit/bench";
import { RandomAccessFile } from "@rafkit/raf";
import { isNativeAvailable, nativeBackend, nativeLibc, nodeBackend } from "@rafkit/syscall-state";
import { hasBulkJdk, jdk17, jdk25, jdkUnavailable } from "./jdks.mjs";

const WIDTH = { Short: 2, Int: 4, Long: 8 };
const CODECS = {
  Short: {
    read: (f) => f.readShort(),
    write: (f, v) => f.writeShort(v),
    bufferRead: (b) => b.readInt16BE(0),
    bufferWrite: (b, v) => void b.writeInt16BE(v, 0),
    viewGet: (d, o) => d.getInt16(o),
    viewSet: (d, o, v) => d.setInt16(o, v),
    values: (bytes) => new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2),
  },
  Int: {
    read: (f) => f.readInt(),
    write: (f, v) => f.writeInt(v),
    bufferRead: (b) => b.readInt32BE(0),
    bufferWrite: (b, v) => void b.writeInt32BE(v, 0),
    viewGet: (d, o) => d.getInt32(o),
    viewSet: (d, o, v) => d.setInt32(o, v),
    values: (bytes) => new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
  },
  Long: {
    read: (f) => f.readLong(),
    write: (f, v) => f.writeLong(v),
    bufferRead: (b) => b.readBigInt64BE(0),
    bufferWrite: (b, v) => void b.writeBigInt64BE(v, 0),
    viewGet: (d, o) => d.getBigInt64(o),
    viewSet: (d, o, v) => d.setBigInt64(o, v),
    values: (bytes) => new BigInt64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8),
  },
};
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
/** The backend for the floors and rafkit: native where it loads (the default's choice). */
const fastBackend = () => (isNativeAvailable() ? nativeBackend() : nodeBackend());
const backendName = () => (isNativeAvailable() ? "native" : "node");

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

// Every measured loop is the last statement of its own function. When a loop is followed by code (a pwrite,
// a flush, a close), V8 may enter the loop's on-stack-replacement code on every call, code compiled before
// what follows the loop ever ran: it deoptimises there on each op, and the op costs tens of microseconds
// more (BENCHMARKS.md, "Loops end their functions").

/** The floor's fill: a `DataView` set per value at a local offset. */
function fillView(s, codec) {
  for (let k = 0, off = 0; k < s.count; k++, off += s.width)
    codec.viewSet(s.view, off, s.values[k]);
}

/** pointerOnly's fill: the floor with the offset in an object's field. */
function fillViewAtPointer(s, codec) {
  const c = s.cursor;
  c.pointer = 0;
  for (let k = 0; k < s.count; k++) {
    codec.viewSet(s.view, c.pointer, s.values[k]);
    c.pointer += s.width;
  }
}

/** rafkit's writes of every value at the pointer. */
function writeAll(f, s, codec) {
  for (let k = 0; k < s.count; k++) codec.write(f, s.values[k]);
}

/** rafkit's reads of `count` primitives at the pointer, each to the blackhole. */
function readAll(f, s, codec, bh) {
  for (let k = 0; k < s.count; k++) bh.consume(codec.read(f));
}

/** node:fs's reads of `count` primitives, one `readSync` each. */
function readSyncAll(fd, s, codec, bh) {
  for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
    readSync(fd, s.small, 0, s.width, pos);
    bh.consume(codec.bufferRead(s.small));
  }
}

/** The floor's decode loop over the view. */
function decodeView(s, codec, bh) {
  for (let k = 0, off = 0; k < s.count; k++, off += s.width) bh.consume(codec.viewGet(s.view, off));
}

/**
 * How each Node impl opens the iteration's file, reads `count` primitives after seek(0) and writes them. Each
 * fork runs one impl and one primitive, so every call site below sees one function.
 */
const NODE_IMPLS = {
  rafkit: rafImpl({ backend: "fast" }),
  rafkitUnbuffered: rafImpl({ bufferSize: 0, backend: "native" }),
  rafkitUnbufferedNode: rafImpl({ bufferSize: 0, backend: "node" }),
  nodeFs: {
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        readSync(fd, s.small, 0, s.width, pos);
        bh.consume(codec.bufferRead(s.small));
      }
    },
    write(fd, s, codec) {
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        codec.bufferWrite(s.small, s.values[k]);
        writeSync(fd, s.small, 0, s.width, pos);
      }
    },
  },
  nativeFloor: {
    // What rafkitUnbuffered cannot go below: libc's pread/pwrite called through koffi once per primitive,
    // with no errno capture, no checks and no retry.
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      const { pread } = s.libc;
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        pread(fd, s.small, s.width, pos);
        bh.consume(codec.viewGet(s.smallView, 0));
      }
    },
    write(fd, s, codec) {
      const { pwrite } = s.libc;
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        codec.viewSet(s.smallView, 0, s.values[k]);
        pwrite(fd, s.small, s.width, pos);
      }
    },
  },
  floor: {
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      s.backend.pread(fd, s.bytes, 0, s.size, 0);
      for (let k = 0, off = 0; k < s.count; k++, off += s.width)
        bh.consume(codec.viewGet(s.view, off));
    },
    write(fd, s, codec) {
      fillView(s, codec);
      return s.backend.pwrite(fd, s.bytes, 0, s.size, 0);
    },
  },
  pointerOnly: {
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      s.backend.pread(fd, s.bytes, 0, s.size, 0);
      const c = s.cursor;
      c.pointer = 0;
      for (let k = 0; k < s.count; k++) {
        bh.consume(codec.viewGet(s.view, c.pointer));
        c.pointer += s.width;
      }
    },
    write(fd, s, codec) {
      fillViewAtPointer(s, codec);
      return s.backend.pwrite(fd, s.bytes, 0, s.size, 0);
    },
  },
};

/** rafkit's RandomAccessFile with `options`; writes include the final flush(), so the bytes reach the OS. */
function rafImpl({ backend, ...options }) {
  return {
    open: (path) =>
      new RandomAccessFile(path, "rw", {
        ...options,
        backend: backend === "fast" ? backendName() : backend,
      }),
    close: (f) => f.close(),
    read(f, s, codec, bh) {
      f.seek(0);
      for (let k = 0; k < s.count; k++) bh.consume(codec.read(f));
    },
    write(f, s, codec) {
      f.seek(0);
      writeAll(f, s, codec);
      f.flush();
    },
  };
}

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
    smallView: new DataView(small.buffer, small.byteOffset, 8),
    bytes,
    view: new DataView(backing),
    values: [],
    backend: fastBackend(),
    libc: impl === "nativeFloor" ? nativeLibc() : undefined,
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
      // Set on the first call of the fork: the state does not know which method it serves.
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
 * koffi per primitive, unchecked, and a `DataView`: the floor of any unbuffered native file), `floor` (one
 * `pread` of the range and a `DataView` loop;
 * for writes a `DataView` fill and one `pwrite`) and `pointerOnly` (the floor with its offset in an object's
 * field, the floor of any stateful file API).
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

/** Open "r", read all `count` primitives, close: what each impl does per op of the read benchmark. */
const OPEN_READ_CLOSE = {
  rafkit(s, codec, bh) {
    const f = new RandomAccessFile(s.path, "r", { backend: backendName() });
    try {
      readAll(f, s, codec, bh);
    } finally {
      f.close();
    }
  },
  nodeFs(s, codec, bh) {
    const fd = openSync(s.path, "r");
    try {
      readSyncAll(fd, s, codec, bh);
    } finally {
      closeSync(fd);
    }
  },
  floor(s, codec, bh) {
    const fd = s.backend.open(s.path, "r");
    try {
      s.backend.pread(fd, s.bytes, 0, s.size, 0);
      decodeView(s, codec, bh);
    } finally {
      s.backend.close(fd);
    }
  },
};

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
