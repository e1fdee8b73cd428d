// Debian's Chromium under playwright-core: never a downloaded browser, the flags this machine needs, and
// a fresh profile each run.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"];

/** Debian's chromium binary (`CHROMIUM` overrides), or an error saying how to install it. */
export function chromiumPath() {
  const found = [process.env.CHROMIUM, ...CANDIDATES].find((p) => p && existsSync(p));
  if (found === undefined)
    throw new Error(
      "Debian's chromium is missing: run scripts/ci/browser.sh (apt-get install -y chromium)",
    );
  return found;
}

/** A persistent context over a fresh `--user-data-dir` (Playwright passes it so), headless=new. */
export async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), "rafkit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: false,
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  return { context, profile };
}
