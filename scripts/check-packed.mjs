#!/usr/bin/env node
// Checks the package in the current directory as users get it: packed by pnpm (workspace:^ rewritten), linted by
// publint and attw (every resolution, node10 too), then installed ALONE into a temp project outside the workspace and
// loaded through both `import` and `require` by test/smoke/{esm.mjs,cjs.cjs}. A package with a `bin` (an app, which
// may be private: it is packed all the same) also has each binary run with `--help` through `npx`.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const pkgDir = process.cwd();
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const bin = (name) => join(root, "node_modules", ".bin", name);
// A bounded wait: npm retries a registry it cannot verify (e.g. without NODE_EXTRA_CA_CERTS) for ever.
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: "inherit", timeout: 300_000, killSignal: "SIGKILL" });
const work = mkdtempSync(join(tmpdir(), "rafkit-packed-"));

/** Packs a workspace package, and (recursively) the workspace packages it depends on. */
function packWithDeps(dir, tarballs) {
  const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (tarballs.has(json.name)) return tarballs;
  execFileSync("pnpm", ["pack", "--pack-destination", work], { cwd: dir, stdio: "ignore" });
  const prefix = `${json.name.replace("@", "").replace("/", "-")}-${json.version}.tgz`;
  tarballs.set(json.name, join(work, prefix));
  for (const [dep, range] of Object.entries(json.dependencies ?? {})) {
    if (String(range).startsWith("workspace:")) {
      packWithDeps(join(root, "packages", dep.replace("@rafkit/", "")), tarballs);
    }
  }
  return tarballs;
}

/** The package's binaries by name (`bin` as a string names one after the package). */
function binaries(json) {
  if (typeof json.bin === "string") return { [json.name.replace(/^@[^/]+\//, "")]: json.bin };
  return json.bin ?? {};
}

try {
  const tarballs = packWithDeps(pkgDir, new Map());
  const own = tarballs.get(pkg.name);
  console.log(`check-packed: ${pkg.name} -> ${own}`);
  run(bin("publint"), ["run", own, "--strict"], pkgDir);
  run(bin("attw"), [own, "--no-emoji"], pkgDir);

  // A consumer project that depends on this package only; its @rafkit dependencies come from their
  // tarballs (standing in for the registry) and everything else from the npm registry.
  // A `#` in the path: a CJS build that made `import.meta.url` unencoded lost everything after it (koffi too).
  const app = join(work, "consumer #1");
  cpSync(join(pkgDir, "test", "smoke"), app, { recursive: true });
  const overrides = Object.fromEntries(
    [...tarballs]
      .filter(([name]) => name !== pkg.name)
      .map(([name, file]) => [name, `file:${file}`]),
  );
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify(
      { name: "consumer", private: true, dependencies: { [pkg.name]: `file:${own}` }, overrides },
      null,
      2,
    ),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], app);
  for (const file of readdirSync(app)
    .filter((f) => /\.(mjs|cjs)$/.test(f))
    .sort()) {
    console.log(`check-packed: node ${file}`);
    run(process.execPath, [file], app);
  }
  // What is marked @internal stays out of the shipped types (stripInternal in tsup.shared.ts and tsup.browser.ts):
  // in them, a call like FileLock#released() compiled, and broke the lock.
  const shipped = join(app, "node_modules", ...pkg.name.split("/"), "dist");
  for (const file of readdirSync(shipped).filter((f) => /\.d\.c?ts$/.test(f))) {
    if (readFileSync(join(shipped, file), "utf8").includes("@internal"))
      throw new Error(`${pkg.name}: dist/${file} declares something marked @internal`);
  }
  // Its types as a TypeScript user on Node compiles them (strict, nodenext, the .d.ts checked, no DOM lib): with no
  // `types` listed, TypeScript 6 loads only what the .d.ts reference (`@types/node` for a package whose types name
  // Node's). The default lib has the DOM's, which hid a package's use of a DOM-and-Node type (`AbortSignal`).
  const typesCheck = `import type * as api from "${pkg.name}";\nexport type Api = typeof api;\n`;
  writeFileSync(join(app, "types-check.mts"), typesCheck);
  writeFileSync(join(app, "types-check.cts"), typesCheck);
  console.log("check-packed: tsc types-check.mts types-check.cts");
  run(
    bin("tsc"),
    [
      ...["--strict", "--noEmit", "--module", "nodenext", "--moduleResolution", "nodenext"],
      ...["--lib", "ES2023", "--typeRoots", join(root, "node_modules", "@types")],
      ...["types-check.mts", "types-check.cts"],
    ],
    app,
  );
  if (pkg.exports?.["./browser"] !== undefined) {
    // The browser entry's types as a browser project compiles them: DOM's lib, and no @types/node at all.
    const check = `import type * as api from "${pkg.name}/browser";\nexport type Api = typeof api;\n`;
    writeFileSync(join(app, "types-browser.mts"), check);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: "esnext",
      moduleResolution: "bundler",
      lib: ["ES2023", "DOM"],
      types: [],
    };
    writeFileSync(
      join(app, "tsconfig.browser.json"),
      JSON.stringify({ compilerOptions, files: ["types-browser.mts"] }),
    );
    console.log("check-packed: tsc -p tsconfig.browser.json (no @types/node)");
    run(bin("tsc"), ["-p", "tsconfig.browser.json"], app);
  }
  for (const name of Object.keys(binaries(pkg))) {
    console.log(`check-packed: npx ${name} --help`);
    const help = execFileSync("npx", ["--no-install", name, "--help"], {
      cwd: app,
      encoding: "utf8",
    });
    if (!/usage/i.test(help)) throw new Error(`npx ${name} --help printed no usage:\n${help}`);
  }
  console.log(`check-packed: ${pkg.name} OK`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
