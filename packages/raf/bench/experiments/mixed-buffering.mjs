// Does a process that also uses unbuffered files read and write buffered ones slower? One process per run:
// `node mixed-buffering.mjs buffered-only|unbuffered-first|unbuffered-between`. Prints ns per readInt and per
// writeInt (with its flush), the best of 400 rounds of 4096, in four passes over fresh buffered files; the
// unbuffered file is used before the first pass or between the second and the third. See BENCHMARKS.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RandomAccessFile } from "@rafkit/raf";

const MODES = ["buffered-only", "unbuffered-first", "unbuffered-between"];
const mode = process.argv[2] ?? "buffered-only";
if (!MODES.includes(mode)) throw new Error(`mode must be one of ${MODES.join(", ")}, not ${mode}`);

const dir = mkdtempSync(join(tmpdir(), "rafkit-mixed-"));
const path = join(dir, "data.bin");
writeFileSync(path, Buffer.alloc(1 << 16, 3));

function readInts(f, n) {
  let sum = 0;
  for (let k = 0; k < n; k++) sum += f.readInt();
  return sum;
}

function writeInts(f, n) {
  for (let k = 0; k < n; k++) f.writeInt(k);
}

/** Best ns per primitive over the rounds, on a fresh buffered file. */
function pass() {
  const f = new RandomAccessFile(path, "rw");
  const n = 4096;
  let read = Number.POSITIVE_INFINITY;
  let write = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 400; round++) {
    f.seek(0);
    let t0 = process.hrtime.bigint();
    readInts(f, n);
    read = Math.min(read, Number(process.hrtime.bigint() - t0) / n);
    f.seek(0);
    t0 = process.hrtime.bigint();
    writeInts(f, n);
    f.flush();
    write = Math.min(write, Number(process.hrtime.bigint() - t0) / n);
  }
  f.close();
  return `${read.toFixed(2)}/${write.toFixed(2)}`;
}

/** The same loops through an unbuffered file: one system call per primitive. */
function useUnbuffered() {
  const u = new RandomAccessFile(path, "rw", { bufferSize: 0 });
  for (let round = 0; round < 20; round++) {
    u.seek(0);
    readInts(u, 500);
    u.seek(0);
    writeInts(u, 500);
  }
  u.close();
}

try {
  const passes = [];
  if (mode === "unbuffered-first") useUnbuffered();
  passes.push(pass(), pass());
  if (mode === "unbuffered-between") useUnbuffered();
  passes.push(pass(), pass());
  console.log(`${mode}\treadInt/writeInt ns, passes 1-4:\t${passes.join("\t")}`);
} finally {
  rmSync(dir, { recursive: true });
}
