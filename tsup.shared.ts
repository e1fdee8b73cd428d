import { defineConfig, type Options } from "tsup";

/** Every package ships ESM + CJS with .d.ts/.d.cts for each, built for the Node versions in `engines`. */
export function packageBuildConfig(entry: string[], extra: Partial<Options> = {}) {
  return defineConfig({
    entry,
    format: ["esm", "cjs"],
    // tsup's dts step sets `baseUrl`, which TypeScript 6 deprecates.
    dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
    sourcemap: true,
    clean: true,
    target: "node20",
    ...extra,
  });
}
