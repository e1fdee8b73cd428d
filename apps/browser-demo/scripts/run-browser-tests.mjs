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

async function twoPages(context, url) {
  const path = `locks/pages-${Date.now()}.bin`;
  const [a, b] = [await context.newPage(), await context.newPage()];
  await a.goto(`${url}/two-pages.html`);
  await b.goto(`${url}/two-pages.html`);
  const open = (page) =>
    page.evaluate(async (p) => {
      window.file = await window.rafkit.AsyncRandomAccessFile.open(p, "rw");
    }, path);
  await open(a);
  await open(b);
  await a.evaluate(async () => {
    window.held = await window.file.webLock();
    await window.file.writeInt(0x2a);
  });
  const refused = await b.evaluate(async () => (await window.file.tryWebLock()) === null);
  await b.evaluate(() => {
    window.granted = window.file.webLock().then(async (lock) => {
      const length = await window.file.length();
      await lock.release();
      return length;
    });
  });
  const stillWaiting = await b.evaluate(() =>
    Promise.race([window.granted, new Promise((r) => setTimeout(() => r("waiting"), 200))]),
  );
  await a.evaluate(() => window.held.release());
  const lengthSeen = await b.evaluate(() => window.granted);
  await a.evaluate(() => window.file.close());
  await b.evaluate(() => window.file.close());
  await a.close();
  await b.close();
  const ok = refused && stillWaiting === "waiting" && lengthSeen === 4;
  record(
    "pages: a lock contended between two pages (tryWebLock null, webLock waits, then sees the holder's write)",
    ok,
    `refused ${refused}, while held ${stillWaiting}, length seen ${lengthSeen}`,
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
    const pageResults = await page.evaluate(() => window.rafkitResults, undefined, {
      timeout: 120_000,
    });
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
    await twoPages(context, server.url);
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
