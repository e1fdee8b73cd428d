// The demo's Playwright cases: builds it with Vite, serves it, drops a real javac-compiled .class file on it
// and picks a real 100 MiB file, and checks what the page shows (typed reads in both byte orders, the hex view,
// the constant pool, a scan that leaves the main thread ticking). SCREENSHOT=1 refreshes docs/screenshot.png.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { serve } from "./serve.mjs";

const app = fileURLToPath(new URL("..", import.meta.url));

/** A 100 MiB file whose 8-byte slot k holds k as a big-endian long. */
function bigFile(path) {
  const bytes = Buffer.alloc(100 << 20);
  for (let k = 0; k < bytes.length / 8; k++) bytes.writeBigInt64BE(BigInt(k), k * 8);
  writeFileSync(path, bytes);
}

export async function demoCases(context) {
  const work = mkdtempSync(join(tmpdir(), "rafkit-demo-"));
  const results = [];
  const check = (name, ok, detail) => results.push([`demo: ${name}`, ok, detail]);
  try {
    const www = join(work, "www");
    await build({ root: app, logLevel: "warn", build: { outDir: www, emptyOutDir: true } });
    execFileSync("javac", ["-d", work, join(app, "test/fixtures/Hello.java")]);
    const server = await serve([www], work);
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/index.html`);
      const bytes = [...readFileSync(join(work, "Hello.class"))];
      const drop = await page.evaluateHandle((b) => {
        const dt = new DataTransfer();
        dt.items.add(new File([Uint8Array.from(b)], "Hello.class"));
        return dt;
      }, bytes);
      await page.dispatchEvent("#drop", "drop", { dataTransfer: drop });
      await page.waitForSelector("#class:not([hidden])");
      const header = await page.textContent("#header");
      check(
        "a dropped .class file: its header",
        /^class Hello extends java\/lang\/Object · version 61\.0 \(Java 17\)/.test(header),
        header,
      );
      const pool = await page.textContent("#pool");
      check(
        "a dropped .class file: its constant pool, Utf8 entries through readUTF",
        ["Utf8 main", "Utf8 héllo, rafkit", "Long 1234567890123L", "Double 3.14159"].every((s) =>
          pool.includes(s),
        ),
        pool.slice(0, 300),
      );
      await page.waitForFunction(() => document.querySelector("#typed").textContent !== "");
      check(
        "typed read: int at 0, big-endian, is the magic",
        (await page.textContent("#typed")) === String(0xcafebabe | 0),
        await page.textContent("#typed"),
      );
      check(
        "hex view starts with the magic",
        (await page.textContent("#hex")).startsWith("00000000  ca fe ba be"),
        await page.textContent("#hex"),
      );
      await page.selectOption("#order", "little");
      await page
        .waitForFunction(
          (v) => document.querySelector("#typed").textContent === v,
          String(0xbebafeca | 0),
          { timeout: 5000 },
        )
        .catch(() => {});
      check(
        "typed read: int at 0, little-endian",
        (await page.textContent("#typed")) === String(0xbebafeca | 0),
        await page.textContent("#typed"),
      );
      if (process.env.SCREENSHOT === "1") {
        await page.selectOption("#order", "big");
        await page.setViewportSize({ width: 1100, height: 900 });
        await page.screenshot({ path: join(app, "docs/screenshot.png"), fullPage: false });
      }

      bigFile(join(work, "big.bin"));
      await page.selectOption("#kind", "long");
      await page.selectOption("#order", "big");
      await page.fill("#offset", "0");
      await page.setInputFiles("#file", join(work, "big.bin"));
      await page.waitForFunction(() => document.querySelector("#size").textContent === "100.0 MiB");
      const samples = [];
      for (;;) {
        const s = await page.evaluate(() => [
          document.querySelector("#scan").textContent,
          Number(document.querySelector("#ticks").textContent),
        ]);
        samples.push(s);
        if (s[0].startsWith("scanned")) break;
        await page.waitForTimeout(50);
      }
      const during = samples.filter(([text]) => text.startsWith("scanning"));
      check(
        "100 MiB: the main thread keeps ticking while the worker reads it all",
        during.length >= 2 && during.at(-1)[1] > during[0][1],
        JSON.stringify(samples.slice(0, 5)),
      );
      check(
        "100 MiB: the scan's result",
        samples.at(-1)[0].startsWith("scanned: "),
        samples.at(-1)[0],
      );
      await page.fill("#offset", String(50 << 20));
      await page
        .waitForFunction(
          (v) => document.querySelector("#typed").textContent === v,
          String((50 << 20) / 8),
          { timeout: 10_000 },
        )
        .catch(() => {});
      check(
        "100 MiB: a long read at 50 MiB",
        (await page.textContent("#typed")) === String((50 << 20) / 8),
        await page.textContent("#typed"),
      );
    } finally {
      await page.close();
      await server.close();
    }
  } catch (error) {
    check("run", false, error?.stack ?? String(error));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return results;
}
