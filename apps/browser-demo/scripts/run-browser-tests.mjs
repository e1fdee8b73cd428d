#!/usr/bin/env node
// The Chromium run: bundles the harness (esbuild, browser conditions, no Node import allowed), serves it on
// localhost, runs it in Debian's Chromium, checks the JDK interop both ways, the two-page lock and the demo,
// and prints `N passed, N failed` (exit 1 on any failure).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GZIP_BUDGET } from "./budget.mjs";
import { browserSize, bundle } from "./bundle.mjs";
import { launchChromium } from "./chromium.mjs";
import { demoCases } from "./demo-cases.mjs";
import { serve } from "./serve.mjs";

const app = fileURLToPath(new URL("..", import.meta.url));
const harness = join(app, "harness");
const interopJava = fileURLToPath(
  new URL("../../../packages/raf/test/fixtures/Interop.java", import.meta.url),
);
const work = mkdtempSync(join(tmpdir(), "rafkit-browser-"));
const out = join(work, "www");
const fixtures = join(out, "fixtures");
const uploads = join(work, "uploads");
mkdirSync(fixtures, { recursive: true });
mkdirSync(uploads);

const results = [];
const record = (name, ok, error) => {
  results.push({ name, ok, error });
  console.log(`${ok ? "  ok  " : "  FAIL"} ${name}${ok ? "" : `\n        ${error}`}`);
};

/** Serves the Node-only imports of raf's interop log code (test/support) from the harness's shims. */
const interopShims = {
  name: "interop-shims",
  setup(build) {
    build.onResolve({ filter: /^(node:fs|vitest)$/ }, (args) => ({
      path: join(harness, "shims", args.path === "vitest" ? "vitest.ts" : "node-fs.ts"),
    }));
  },
};

async function buildHarness() {
  const found = [];
  await bundle(
    {
      entryPoints: ["page.ts", "conformance.worker.ts", "lock.worker.ts", "two-pages.ts"].map((f) =>
        join(harness, f),
      ),
      outdir: out,
      sourcemap: true,
      inject: [join(harness, "shims", "buffer-global.ts")],
      plugins: [interopShims],
    },
    found,
  );
  copyFileSync(join(harness, "index.html"), join(out, "index.html"));
  copyFileSync(join(harness, "two-pages.html"), join(out, "two-pages.html"));
  if (found.length > 0)
    throw new Error(`the browser bundle imports Node modules: ${found.join(", ")}`);
}

