// Suites for @rafkit/raf, after the JDK reviews' RandomAccessFileBenchmark (writes) and
// RandomAccessFileReadBenchmark (reads). One op is what the JDK benchmark method does: seek(0), then
// size/N reads or writes of an N-byte primitive. Every variant is a benchmark of its own and the primitive
// is the `op` param, so `compare run.json#RafRead.jdkBulk run.json#RafRead.buffered` pairs them per op and
// size. The JDK runs as an external fork of java/RafBench.java, through the same statistics.
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
import { defineSuite, iterationArg, javaCommand, javaUnavailable } from "@rafkit/bench";
import { RandomAccessFile } from "@rafkit/raf";
import { isNativeAvailable, nativeBackend, nodeBackend } from "@rafkit/syscall-state";

const _PRIMITIVES = ["Short", "Int", "Long"];
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
/** The backend for the floor and the buffered variant: native where it loads (the default's choice). */
const fastBackend = () => (isNativeAvailable() ? nativeBackend() : nodeBackend());
function rafState({ op, kiloBytes }) {
  const primitive = op.replace(/^(read|write)/, "");
  const codec = CODECS[primitive];
  if (codec === undefined) throw new Error(`unknown op ${op}`);
  const size = kiloBytes * 1024;
  const width = WIDTH[primitive];
  const bytes = new Uint8Array(size);
  return {
    size,
    count: size / width,
    width,
    codec,
    small: Buffer.alloc(8),
    bytes,
    view: new DataView(bytes.buffer),
    values: codec.values(new Uint8Array(size)),
    backend: fastBackend(),
    files: undefined,
    cursor: { pointer: 0 },
  };
}
/**
 * `Level.Iteration` setup, as in the JDK benchmark: a fresh file of random bytes, read once so the page
 * cache is warm, fresh values to write, and every variant's handle on it. Untimed.
 */
function openIterationFiles(s) {
  const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-raf-"));
  const path = join(dir, "data.bin");
  writeFileSync(path, randomFillSync(new Uint8Array(s.size)));
  readFileSync(path);
  const valueBytes = randomFillSync(new Uint8Array(s.size));
  s.values = s.codec.values(valueBytes);
  s.files = {
    dir,
    path,
    buffered: new RandomAccessFile(path, "rw", {
      backend: isNativeAvailable() ? "native" : "node",
    }),
    unbufferedNative: isNativeAvailable()
      ? new RandomAccessFile(path, "rw", { bufferSize: 0, backend: "native" })
      : undefined,
    unbufferedNode: new RandomAccessFile(path, "rw", { bufferSize: 0, backend: "node" }),
    fd: openSync(path, "r+"),
  };
}
function closeIterationFiles(s) {
  const f = s.files;
  if (f === undefined) return;
  s.files = undefined;
  f.buffered.close();
  f.unbufferedNative?.close();
  f.unbufferedNode.close();
  closeSync(f.fd);
  rmSync(f.dir, { recursive: true, force: true });
}
/** The JDK as an external fork: `java RafBench op kiloBytes variant ...`, one process per fork. */
function jdk(variant) {
  return {
    external: {
      command: (params, o) =>
        javaCommand(RAF_BENCH_JAVA, [
          params.op,
          String(params.kiloBytes),
          variant,
          String(o.warmup.iterations),
          iterationArg(o.warmup, o.mode),
          String(o.measurement.iterations),
          iterationArg(o.measurement, o.mode),
          tmpdir(),
        ]),
    },
    unavailable: javaUnavailable,
  };
}
const KILOBYTES = [1, 5];
const hooks = {
  setup: { iteration: openIterationFiles },
  teardown: { iteration: closeIterationFiles },
};
/**
 * Reads: seek(0), then size/N `readShort`/`readInt`/`readLong` per op, each value to the blackhole.
 * `buffered`: rafkit defaults (8 KiB window, native backend); `unbufferedNative`/`unbufferedNode`:
 * `bufferSize: 0`, one system call per primitive; `nodeFs`: what Node code does today, `fs.readSync` of N
 * bytes into a Buffer per primitive, then `Buffer#readInt32BE` and friends; `floor`: one `pread` of the whole
 * range and a `DataView` loop; `pointerOnly`: the floor with its offset kept in an object's `pointer` field,
 * as any stateful reader keeps its position, so it measures that field's cost alone; `jdkStock`/`jdkBulk`: the JDK's RandomAccessFile as shipped (byte by byte in
 * JDK 17) and with one `readFully` per primitive (the reviews' patch).
 */
