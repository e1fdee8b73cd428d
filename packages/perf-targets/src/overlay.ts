import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { MEASURED_PACKAGES, type PackageRoots } from "./suites";

/** The prefix of the base build's suites in a before/after run (`base$BitsGet`): a suite name's legal `$`. */
export const BASE_PREFIX = "base$";

/** The module that exports a copied suite module's suites renamed with `BASE_PREFIX`. */
export function baseSuiteModule(module: string): string {
  return module.replace(/\.m?js$/, ".base.mjs");
}

/**
 * Exports every suite of the module beside it (default export first, as the harness loads them) under
 * `base$` + its name, so a run can hold the base build's suites beside the current build's, and a fork
 * that imports this module finds the one it runs.
 */
const wrapperSource = (
  file: string,
) => `// Written by perf-targets compare: ./${file}'s suites, renamed ${BASE_PREFIX}<name>.
import { defineSuite, isSuite } from "@rafkit/bench";
import * as mod from "./${file}";

const { default: first, ...named } = mod;
const found = new Set();
for (const value of [first, ...Object.values(named)]) {
  for (const item of Array.isArray(value) ? value : [value]) if (isSuite(item)) found.add(item);
}
export default [...found].map((suite) => defineSuite({ ...suite, name: ${JSON.stringify(BASE_PREFIX)} + suite.name }));
`;

/** A package's `node_modules` entries (`koffi`, `@rafkit/bench`), each with the real directory it links to. */
function installed(root: string): [string, string][] {
  const dir = join(root, "node_modules");
  if (!existsSync(dir)) return [];
  const out: [string, string][] = [];
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(".")) continue; // .bin, .pnpm, .vite
    const names = entry.startsWith("@")
      ? readdirSync(join(dir, entry)).map((n) => `${entry}/${n}`)
      : [entry];
    for (const name of names) {
      try {
        out.push([name, realpathSync(join(dir, name))]);
      } catch {
        // a dangling link: nothing to resolve to
      }
    }
  }
  return out;
}

/** The current suites laid over a base build: where they are, and how to remove them. */
export interface Overlay {
  /** The overlay's directory. */
  dir: string;
  /**
   * Roots to give `suiteModules`: the measured packages with suites point at their copies here (whose
   * imports resolve to the base build), the others at the base build itself (e.g. its `rafkv`).
   */
  roots: PackageRoots;
  /** Removes the overlay. */
  dispose(): void;
}

/**
 * Copies each measured package's current `bench/` (suites, their helpers and `java/` sources) into a fresh
 * directory beside a `node_modules` of links: the measured packages to the base build's, everything else
 * the package has installed (`@rafkit/bench`, `koffi`, `random-access-file`) to the current one's. Node
 * resolves links to real paths, so the base's `@rafkit/raf` then imports the base's `@rafkit/bits`. Next to
 * each copied suite module, `<name>.base.mjs` exports its suites renamed `base$<name>` (see
 * `baseSuiteModule`).
 */
export function buildOverlay(
  base: PackageRoots,
  current: PackageRoots,
  dir = mkdtempSync(join(tmpdir(), "rafkit-before-after-")),
): Overlay {
  const roots: Record<string, string> = { ...base };
  for (const name of MEASURED_PACKAGES) {
    const bench = join(current[name], "bench");
    if (!existsSync(bench)) continue;
    const root = join(dir, basename(current[name]));
    cpSync(bench, join(root, "bench"), { recursive: true });
    for (const file of readdirSync(join(root, "bench"))) {
      if (file.endsWith(".bench.mjs"))
        writeFileSync(join(root, "bench", baseSuiteModule(file)), wrapperSource(file));
    }
    const links = new Map(installed(current[name]));
    for (const measured of MEASURED_PACKAGES) {
      if (existsSync(join(base[measured], "package.json"))) links.set(measured, base[measured]);
      else links.delete(measured); // absent from the base: its import fails, as it would there
    }
    for (const [pkg, target] of links) {
      const link = join(root, "node_modules", pkg);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(target, link, "dir");
    }
    roots[name] = root;
  }
  return {
    dir,
    roots: roots as PackageRoots,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
