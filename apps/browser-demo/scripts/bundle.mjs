// Bundles browser code the way an app's bundler would (esbuild, platform "browser", so the packages'
// `browser` export conditions apply) and reports every Node built-in or koffi import it meets.
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const NODE = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
/** An esbuild plugin that records (in `found`) each Node built-in or koffi import, as `module <- importer`. */
export function forbidNode(found) {
  return {
    name: "forbid-node",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.split("/")[0];
        if (!NODE.has(args.path) && !NODE.has(bare) && bare !== "koffi") return undefined;
        found.push(`${args.path} <- ${args.importer}`);
        return { path: args.path, external: true };
      });
    },
  };
}

/** Bundles `entryPoints` for browsers; `found` collects forbidden imports. */
export async function bundle(options, found = []) {
  const result = await esbuild.build({
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    logLevel: "silent",
    ...options,
    plugins: [...(options.plugins ?? []), forbidNode(found)],
  });
  return { result, found };
}

/** The browser size of raf + bits + the OPFS backend: minified and gzipped bytes. */
export async function browserSize() {
  const found = [];
  const { result } = await bundle(
    {
      stdin: {
        contents: `export { RandomAccessFile, AsyncRandomAccessFile } from "@rafkit/raf";
export { opfsBackend } from "@rafkit/syscall-state";`,
        resolveDir: fileURLToPath(new URL("..", import.meta.url)),
        loader: "ts",
      },
      minify: true,
      write: false,
    },
    found,
  );
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, found };
}
