// Bundles test files for node.exe under Wine (runs on the Linux Node): TypeScript compiled, "vitest"
// replaced by vitest-shim.mjs, third-party packages inlined (Wine shows pnpm's symlinks as plain
// directories, so Node there cannot resolve a package's own dependencies), and the workspace packages
// and koffi left external, so tests use the built dist/ as users do. Each bundle's `import.meta.url` is
// its test file's, as Windows sees it, so paths relative to the test (../dist, fixtures) still work.
// argv: <out dir> <test files...>; prints the bundles' paths, one a line.
import { mkdirSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
// esbuild comes with tsup (the repo's bundler); take the copy tsup itself uses.
const requireFromTsup = createRequire(createRequire(join(root, "package.json")).resolve("tsup"));
const esbuild = requireFromTsup("esbuild");
// The shim's matchers are vitest's own: @vitest/expect and its chai, where vitest's install has them.
const besideVitest = dirname(realpathSync(join(root, "node_modules/vitest")));
const besideExpect = dirname(dirname(realpathSync(join(besideVitest, "@vitest/expect"))));

/** A Linux path as Wine's Z: drive shows it, as a file URL. */
const windowsUrl = (path) => `file:///Z:${path}`;

/**
 * The workspace packages stay external, by their built files' absolute Windows URLs: a bare name would
 * be resolved from the bundle's own directory, where no node_modules has them.
 */
const workspaceDist = {
  name: "workspace-dist",
  setup(build) {
    build.onResolve({ filter: /^@rafkit\// }, async (args) => {
      if (args.pluginData === "inner") return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: "inner",
      });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: windowsUrl(found.path), external: true };
    });
  },
};

const [out, ...files] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
for (const file of files) {
  const path = resolve(file);
  const outfile = join(out, relative(root, path).replaceAll("/", "__").replace(/\.ts$/, ".mjs"));
  await esbuild.build({
    entryPoints: [path],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    logLevel: "error",
    alias: { vitest: join(here, "vitest-shim.mjs") },
    external: ["koffi"],
    plugins: [workspaceDist],
    nodePaths: [besideVitest, besideExpect],
    define: { "import.meta.url": JSON.stringify(windowsUrl(path)) },
    // Inlined CommonJS (chai's dependencies) may call require(); give the ESM bundle one.
    banner: {
      js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
    },
  });
  console.log(outfile);
}
