// The async suite for @rafkit/raf (servers): awaited `readInt`/`writeInt` over 1 and 5 KiB, one op being
// seek(0) then size/4 ints, each awaited before the next (what a caller writing `await f.readInt()` gets).
// Against: fs.promises FileHandle with 4 bytes per int (what Node code does today), the npm package
// `random-access-file` doing the same, and rafkit's synchronous class for the cost of being async.
import { randomFillSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineSuite } from "@rafkit/bench";
import * as raf from "@rafkit/raf";
import { RandomAccessFile } from "@rafkit/raf";
import { getBackend, isNativeAvailable } from "@rafkit/syscall-state";

const AsyncRandomAccessFile = raf.AsyncRandomAccessFile;
function asyncUnavailable() {
  return AsyncRandomAccessFile === undefined
    ? "this @rafkit/raf has no AsyncRandomAccessFile (not available)"
    : undefined;
}
let npmClass;
/**
 * The npm package `random-access-file`, a dev dependency of this package: loaded lazily, so the suite
 * works (and skips that benchmark with a message) where it is not installed.
 */
function randomAccessFileNpm() {
  if (npmClass === undefined) {
    try {
      npmClass = createRequire(import.meta.url)("random-access-file");
    } catch (error) {
      npmClass = `the npm package random-access-file is not installed (npm i random-access-file): ${error.message.split("\n")[0]}`;
    }
  }
  return npmClass;
}
const npmUnavailable = () => {
  const c = randomAccessFileNpm();
  return typeof c === "string" ? c : undefined;
};
const call = (fn) =>
  new Promise((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));
/** `Level.Iteration` setup: a fresh file of random bytes (page cache warm), every variant's handle on it. */
async function openFiles(s) {
  s.dir = mkdtempSync(join(tmpdir(), "rafkit-bench-async-"));
  s.path = join(s.dir, "data.bin");
  writeFileSync(s.path, randomFillSync(new Uint8Array(s.size)));
  s.bytes.set(readFileSync(s.path));
  randomFillSync(s.values);
  const backend = isNativeAvailable() ? "native" : "node";
  s.asyncFile = AsyncRandomAccessFile
    ? await AsyncRandomAccessFile.open(s.path, "rw", { backend })
    : undefined;
  s.syncFile = new RandomAccessFile(s.path, "rw", { backend });
  s.handle = await open(s.path, "r+");
  s.view = new DataView(s.bytes.buffer);
  s.backend = getBackend(backend);
  s.fd = s.backend.open(s.path, "rw");
  const Npm = randomAccessFileNpm();
  if (typeof Npm !== "string") {
    const npm = new Npm(s.path);
    await call((cb) => npm.open(cb));
    s.npm = npm;
  }
}
async function closeFiles(s) {
  await s.asyncFile?.close();
  s.syncFile?.close();
  await s.handle?.close();
  if (s.fd >= 0) s.backend.close(s.fd);
  s.fd = -1;
  const npm = s.npm;
  if (npm) await call((cb) => npm.close(cb));
  s.asyncFile = s.syncFile = s.handle = s.npm = undefined;
  rmSync(s.dir, { recursive: true, force: true });
}
// A measured loop is the last statement of its own function: code after a loop (a flush, a pwrite) can run in
// on-stack-replacement code compiled before it ever ran, which deoptimises there on every op (see raf.bench.mjs).

/** rafkit's async writes, one await each. */
async function writeIntsAwaitingEach(f, s) {
  for (let k = 0; k < s.count; k++) await f.writeInt(s.values[k]);
}

/** The await floor's writes: a `DataView` set and one await of a resolved promise each. */
async function setIntsAwaitingEach(view, s) {
  for (let k = 0; k < s.count; k++) await Promise.resolve(view.setInt32(k * 4, s.values[k]));
}

/** rafkit's sync writes. */
function writeInts(f, s) {
  for (let k = 0; k < s.count; k++) f.writeInt(s.values[k]);
}

/**
 * `asyncBuffered`: `AsyncRandomAccessFile` with rafkit's defaults (writes include the final `flush()`);
 * `fileHandle`: `FileHandle#read`/`write` of 4 bytes per int at an explicit position; `randomAccessFile`: the
 * npm package, 4 bytes per int; `awaitPerInt`: one awaited resolved promise per int around a `DataView` access
 * of the file's bytes in memory and, for writes, the one awaited `pwriteAsync` of the range through the same
 * backend that the buffered file's `flush()` makes (its reads need none: the window still holds the file), the
 * least any promise-per-int API can cost;
 * `syncBuffered`: the synchronous `RandomAccessFile`, same work.
 */
