// A tiny test runner that Node, Bun and Deno all run the same way: `test(name, tags, fn)` registers a case, `run()`
// runs them in order and prints TAP-like lines, then `N passed, N failed`. Our own, so that the output, the tally and
// the results JSON are identical on every runtime (their node:test reporters differ).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const cases = [];
const notes = [];
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), "rafkit-conformance-"));
let tempCount = 0;

/** Registers a test. `tags` name what it proves (matrix columns: "native", "node", "locks", "async", …). */
export function test(name, tags, fn) {
  cases.push({ name, tags, fn });
}

/** Records a runtime difference that is not a failure (shown in the output and the results JSON). */
export function note(key, value) {
  notes.push({ key, value });
}

/** A fresh path in this run's temporary directory (removed at the end). */
export function tempPath(name = "f.bin") {
  const dir = path.join(tempRoot, String(++tempCount));
  fs.mkdirSync(dir);
  return path.join(dir, name);
}

/** What runs this suite: name and version of the runtime. */
export function runtimeInfo() {
  if (typeof globalThis.Deno !== "undefined")
    return { name: "Deno", version: globalThis.Deno.version.deno };
  if (typeof globalThis.Bun !== "undefined")
    return { name: "Bun", version: globalThis.Bun.version };
  return { name: "Node.js", version: process.versions.node };
}

function withTimeout(promise, ms, name) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${name}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs every registered case; writes the results JSON to `out` when given; returns the failure count. */
export async function run({ id, out }) {
  const results = [];
  let passed = 0;
  let failed = 0;
  for (const [i, c] of cases.entries()) {
    try {
      await withTimeout(Promise.resolve().then(c.fn), 60_000, c.name);
      passed++;
      results.push({ name: c.name, tags: c.tags, ok: true });
      console.log(`ok ${i + 1} - ${c.name}`);
    } catch (e) {
      failed++;
      const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      results.push({ name: c.name, tags: c.tags, ok: false, error });
      console.log(
        `not ok ${i + 1} - ${c.name}\n  ${String(e?.stack ?? error).replaceAll("\n", "\n  ")}`,
      );
    }
  }
  for (const n of notes) console.log(`# ${n.key}: ${n.value}`);
  fs.rmSync(tempRoot, { recursive: true, force: true });
  if (out) {
    const info = runtimeInfo();
    const doc = {
      format: 1,
      id,
      runtime: info.name,
      version: info.version,
      os: process.platform,
      arch: process.arch,
      testedUnder: process.env.RAFKIT_CONFORMANCE_TESTED_UNDER ?? "CI",
      describe: process.platform === "linux" ? { locks: "advisory (OFD `fcntl`)" } : {},
      passed,
      failed,
      notes: Object.fromEntries(notes.map((n) => [n.key, n.value])),
      tests: results,
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}