/** `promise`, or a failure once `ms` have passed: a lock that is never granted fails the run, not hangs it. */
function within(promise, ms, what) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function twoPages(context, url) {
  const path = `locks/pages-${Date.now()}.bin`;
  const [a, b] = [await context.newPage(), await context.newPage()];
  await a.goto(`${url}/two-pages.html`);
  await b.goto(`${url}/two-pages.html`);
  const open = (page) =>
    page.evaluate(async (p) => {
      window.file = await window.rafkit.AsyncRandomAccessFile.open(p, "rw");
    }, path);
  /** A lock call on the page's file: whether it was granted, and the lock's state. */
  const take = (page, call, options = {}) =>
    page.evaluate(
      async ([c, o]) => {
        const lock = await window.file[c](o);
        if (lock !== null) window.held = lock;
        return { granted: lock !== null, shared: lock?.shared, valid: lock?.isValid() };
      },
      [call, options],
    );
  const release = (page) =>
    page.evaluate(async () => {
      await window.held.release();
      return window.held.isValid();
    });
  /** Resolves once the origin's lock manager lists a request for the file's lock as pending. */
  const pending = async (page) =>
    page.evaluate(
      async (name) => {
        for (let k = 0; k < 500; k++) {
          const { pending: waiting = [] } = await navigator.locks.query();
          if (waiting.some((l) => l.name === name)) return true;
          await new Promise((r) => setTimeout(r, 10));
        }
        return false;
      },
      await a.evaluate((p) => window.rafkit.webLockName(p), path),
    );
  const seen = [];
  const step = (what, actual, expected) => {
    const ok = JSON.stringify(actual) === JSON.stringify(expected);
    seen.push(`${ok ? "" : "NOT "}${what}${ok ? "" : ` (got ${JSON.stringify(actual)})`}`);
    return ok;
  };
  let ok = true;
  try {
    await open(a);
    await open(b);
    ok &&= step("a holds an exclusive lock", await take(a, "lock"), {
      granted: true,
      shared: false,
      valid: true,
    });
    await a.evaluate(() => window.file.writeInt(0x2a));
    ok &&= step("b's tryLock is null", (await take(b, "tryLock")).granted, false);
    ok &&= step(
      "b's shared tryLock is null",
      (await take(b, "tryLock", { shared: true })).granted,
      false,
    );
    await b.evaluate(() => {
      window.granted = window.file.lock().then(async (lock) => {
        window.held = lock;
        return window.file.length();
      });
    });
    ok &&= step("b's lock waits", await pending(b), true);
    ok &&= step("a's release invalidates its lock", await release(a), false);
    ok &&= step(
      "b is granted after a's release and sees its write",
      await b.evaluate(() => window.granted),
      4,
    );
    ok &&= step(
      "a's tryLock is null while b holds",
      (await take(a, "tryLock", { shared: true })).granted,
      false,
    );
    await release(b);
    ok &&= step(
      "a's shared tryLock after b's release",
      await take(a, "tryLock", { shared: true }),
      {
        granted: true,
        shared: true,
        valid: true,
      },
    );
    ok &&= step(
      "shared + shared: b's shared lock too",
      (await take(b, "lock", { shared: true })).shared,
      true,
    );
    ok &&= step(
      "b's exclusive tryLock is refused under shared holders",
      await b.evaluate(() =>
        window.rafkit.AsyncRandomAccessFile.open(window.file.path, "rw").then(async (g) => {
          const refused = (await g.tryLock()) === null;
          await g.close();
          return refused;
        }),
      ),
      true,
    );
    await release(a);
    await release(b);
    ok &&= step(
      "b's exclusive tryLock once both released",
      (await take(b, "tryLock")).granted,
      true,
    );
    await b.evaluate(() => window.file.close());
    ok &&= step("closing b released it: a's tryLock", (await take(a, "tryLock")).granted, true);
    await a.evaluate(() => window.file.close());
  } catch (error) {
    ok = false;
    seen.push(String(error));
  } finally {
    await a.close();
    await b.close();
  }
  record(
    "pages: the async class's lock/tryLock contended between two pages (null under an exclusive holder, lock waits and sees the holder's write, shared + shared, granted after release and after close)",
    ok,
    seen.join("; "),
  );
}

async function main() {
  const size = await browserSize();
  console.log(
    `browser bundle (raf + bits + OPFS): ${size.minified} bytes minified, ${size.gzipped} bytes gzipped (budget ${GZIP_BUDGET})`,
  );
  record(
    "bundle: raf + bits + OPFS within the gzip budget, no Node import",
    size.gzipped <= GZIP_BUDGET && size.found.length === 0,
    `${size.gzipped} > ${GZIP_BUDGET} or ${size.found}`,
  );

  execFileSync(
    "java",
    [
      interopJava,
      "write",
      join(fixtures, "java.bin"),
      join(fixtures, "java.log"),
      "20261129",
      "3000",
    ],
    { stdio: "inherit" },
  );
  await buildHarness();
  const server = await serve([out], uploads);
  const { context, profile } = await launchChromium();
  try {
    const page = await context.newPage();
    page.on("pageerror", (e) => console.log(`page error: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && console.log(`console: ${m.text()}`));
    await page.goto(`${server.url}/index.html`);
    // Each case in the page has its own deadline (harness/check.ts); this one catches a page that hangs anyway.
    const pageResults = await within(
      page.evaluate(() => window.rafkitResults),
      600_000,
      "the test page's results",
    );
    for (const r of pageResults) record(r.name, r.ok, r.error);
    await page.close();

    const pairs = [0, 1, 2].flatMap((k) => [
      join(uploads, `rafkit-${k}.bin`),
      join(uploads, `rafkit-${k}.log`),
    ]);
    try {
      const said = execFileSync("java", [interopJava, "verify", ...pairs], {
        encoding: "utf8",
      }).trim();
      record(
        "jdk: java.io.RandomAccessFile reads back every value rafkit wrote in the page",
        said === "OK",
        said,
      );
    } catch (error) {
      record(
        "jdk: java.io.RandomAccessFile reads back every value rafkit wrote in the page",
        false,
        String(error),
      );
    }
    await within(twoPages(context, server.url), 120_000, "the two-page lock case").catch((error) =>
      record("pages: the two-page lock case", false, String(error)),
    );
    for (const [name, ok, error] of await demoCases(context)) record(name, ok, error);
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  record("browser run", false, error?.stack ?? String(error));
}
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
