// Node 26's experimental node:ffi beside koffi on the calls syscall-state makes: what it returns on failure, and
// ns per call, the two alternating in one process. Linux only. `node bench/experiments/node-ffi.mjs` (Node 26+).
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import koffi from "koffi";

const ffi = await import("node:ffi").catch(() => undefined);
if (ffi === undefined) {
  console.log(`node:ffi is not in Node ${process.version}; skipped`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "rafkit-node-ffi-"));
const path = join(dir, "data.bin");
writeFileSync(path, Buffer.alloc(4096, 7));
const fd = openSync(path, "r");
const bytes = Buffer.alloc(8);

const { functions: nodeLibc } = ffi.dlopen("libc.so.6", {
  pread: { arguments: ["int32", "buffer", "uint64", "int64"], return: "int64" },
  getpid: { arguments: [], return: "int32" },
  __errno_location: { arguments: [], return: "pointer" },
});
/** This thread's errno, read as the adapter reads koffi's: one native read straight after the call. */
const errnoAddress = nodeLibc.__errno_location();
const libc = koffi.load("libc.so.6");
const koffiLibc = {
  pread: libc.func("long pread(int, _Out_ uint8_t *buf, size_t, long)"),
  getpid: libc.func("int getpid()"),
};

console.log(
  "node:ffi pread(bad fd):",
  nodeLibc.pread(-1, bytes, 8, 0),
  "errno",
  ffi.getInt32(errnoAddress),
);
console.log(
  "node:ffi pread(offset -5):",
  nodeLibc.pread(fd, bytes, 8, -5),
  "errno",
  ffi.getInt32(errnoAddress),
);
console.log("koffi    pread(bad fd):", koffiLibc.pread(-1, bytes, 8, 0), "errno", koffi.errno());

const CALLS = 500_000;
function nsPerCall(call) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) call();
  return Number(process.hrtime.bigint() - t0) / CALLS;
}
const shapes = {
  getpid: (lib) => () => lib.getpid(),
  "pread 8 bytes": (lib) => () => lib.pread(fd, bytes, 8, 0),
};
for (let round = 1; round <= 3; round++) {
  for (const [name, shape] of Object.entries(shapes)) {
    const n = nsPerCall(shape(nodeLibc));
    const k = nsPerCall(shape(koffiLibc));
    console.log(
      `round ${round}\t${name}\tnode:ffi ${n.toFixed(1)} ns\tkoffi ${k.toFixed(1)} ns\t${(n / k).toFixed(2)}x`,
    );
  }
}
closeSync(fd);
rmSync(dir, { recursive: true });
