import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";

// The README's JavaScript and TypeScript examples run as written, each alone in a child process, on the built
// package (imported by its name, resolved through its `exports` as an installed copy would be), and leave nothing
// behind. Its shell blocks are not run: they need a packed tarball, the whole demo, or a second process holding
// the lock.
const root = fileURLToPath(new URL("..", import.meta.url));
const name = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).name as string;
const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```(js|ts)\n(.*?)```/gs)].map((m) => ({
  ts: m[1] === "ts",
  code: m[2]!,
}));
const base = mkdtempSync(join(tmpdir(), "rafkv-readme-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** What each `console.log(...); // value` line says it prints: its comment up to a ": " or " (" that explains it. */
function promised(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((m) =>
    m[1]!.split(/: | \(/)[0]!.trim(),
  );
}

/** Whether `want` appears in `lines` in order (each an exact line). */
function inOrder(lines: readonly string[], want: readonly string[]): boolean {
  let at = 0;
  for (const line of lines) if (at < want.length && line === want[at]) at++;
  return at === want.length;
}

/** Whether this Node strips types (`"strip"` or `"transform"`; false or missing before Node 22.18). */
const typescript = Boolean((process.features as { typescript?: unknown }).typescript);

test.each(blocks.map((b, k) => [k, b] as const))("README example %i", (k, { ts, code }) => {
  if (ts && !typescript) return; // a Node without type stripping runs only the JavaScript ones
  const work = join(base, `example-${k}`);
  mkdirSync(join(work, "node_modules", ...name.split("/").slice(0, -1)), { recursive: true });
  symlinkSync(root, join(work, "node_modules", name), "dir");
  const file = `example.${ts ? "mts" : "mjs"}`;
  writeFileSync(join(work, file), code);
  // The child's os.tmpdir(), private, so that what it leaves behind shows.
  const childTmp = join(work, "tmp");
  mkdirSync(childTmp);
  const r = spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", file], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, TMPDIR: childTmp },
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const want = promised(code);
  expect(
    inOrder(r.stdout.split("\n"), want),
    `${JSON.stringify(want)} in order in ${r.stdout}`,
  ).toBe(true);
  expect(readdirSync(childTmp)).toEqual([]);
  expect(readdirSync(work).sort()).toEqual([file, "node_modules", "tmp"]);
  rmSync(work, { recursive: true });
});

test("the README has its examples, and each says what it prints", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(1);
  for (const { code } of blocks) expect(promised(code).length).toBeGreaterThan(0);
});
