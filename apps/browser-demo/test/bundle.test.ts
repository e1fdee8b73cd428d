import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
// @ts-expect-error: plain .mjs helpers shared with the Chromium runner
import { GZIP_BUDGET } from "../scripts/budget.mjs";
// @ts-expect-error: plain .mjs helpers shared with the Chromium runner
import { browserSize, bundle } from "../scripts/bundle.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));

describe("browser builds", () => {
  test.each([
    [
      "@rafkit/raf",
      "RandomAccessFile, AsyncRandomAccessFile, AsyncFileLock, SyncLockUnsupportedError",
    ],
    ["@rafkit/syscall-state", "opfsBackend, blobBackend, getBackend, systemCallError"],
  ])("%s bundles for browsers with no node: or koffi import", async (name, names) => {
    const found: string[] = [];
    await bundle(
      {
        stdin: { contents: `export { ${names} } from "${name}";`, resolveDir: here, loader: "ts" },
        write: false,
      },
      found,
    );
    expect(found).toEqual([]);
  });

  test.each([
    ["@rafkit/raf/browser", "RandomAccessFile, AsyncRandomAccessFile"],
    ["@rafkit/syscall-state/browser", "opfsBackend, getBackend"],
  ])(
    "%s bundles with no node: import where the bundler sets no browser condition",
    async (name, names) => {
      expect(await neutralImports(`export { ${names} } from "${name}";`)).toEqual([]);
    },
  );

  test("the Node build of syscall-state does pull node:fs (the check sees it)", async () => {
    const found = await neutralImports(`export { getBackend } from "@rafkit/syscall-state";`);
    expect(found.some((f) => f.startsWith("fs") || f.startsWith("node:fs"))).toBe(true);
  });

  test("raf + bits + the OPFS backend stay within the gzip budget", async () => {
    const size = await browserSize();
    console.log(
      `browser bundle (raf + bits + OPFS): ${size.minified} bytes minified, ${size.gzipped} bytes gzipped (budget ${GZIP_BUDGET})`,
    );
    expect(size.found).toEqual([]);
    expect(size.gzipped).toBeLessThanOrEqual(GZIP_BUDGET);
  });
});

/** The Node built-ins a bundle of `contents` imports where the bundler sets no `browser` condition (esbuild's neutral). */
async function neutralImports(contents: string): Promise<string[]> {
  const found: string[] = [];
  await bundle(
    {
      stdin: { contents, resolveDir: here, loader: "ts" },
      write: false,
      conditions: ["import"],
      platform: "neutral",
      mainFields: ["module", "main"],
    },
    found,
  );
  return found;
}
