import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";

// The README's examples run as written (on the built package), each alone, and leave nothing behind.
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```js\n(.*?)```/gs)].map((m) => m[1]!);
const cwd = mkdtempSync(join(tmpdir(), "rafkit-readme-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

test.each(blocks.map((code, k) => [k, code] as const))("README example %i", (k, code) => {
  const file = join(cwd, `example-${k}.mjs`);
  writeFileSync(file, code.replaceAll('"@rafkit/raf"', JSON.stringify(dist)));
  // The child's os.tmpdir(), private, so what it leaves behind shows.
  const childTmp = mkdtempSync(join(cwd, "tmp-"));
  const env = { ...process.env, TMPDIR: childTmp };
  const r = spawnSync(process.execPath, [file], { cwd, encoding: "utf8", env });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  // Every `// value` comment that starts a line's output is what that example printed.
  const printed = r.stdout.split("\n");
  for (const [, want] of code.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)) {
    const head = want!.split(/ \(|: |, counting/)[0]!.trim();
    expect(
      printed.some((line) => line.startsWith(head)),
      `${head} in ${r.stdout}`,
    ).toBe(true);
  }
  expect(readdirSync(childTmp)).toEqual([]);
  rmSync(childTmp, { recursive: true });
  expect(readdirSync(cwd)).toEqual([`example-${k}.mjs`]);
  rmSync(file);
});

test("the README has its examples", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(3);
});
