// The part of vitest's API our test files use, for node.exe under Wine, where vitest itself cannot run
// (rolldown's native binding does not load there, and its WASI build cannot see the files). Bundled into
// each test file in place of "vitest"; matchers are vitest's own (@vitest/expect on chai), so the test
// cases and their assertions are the very ones vitest runs on Linux. run.mjs runs what this collects.
import { JestAsymmetricMatchers, JestChaiExpect, JestExtend } from "@vitest/expect";
import * as chai from "chai";

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

/** @type {import("chai").ExpectStatic & Record<string, unknown>} */
export const expect = chai.expect;

const registry = (globalThis.__rafkitWindowsTests ??= { files: [] });

function suite(name, parent, skip) {
  return {
    kind: "suite",
    name,
    parent,
    skip,
    children: [],
    beforeAll: [],
    afterAll: [],
    beforeEach: [],
    afterEach: [],
  };
}

const root = suite("", undefined, false);
registry.files.push({ root, pending: [] });
let current = root;

/** vitest's title formatting for `.each`: printf-style `%s %d %i %f %j %o %#` and `$name` for objects. */
function title(template, row, index) {
  const args = Array.isArray(row) ? row : [row];
  let i = 0;
  let out = template.replace(/%([sdifjo#%])/g, (_match, flag) => {
    if (flag === "%") return "%";
    if (flag === "#") return String(index);
    const value = args[i++];
    if (flag === "d" || flag === "i") return String(Number.parseInt(value, 10));
    if (flag === "f") return String(Number(value));
    if (flag === "j" || flag === "o") return JSON.stringify(value);
    return typeof value === "string" ? value : String(value);
  });
  if (!Array.isArray(row) && row !== null && typeof row === "object") {
    out = out.replace(/\$([A-Za-z_][\w.]*)/g, (match, key) =>
      key in row ? String(row[key]) : match,
    );
  }
  return out;
}

function addSuite(name, fn, skip) {
  const s = suite(name, current, skip || current.skip);
  current.children.push(s);
  const previous = current;
  current = s;
  try {
    const r = fn?.();
    if (r && typeof r.then === "function") registry.files.at(-1).pending.push(r);
  } finally {
    current = previous;
  }
}

function addTest(name, a, b, skip) {
  // test(name, fn, timeout) or test(name, options, fn)
  const fn = typeof a === "function" ? a : b;
  const options = typeof a === "object" && a !== null ? a : {};
  const timeout = typeof b === "number" ? b : (options.timeout ?? 60_000);
  current.children.push({
    kind: "test",
    name,
    fn,
    timeout,
    skip: skip || current.skip || options.skip === true || fn === undefined,
  });
}

function withModifiers(add) {
  const api = (name, a, b) => add(name, a, b, false);
  api.skip = (name, a, b) => add(name, a, b, true);
  api.todo = (name) => add(name, undefined, undefined, true);
  api.skipIf = (condition) => (name, a, b) => add(name, a, b, Boolean(condition));
  api.runIf = (condition) => (name, a, b) => add(name, a, b, !condition);
  api.concurrent = api;
  api.sequential = api;
  api.each = (table) => (name, a, b) => {
    const fn = typeof a === "function" ? a : b;
    table.forEach((row, index) => {
      const args = Array.isArray(row) ? row : [row];
      const bound = (...more) => fn(...args, ...more);
      if (typeof a === "function") add(title(name, row, index), bound, b, false);
      else add(title(name, row, index), a, bound, false);
    });
  };
  return api;
}

export const describe = withModifiers((name, a, b, skip) =>
  addSuite(name, typeof a === "function" ? a : b, skip),
);
export const test = withModifiers(addTest);
export const it = test;

export const beforeAll = (fn) => current.beforeAll.push(fn);
export const afterAll = (fn) => current.afterAll.push(fn);
export const beforeEach = (fn) => current.beforeEach.push(fn);
export const afterEach = (fn) => current.afterEach.push(fn);

const unsupported = (what) => () => {
  throw new Error(`${what} is not available in the Windows test runner`);
};
export const vi = new Proxy({}, { get: (_target, key) => unsupported(`vi.${String(key)}`) });
