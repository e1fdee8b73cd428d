import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, type Options } from "tsup";

/** The Node entry of syscall-state, as the shared sources import it. */
const SYSCALL_STATE = /^@rafkit\/syscall-state$/;

/**
 * A package's browser build: ESM (and CJS) for browsers, where every `node:` import of the shared sources resolves to
 * the package's own `src/browser/node-shims/<module>.ts` (a browser's answer, e.g. the errno table for
 * `node:os`), and a `node:` module without a shim fails the build. The shared sources stay as they are, so
 * the Node build is untouched; the globals listed in `inject` (`process`, `Buffer`) come from shims too.
 */
export function browserBuildConfig(entry: Record<string, string>, inject: string[] = []) {
  const shims = join(process.cwd(), "src/browser/node-shims");
  const options: Options = {
    entry,
    // CJS too, so `require` of the `./browser` subpath resolves (bundlers take the ESM).
    format: ["esm", "cjs"],
    platform: "browser",
    target: "es2022",
    // No reference to @types/node here: it would bring Node's globals into every browser project that has it.
    // The types name the shims too (a stream factory's \`Readable\` is the shim's), so they compile without it.
    dts: {
      compilerOptions: {
        ignoreDeprecations: "6.0",
        stripInternal: true,
        lib: ["ES2023", "DOM"],
        paths: Object.fromEntries(
          readdirSync(shims).map((f) => [`node:${f.replace(/\.ts$/, "")}`, [join(shims, f)]]),
        ),
      },
    },
    sourcemap: true,
    clean: false,
    removeNodeProtocol: false,
    // Not external as it is written: the plugin below names the browser entry instead.
    noExternal: [SYSCALL_STATE],
    inject: inject.map((name) => join(shims, name)),
    esbuildPlugins: [
      {
        name: "rafkit-node-shims",
        setup(build) {
          // The shared sources import the Node entry of syscall-state; the browser build names its browser entry,
          // so a bundler that sets no `browser` condition (rollup's node-resolve, esbuild's neutral) gets it too.
          build.onResolve({ filter: SYSCALL_STATE }, () => ({
            path: "@rafkit/syscall-state/browser",
            external: true,
          }));
          build.onResolve({ filter: /^node:/ }, (args) => {
            const file = join(shims, `${args.path.slice("node:".length)}.ts`);
            if (existsSync(file)) return { path: file };
            return {
              errors: [{ text: `${args.path} has no browser shim (imported by ${args.importer})` }],
            };
          });
        },
      },
    ],
  };
  return defineConfig(options);
}
