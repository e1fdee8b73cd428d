import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";

// V8 13.6 (Node 24) deoptimises a DataView setInt16/setInt32 that ends at the view's last byte, and from then
// on calls the setter out of line. The window's view runs past its buffer so that sequential writes filling
// the window never get there. Checked on the built package in a child process with V8's deopt trace: no
// timing, only whether V8 had to give up its inline code.
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "rafkit-no-deopt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = (method: string, count: number) => `
import { RandomAccessFile } from ${JSON.stringify(dist)};
const f = new RandomAccessFile(${JSON.stringify(join(dir, `${method}.bin`))}, "rw", { bufferSize: 4096 });
function run() {
  f.seek(0);
  for (let k = 0; k < ${count}; k++) f.${method}(k);
}
for (let i = 0; i < 3000; i++) { run(); f.flush(); }
f.close();
`;

test.each([
  ["writeShort", 2048],
  ["writeInt", 1024],
  ["writeInt", 3072],
])("%s filling the window to its last byte (%i writes) keeps its inline code", (method, count) => {
  const r = spawnSync(
    process.execPath,
    ["--trace-deopt", "--input-type=module", "-e", script(method, count)],
    { encoding: "utf8" },
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain("deoptimiz"); // the trace is on: other deopts (warm-up) show
  expect(r.stdout).not.toMatch(/reason: out of bounds/);
});