export const RafAsync = defineSuite({
  name: "RafAsync",
  description: "seek(0) + size/4 awaited readInt or writeInt per op",
  params: { op: ["readInt", "writeInt"], kiloBytes: [1, 5] },
  state: ({ kiloBytes }) => {
    const size = kiloBytes * 1024;
    return {
      size,
      count: size / 4,
      small: Buffer.alloc(4),
      // The await floor's view (over the whole buffer) runs 8 bytes past the file's, as rafkit's window's
      // does: on Node 24 a DataView set ending at the view's last byte deoptimises (see raf.bench.mjs).
      bytes: new Uint8Array(new ArrayBuffer(size + 8), 0, size),
      view: new DataView(new ArrayBuffer(0)),
      values: new Int32Array(size / 4),
      dir: "",
      path: "",
      asyncFile: undefined,
      syncFile: undefined,
      handle: undefined,
      npm: undefined,
      backend: undefined,
      fd: -1,
    };
  },
  setup: { iteration: openFiles },
  teardown: { iteration: closeFiles },
  options: { unit: "us" },
  benchmarks: {
    asyncBuffered: {
      async run(bh, s, { op }) {
        const f = s.asyncFile;
        await f.seek(0);
        if (op === "readInt") {
          for (let k = 0; k < s.count; k++) bh.consume(await f.readInt());
        } else {
          await writeIntsAwaitingEach(f, s);
          await f.flush();
        }
      },
      unavailable: asyncUnavailable,
    },
    async fileHandle(bh, s, { op }) {
      const { handle, small } = s;
      if (op === "readInt") {
        for (let k = 0, pos = 0; k < s.count; k++, pos += 4) {
          await handle.read(small, 0, 4, pos);
          bh.consume(small.readInt32BE(0));
        }
      } else {
        for (let k = 0, pos = 0; k < s.count; k++, pos += 4) {
          small.writeInt32BE(s.values[k], 0);
          await handle.write(small, 0, 4, pos);
        }
      }
    },
    randomAccessFile: {
      async run(bh, s, { op }) {
        const npm = s.npm;
        if (op === "readInt") {
          for (let k = 0, pos = 0; k < s.count; k++, pos += 4) {
            const buf = await call((cb) => npm.read(pos, 4, cb));
            bh.consume(buf.readInt32BE(0));
          }
        } else {
          for (let k = 0, pos = 0; k < s.count; k++, pos += 4) {
            s.small.writeInt32BE(s.values[k], 0);
            await call((cb) => npm.write(pos, s.small, cb));
          }
        }
      },
      unavailable: npmUnavailable,
    },
    async awaitPerInt(bh, s, { op }) {
      const { view } = s;
      if (op === "readInt") {
        for (let k = 0; k < s.count; k++) bh.consume(await Promise.resolve(view.getInt32(k * 4)));
      } else {
        await setIntsAwaitingEach(view, s);
        await s.backend.pwriteAsync(s.fd, s.bytes, 0, s.size, 0);
      }
    },
    syncBuffered(bh, s, { op }) {
      const f = s.syncFile;
      f.seek(0);
      if (op === "readInt") {
        for (let k = 0; k < s.count; k++) bh.consume(f.readInt());
      } else {
        writeInts(f, s);
        f.flush();
      }
    },
  },
});
const MIB = 1 << 20;

/**
 * Async bulk: `await readInts` of 1 MiB into an `Int32Array` after `await seek(0)`, rafkit defaults (the
 * read bypasses the window). `·bandwidth` gives GB/s.
 */
export const RafAsyncBulk = defineSuite({
  name: "RafAsyncBulk",
  description: "await seek(0) + await readInts of 1 MiB per op; reports ·bandwidth in GB/s",
  state: async () => {
    const dir = mkdtempSync(join(tmpdir(), "rafkit-bench-async-bulk-"));
    const path = join(dir, "data.bin");
    writeFileSync(path, randomFillSync(new Uint8Array(MIB)));
    const file = AsyncRandomAccessFile
      ? await AsyncRandomAccessFile.open(path, "r", {
          backend: isNativeAvailable() ? "native" : "node",
        })
      : undefined;
    return { dir, path, file, ints: new Int32Array(MIB / 4) };
  },
  teardown: {
    async trial(s) {
      await s.file?.close();
      rmSync(s.dir, { recursive: true, force: true });
    },
  },
  options: { unit: "us", bytesPerOperation: MIB },
  benchmarks: {
    readInts: {
      async run(_bh, s) {
        await s.file.seek(0);
        await s.file.readInts(s.ints);
        return s.ints[s.ints.length - 1];
      },
      unavailable: asyncUnavailable,
    },
  },
});

/** The async raf suites. */
export default [RafAsync, RafAsyncBulk];