export const RafRead = defineSuite({
  name: "RafRead",
  description: "seek(0) + size/N primitive reads per op (JDK RandomAccessFileReadBenchmark)",
  params: { op: ["readShort", "readInt", "readLong"], kiloBytes: KILOBYTES },
  state: rafState,
  ...hooks,
  options: { unit: "us" },
  benchmarks: {
    buffered(bh, s) {
      const f = s.files.buffered;
      f.seek(0);
      for (let k = 0; k < s.count; k++) bh.consume(s.codec.read(f));
    },
    unbufferedNative: {
      run(bh, s) {
        const f = s.files.unbufferedNative;
        f.seek(0);
        for (let k = 0; k < s.count; k++) bh.consume(s.codec.read(f));
      },
      unavailable: nativeUnavailable,
    },
    unbufferedNode(bh, s) {
      const f = s.files.unbufferedNode;
      f.seek(0);
      for (let k = 0; k < s.count; k++) bh.consume(s.codec.read(f));
    },
    nodeFs(bh, s) {
      const { fd } = s.files;
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        readSync(fd, s.small, 0, s.width, pos);
        bh.consume(s.codec.bufferRead(s.small));
      }
    },
    floor(bh, s) {
      s.backend.pread(s.files.fd, s.bytes, 0, s.size, 0);
      for (let k = 0, off = 0; k < s.count; k++, off += s.width) {
        bh.consume(s.codec.viewGet(s.view, off));
      }
    },
    pointerOnly(bh, s) {
      s.backend.pread(s.files.fd, s.bytes, 0, s.size, 0);
      const c = s.cursor;
      c.pointer = 0;
      for (let k = 0; k < s.count; k++) {
        bh.consume(s.codec.viewGet(s.view, c.pointer));
        c.pointer += s.width;
      }
    },
    jdkStock: jdk("stock"),
    jdkBulk: jdk("bulk"),
  },
});
/**
 * Writes: seek(0), then size/N `writeShort`/`writeInt`/`writeLong` of random values per op. `buffered`
 * includes the final `flush()` of every op, so the bytes reach the OS within the op, as everywhere else.
 * Variants as in {@link RafRead}; `floor` is a `DataView` fill and one `pwrite`, `pointerOnly` the same fill
 * with its offset in an object's `pointer` field.
 */
export const RafWrite = defineSuite({
  name: "RafWrite",
  description: "seek(0) + size/N primitive writes per op (JDK RandomAccessFileBenchmark)",
  params: { op: ["writeShort", "writeInt", "writeLong"], kiloBytes: KILOBYTES },
  state: rafState,
  ...hooks,
  options: { unit: "us" },
  benchmarks: {
    buffered(_bh, s) {
      const f = s.files.buffered;
      f.seek(0);
      for (let k = 0; k < s.count; k++) s.codec.write(f, s.values[k]);
      f.flush();
    },
    unbufferedNative: {
      run(_bh, s) {
        const f = s.files.unbufferedNative;
        f.seek(0);
        for (let k = 0; k < s.count; k++) s.codec.write(f, s.values[k]);
      },
      unavailable: nativeUnavailable,
    },
    unbufferedNode(_bh, s) {
      const f = s.files.unbufferedNode;
      f.seek(0);
      for (let k = 0; k < s.count; k++) s.codec.write(f, s.values[k]);
    },
    nodeFs(_bh, s) {
      const { fd } = s.files;
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        s.codec.bufferWrite(s.small, s.values[k]);
        writeSync(fd, s.small, 0, s.width, pos);
      }
    },
    floor(_bh, s) {
      for (let k = 0, off = 0; k < s.count; k++, off += s.width) {
        s.codec.viewSet(s.view, off, s.values[k]);
      }
      return s.backend.pwrite(s.files.fd, s.bytes, 0, s.size, 0);
    },
    pointerOnly(_bh, s) {
      const c = s.cursor;
      c.pointer = 0;
      for (let k = 0; k < s.count; k++) {
        s.codec.viewSet(s.view, c.pointer, s.values[k]);
        c.pointer += s.width;
      }
      return s.backend.pwrite(s.files.fd, s.bytes, 0, s.size, 0);
    },
    jdkStock: jdk("stock"),
    jdkBulk: jdk("bulk"),
  },
});
const MIB = 1 << 20;
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
      const { view, ints } = s;
      for (let i = 0; i < ints.length; i++) ints[i] = view.getInt32(i * 4);
      return ints[ints.length - 1];
    },
  },
});
/** The raf suites in run order. */
export default [RafRead, RafWrite, RafBulk];
