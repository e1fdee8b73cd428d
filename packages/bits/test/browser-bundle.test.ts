import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { expect, test } from "vitest";

// The built package as a browser app bundles it: esbuild, platform "browser", no externals. A Node
// built-in would fail to resolve, or (marked external) show up as an import of the output.
// The CJS build too: a bundler that takes `require` gets it (it once required Node's `url`, for nothing).
test.each(["index.js", "index.cjs"])(
  "a browser bundle of @rafkit/bits (dist/%s) imports nothing from Node",
  async (file) => {
    const entry = fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
    const result = await build({
      stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: "." },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
      external: ["node:*", "buffer"],
    });
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
    expect(imports).toEqual([]);
    const text = result.outputFiles[0]!.text;
    expect(text).not.toMatch(/\bfrom\s*["'](node:|buffer)/);
    expect(text).not.toMatch(/\brequire\s*\(/);
    expect(text).not.toMatch(/\bimport\s*\(/);
    expect(text).toContain("ModifiedUtf8");
  },
);
