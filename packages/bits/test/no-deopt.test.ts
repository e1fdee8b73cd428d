import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

// V8 13.6 (Node 24) deoptimises a signed DataView set (setInt8/16/32) that ends at the view's last byte, and from
// then on calls it out of line, for every caller of that accessor. The codecs store signed values with the
// unsigned setters (the same bytes), so filling a buffer to its end keeps their inline code. Checked on the
// built package in a child process with V8's deopt trace: no timing, only whether V8 had to give up.
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));

const script = (call: string, width: number) => `
import { BigEndian, LittleEndian, BigEndianView, LittleEndianView } from ${JSON.stringify(dist)};
const b = new Uint8Array(4096);
const view = new DataView(b.buffer);
function run() {
  for (let off = 0; off + ${width} <= b.length; off += ${width}) ${call};
}
for (let i = 0; i < 3000; i++) run();
`;

test.each([
  ["BigEndian.setInt16(b, off, -off)", 2],
  ["BigEndian.setInt32(b, off, -off)", 4],
  ["LittleEndian.setInt32(b, off, -off)", 4],
  ["BigEndian.setSafeInt64(b, off, -off)", 8],
  ["BigEndian.setFloat32(b, off, NaN)", 4],
  ["BigEndianView.setInt16(view, off, -off)", 2],
  ["BigEndianView.setInt32(view, off, -off)", 4],
  ["LittleEndianView.setSafeInt64(view, off, -off)", 8],
])("%s up to the buffer's last byte keeps its inline code", (call, width) => {
  const r = spawnSync(
    process.execPath,
    ["--trace-deopt", "--input-type=module", "-e", script(call, width)],
    { encoding: "utf8" },
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(/reason: out of bounds/);
});
