import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The README-example runner of the packages' readme tests (bits, syscall-state, bench): one copy here, as
// scripts/write-generated.mjs is for the generators, since packages do not import each other's tests.

/**
 * A README's fenced `js` block, and the unlabelled block right after it (what it prints), if any; one line
 * ending in a colon ("Output on Linux x64:") may stand between them.
 */
export interface ReadmeExample {
  code: string;
  output?: string;
}

/** The `js` blocks of a README, in order. */
export function readmeExamples(readme: URL): ReadmeExample[] {
  const text = readFileSync(readme, "utf8");
  return [...text.matchAll(/```js\n(.*?)```\n(?:\n(?:[^\n`]*:\n\n)?```\n(.*?)```\n)?/gs)].map(
    (m) => ({
      code: m[1]!,
      ...(m[2] === undefined ? {} : { output: m[2] }),
    }),
  );
}

/**
 * What the example's `console.log(…); // value` comments (on the line, or alone on the next line) say it
 * prints: each comment's head, up to a gloss (` (`, `: `, or `, ` and a lowercase word).
 */
export function printedHeads(code: string): string[] {
  const comments = code.matchAll(/console\.log\(.*\);(?: \/\/ (.+)|\n\s*\/\/ (.+))$/gm);
  return [...comments].map((m) => (m[1] ?? m[2])!.split(/ \(|: |, (?=[a-z])/)[0]!.trim());
}

/** What one example did, run alone. */
export interface ExampleRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** What it left in its working directory and in its `os.tmpdir()`. */
  leftovers: string[];
}

/**
 * Runs `code` as an ES module in a fresh Node process, with the bare specifiers of `imports` rewritten to
 * the files given (the built package), an empty working directory and a private `TMPDIR`, so anything the
 * example leaves behind shows. `args(file)` gives Node's arguments, when not just the example's file.
 */
export function runExample(
  code: string,
  imports: Record<string, string>,
  args: (file: string) => string[] = (file) => [file],
): ExampleRun {
  const root = mkdtempSync(join(tmpdir(), "rafkit-readme-"));
  try {
    let source = code;
    for (const [specifier, file] of Object.entries(imports)) {
      source = source.replaceAll(`"${specifier}"`, JSON.stringify(file));
    }
    const file = join(root, "example.mjs");
    writeFileSync(file, source);
    const cwd = join(root, "cwd");
    const tmp = join(root, "tmp");
    mkdirSync(cwd);
    mkdirSync(tmp);
    const env = { ...process.env, TMPDIR: tmp };
    const r = spawnSync(process.execPath, args(file), {
      cwd,
      encoding: "utf8",
      env,
      timeout: 60_000,
    });
    const leftovers = [
      ...readdirSync(cwd).map((f) => `cwd/${f}`),
      ...readdirSync(tmp).map((f) => `tmp/${f}`),
    ];
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, leftovers };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
