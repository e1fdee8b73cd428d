// Compares raf's system-call paths with raw backend calls, in one process, timed by @rafkit/bench.
// Usage: node scripts/syscall-paths.mjs [dir-of-a-second-raf-build ...]   (after `pnpm build`)
// Each extra argument is another build of raf (e.g. a copy of an older dist) measured alongside.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { defineSuite, formatTable, runBenchmarks } from "@rafkit/bench";
import { adaptSystemCall, nativeBackend, nativeLibc } from "@rafkit/syscall-state";

const builds = [["now", new URL("../dist/index.js", import.meta.url).href]];
for (const dir of process.argv.slice(2)) {
  builds.push([dir, pathToFileURL(join(resolve(dir), "index.js")).href]);
}
const rafs = [];
for (const [name, url] of builds) rafs.push([name, (await import(url)).RandomAccessFile]);

const dir = mkdtempSync(join(tmpdir(), "raf-paths-"));
const p = join(dir, "f.bin");
writeFileSync(p, Buffer.alloc(2 << 20, 7));
const N = 200_000;
const b = nativeBackend();
const pread = adaptSystemCall(nativeLibc().pread, "errno");
const buf = new Uint8Array(134);
const four = new Uint8Array(4);

const cases = [];
const fd0 = b.open(p, "r");
const fdw = b.open(p, "rw");
cases.push([
  "raw backend.pwrite 4B",
  () => {
    for (let i = 0; i < N; i++) b.pwrite(fdw, four, 0, 4, (i & 1023) * 4);
  },
]);
cases.push([
  "raw backend.pwriteFully 134B",
  () => {
    for (let i = 0; i < N; i++) b.pwriteFully(fdw, buf, 0, 134, (i & 1023) * 134);
  },
]);
cases.push([
  "raw backend.pread 4B",
  () => {
    for (let i = 0; i < N; i++) b.pread(fd0, four, 0, 4, (i & 1023) * 4);
  },
]);
cases.push([
  "raw adapted koffi pread 4B",
  () => {
    for (let i = 0; i < N; i++) pread(fd0, four, 4, (i & 1023) * 4);
  },
]);
cases.push([
  "raw backend.preadFully 134B",
  () => {
    for (let i = 0; i < N; i++) b.preadFully(fd0, buf, 0, 134, (i & 1023) * 134);
  },
]);
for (const [name, RAF] of rafs) {
  const u = new RAF(p, "rw", { bufferSize: 0 });
  const d = new RAF(p, "rw");
  cases.push([
    `${name} unbuffered readInt`,
    () => {
      u.seek(0);
      for (let i = 0; i < N; i++) u.readInt();
    },
  ]);
  cases.push([
    `${name} unbuffered readLong`,
    () => {
      u.seek(0);
      for (let i = 0; i < N; i++) u.readLong();
    },
  ]);
  cases.push([
    `${name} unbuffered writeInt`,
    () => {
      u.seek(0);
      for (let i = 0; i < N; i++) u.writeInt(i);
    },
  ]);
  cases.push([
    `${name} unbuffered readFullyAt 134B`,
    () => {
      for (let i = 0; i < N; i++) u.readFullyAt((i & 1023) * 134, buf);
    },
  ]);
  cases.push([
    `${name} unbuffered readAt 134B`,
    () => {
      for (let i = 0; i < N; i++) u.readAt((i & 1023) * 134, buf);
    },
  ]);
  cases.push([
    `${name} unbuffered writeAt 134B`,
    () => {
      for (let i = 0; i < N; i++) u.writeAt((i & 1023) * 134, buf);
    },
  ]);
  cases.push([
    `${name} buffered readInt (1 KiB, seek 0)`,
    () => {
      for (let i = 0; i < N / 256; i++) {
        d.seek(0);
        for (let k = 0; k < 256; k++) d.readInt();
      }
    },
  ]);
}

// One suite, every case a benchmark of N operations per call, measured in this process (forks: 0) so that
// the builds given on the command line share it.
const rounds = Number(process.env.ROUNDS ?? 5);
const suite = defineSuite({
  name: "SyscallPaths",
  options: { unit: "ns", operationsPerInvocation: N },
  benchmarks: Object.fromEntries(
    cases.map(([name, fn]) => [
      name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c = "") => c.toUpperCase()),
      () => fn(),
    ]),
  ),
});
const { results } = await runBenchmarks([suite], {
  overrides: {
    forks: 0,
    warmup: { iterations: 1, invocations: 1 },
    measurement: { iterations: rounds, invocations: 1 },
  },
});
console.log(formatTable(results));
rmSync(dir, { recursive: true, force: true });
