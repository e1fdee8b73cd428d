import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";

/**
 * The first line of the .d.ts files of a package whose types name Node's (`node:stream`, `Symbol.dispose`,
 * `Buffer`): TypeScript 6 loads `@types/node` only when listed in `types`, or referenced like this.
 */
const NODE_TYPES = '/// <reference types="node" />';

/** The CJS builds' `import.meta.url`: the file's URL, encoded (tsup's `shims` does not encode it). */
const CJS_IMPORT_META_URL = fileURLToPath(new URL("./tsup.cjs-import-meta.ts", import.meta.url));

/**
 * Every package ships ESM + CJS with .d.ts/.d.cts for each, built for the Node versions in `engines`. What is marked
 * `@internal` stays out of the .d.ts (`check:packed` checks it). In CJS, `import.meta.url` is the file's own URL.
 * `nodeTypes`: its types name Node's, so its .d.ts files reference `@types/node` ({@link NODE_TYPES}).
 */
export function packageBuildConfig(
  entry: string[],
  extra: Partial<Options> = {},
  { nodeTypes = false } = {},
) {
  return defineConfig({
    entry,
    format: ["esm", "cjs"],
    // tsup's dts step sets `baseUrl`, which TypeScript 6 deprecates.
    dts: {
      compilerOptions: { ignoreDeprecations: "6.0", stripInternal: true },
      ...(nodeTypes ? { banner: NODE_TYPES } : {}),
    },
    sourcemap: true,
    clean: true,
    target: "node20",
    esbuildOptions(options, { format }) {
      if (format !== "cjs") return;
      options.define = { ...options.define, "import.meta.url": "rafkitImportMetaUrl" };
      options.inject = [...(options.inject ?? []), CJS_IMPORT_META_URL];
    },
    ...extra,
  });
}
