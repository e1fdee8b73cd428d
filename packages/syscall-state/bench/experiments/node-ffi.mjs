// Node 26's experimental node:ffi beside koffi: `pread` as syscall-state binds it, and `getpid` as a call with no
// arguments; what a failure returns, whether errno can be read, and ns per call, the two alternating in one
// process. Linux only. `node bench/experiments/node-ffi.mjs` (Node 26+). See BENCHMARKS.md.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import koffi from "koffi";

const ffi = await import("node:ffi").catch(() => undefined);
if (ffi === undefined || process.platform !== "linux") {
  console.log(`needs node:ffi on Linux (Node ${process.version} on ${process.platform}); skipped`);
  process.exit(0);
}

const { functions: nodeLibc } = ffi.dlopen("libc.so.6", {
  pread: { arguments: ["int32", "buffer", "uint64", "int64"], return: "int64" },
  getpid: { arguments: [], return: "int32" },
  __errno_location: { arguments: [], return: "pointer" },
});
/** This thread's errno, read as the adapter reads koffi's: one native read straight after the call. */
const errnoAddress = nodeLibc.__errno_location();
const libc = koffi.load("libc.so.6");
const koffiLibc = {
  // The declaration syscall-state's libc.ts makes.
  pread: libc.func("int64_t pread(int fd, void *buf, size_t n, int64_t offset)"),
  getpid: libc.func("int getpid()"),
};

const CALLS = 500_000;
function nsPerCall(call) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) call();
  return Number(process.hrtime.bigint() - t0) / CALLS;
}

const dir = mkdtempSync(join(tmpdir(), "rafkit-node-ffi-"));
const path = join(dir, "data.bin");
writeFileSync(path, Buffer.alloc(4096, 7));
const fd = openSync(path, "r");
try {
  const bytes = Buffer.alloc(8);
  const badFd = nodeLibc.pread(-1, bytes, 8, 0);
  console.log("node:ffi pread(bad fd):", badFd, "errno", ffi.getInt32(errnoAddress));
  const badOffset = nodeLibc.pread(fd, bytes, 8, -5);
  console.log("node:ffi pread(offset -5):", badOffset, "errno", ffi.getInt32(errnoAddress));
  console.log("koffi    pread(bad fd):", koffiLibc.pread(-1, bytes, 8, 0), "errno", koffi.errno());

  const shapes = {
    getpid: (lib) => () => lib.getpid(),
    "pread 8 bytes": (lib) => () => lib.pread(fd, bytes, 8, 0),
  };
  for (let round = 1; round <= 3; round++) {
    for (const [name, shape] of Object.entries(shapes)) {
      // Alternate which goes first, so neither always runs the colder half of a round.
      const [first, second] = round % 2 === 1 ? [nodeLibc, koffiLibc] : [koffiLibc, nodeLibc];
      const a = nsPerCall(shape(first));
      const b = nsPerCall(shape(second));
      const [n, k] = first === nodeLibc ? [a, b] : [b, a];
      console.log(
        `round ${round}\t${name}\tnode:ffi ${n.toFixed(1)} ns\tkoffi ${k.toFixed(1)} ns\t${(n / k).toFixed(2)}x`,
      );
    }
  }
} finally {
  closeSync(fd);
  rmSync(dir, { recursive: true });
}
