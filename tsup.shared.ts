import { defineConfig, type Options } from "tsup";

/**
 * The first line of the .d.ts files of a package whose types name Node's (`node:stream`, `Symbol.dispose`,
 * `Buffer`): TypeScript 6 loads `@types/node` only when listed in `types`, or referenced like this.
 */
const NODE_TYPES = '/// <reference types="node" />';

/**
 * Every package ships ESM + CJS with .d.ts/.d.cts for each, built for the Node versions in `engines`. What is marked
 * `@internal` stays out of the .d.ts (`check:packed` checks it).
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
    ...extra,
  });
}
