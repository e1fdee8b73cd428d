// Runs bundled test files (see bundle.mjs) in this process, one after another, the way vitest runs a
// file: beforeAll/afterAll per suite, beforeEach/afterEach around each test (outer first), a timeout
// per test. Used under node.exe in Wine, where child-process pipes fail. argv: bundle files.
// Prints one line per test, then "N passed, N failed" last; exit code 1 on any failure.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";

const registry = (globalThis.__rafkitWindowsTests ??= { files: [] });
const counts = { passed: 0, failed: 0, skipped: 0 };
/** Each test's outcome, tagged by its file, for the README's support matrix (tests/conformance/README.md's format). */
const results = [];
let currentTags = [];
/** What each suite file run here proves, in the matrix's column tags. */
const TAGS = {
  "packages__syscall-state__test__contract.test.mjs": ["native", "node", "async"],
  "packages__syscall-state__test__locks.test.mjs": ["native", "locks", "async"],
  "packages__syscall-state__test__windows.test.mjs": ["native", "async"],
  "packages__raf__test__locks.test.mjs": ["locks", "async"],
  "apps__kv__test__store.test.mjs": ["kv"],
  "apps__kv__test__crash.test.mjs": ["kv"],
};

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const describeError = (error) =>
  error instanceof Error ? (error.stack ?? String(error)) : inspect(error);

async function hooks(list, what) {
  for (const fn of list) await withTimeout(Promise.resolve().then(fn), 60_000, what);
}

function countSkipped(node) {
  if (node.kind === "test") counts.skipped++;
  else for (const child of node.children) countSkipped(child);
}

function fail(path, error) {
  counts.failed++;
  results.push({
    name: path,
    tags: currentTags,
    ok: false,
    error: String(error?.message ?? error),
  });
  console.log(`  FAIL ${path}\n${describeError(error).replace(/^/gm, "       ")}`);
}

function failAll(node, path, error) {
  if (node.kind === "test") fail(`${path} > ${node.name}`, error);
  else for (const child of node.children) failAll(child, `${path} > ${child.name}`, error);
}

async function runTest(node, path, chain) {
  if (node.skip) {
    counts.skipped++;
    console.log(`  skip ${path}`);
    return;
  }
  let error;
  try {
    for (const s of chain) await hooks(s.beforeEach, "beforeEach");
    await withTimeout(Promise.resolve().then(node.fn), node.timeout, "test");
  } catch (e) {
    error = e;
  }
  for (const s of [...chain].reverse()) {
    try {
      await hooks(s.afterEach, "afterEach");
    } catch (e) {
      error ??= e;
    }
  }
  if (error === undefined) {
    counts.passed++;
    results.push({ name: path, tags: currentTags, ok: true });
    console.log(`  ok   ${path}`);
  } else fail(path, error);
}

async function runSuite(s, path, chain) {
  const tests = [];
  const walk = (n) => (n.kind === "test" ? tests.push(n) : n.children.forEach(walk));
  walk(s);
  if (tests.every((t) => t.skip)) {
    for (const t of tests) countSkipped(t);
    return;
  }
  const inner = [...chain, s];
  try {
    await hooks(s.beforeAll, "beforeAll");
  } catch (error) {
    failAll(s, path, error);
    return;
  }
  for (const child of s.children) {
    const where = path === "" ? child.name : `${path} > ${child.name}`;
    if (child.kind === "test") await runTest(child, where, inner);
    else await runSuite(child, where, inner);
  }
  try {
    await hooks(s.afterAll, "afterAll");
  } catch (error) {
    fail(`${path} (afterAll)`, error);
  }
}

for (const file of process.argv.slice(2)) {
  const name = file.replace(/^.*[\\/]/, "");
  console.log(name);
  currentTags = TAGS[name] ?? [];
  const before = registry.files.length;
  try {
    await import(pathToFileURL(file).href);
    const entry = registry.files[before];
    await Promise.all(entry.pending);
    await runSuite(entry.root, "", []);
  } catch (error) {
    fail(`${name} (load)`, error);
  }
}

const out = process.env.RAFKIT_CONFORMANCE_OUT;
if (out) {
  const doc = {
    format: 1,
    id: process.env.RAFKIT_CONFORMANCE_RUNTIME ?? "windows",
    runtime: "Node.js",
    version: process.versions.node,
    os: process.platform,
    arch: process.arch,
    testedUnder: process.env.RAFKIT_CONFORMANCE_TESTED_UNDER ?? "CI",
    describe: { locks: "advisory (`LockFileEx` past the data)" },
    passed: counts.passed,
    failed: counts.failed,
    skipped: counts.skipped,
    notes: {
      suites: "the vitest suites run under Wine (scripts/ci/windows.sh), not tests/conformance",
    },
    tests: results,
  };
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
}
console.log(`${counts.skipped} skipped`);
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed === 0 && counts.passed > 0 ? 0 : 1);
