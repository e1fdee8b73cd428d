import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { TargetGroup } from "./targets";

const require = createRequire(import.meta.url);

/** The measured packages whose suites and CLI the targets run, by package name. */
export const MEASURED_PACKAGES = [
  "@rafkit/bits",
  "@rafkit/syscall-state",
  "@rafkit/raf",
  "@rafkit/kv-example",
] as const;

/** A measured package's name. */
export type MeasuredPackage = (typeof MEASURED_PACKAGES)[number];

/**
 * Where each measured package's root is: `bench/` and `dist/` are found under it. By default this
 * repository's own packages; `perf-targets compare` gives a base build's (or an overlay's) instead.
 */
export type PackageRoots = Readonly<Record<MeasuredPackage, string>>;

/** A workspace package's directory, found through its `package.json` export. */
export function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** This repository's measured packages, resolved as this package's dependencies. */
export function currentRoots(): PackageRoots {
  return Object.fromEntries(MEASURED_PACKAGES.map((p) => [p, packageDir(p)])) as PackageRoots;
}

/** The package whose `bench/` holds a group's suite module (kv has none: see `kvCli`). */
export function suitePackage(group: TargetGroup): MeasuredPackage {
  switch (group) {
    case "bits":
      return "@rafkit/bits";
    case "syscall-state":
      return "@rafkit/syscall-state";
    case "raf":
    case "raf-async":
      return "@rafkit/raf";
    case "kv":
      return "@rafkit/kv-example";
  }
}

/**
 * The suite modules each target group runs. The suites live next to the code they measure
 * (`packages/<name>/bench/`), so each resolves its own package and its own dev dependencies; `roots` says
 * where those packages are (default: this repository's).
 */
export function suiteModules(group: TargetGroup, roots: PackageRoots = currentRoots()): string[] {
  const bench = (file: string) => join(roots[suitePackage(group)], "bench", file);
  switch (group) {
    case "bits":
      return [bench("bits.bench.mjs")];
    case "syscall-state":
      return [bench("syscall-state.bench.mjs")];
    case "raf":
      return [bench("raf.bench.mjs")];
    case "raf-async":
      return [bench("raf-async.bench.mjs")];
    case "kv":
      return []; // not a suite module: `rafkv bench` (see `kvCli`)
  }
}

/** `rafkv`'s command-line entry, whose `bench` command measures rafkv against lmdb and classic-level. */
export function kvCli(roots: PackageRoots = currentRoots()): string {
  return join(roots["@rafkit/kv-example"], "dist", "cli.js");
}

/** The harness's command-line entry (`rafkit-bench`). */
export function benchCli(): string {
  return join(packageDir("@rafkit/bench"), "dist", "cli.js");
}
