import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { TargetGroup } from "./targets";

const require = createRequire(import.meta.url);

/** A workspace package's directory, found through its `package.json` export. */
function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/**
 * The suite modules each target group runs. The suites live next to the code they measure
 * (`packages/<name>/bench/`), so each resolves its own package and its own dev dependencies.
 */
export function suiteModules(group: TargetGroup): string[] {
  switch (group) {
    case "bits":
      return [join(packageDir("@rafkit/bits"), "bench", "bits.bench.mjs")];
    case "syscall-state":
      return [join(packageDir("@rafkit/syscall-state"), "bench", "syscall-state.bench.mjs")];
    case "raf":
      return [join(packageDir("@rafkit/raf"), "bench", "raf.bench.mjs")];
    case "raf-async":
      return [join(packageDir("@rafkit/raf"), "bench", "raf-async.bench.mjs")];
    case "kv":
      return []; // not a suite module: `rafkv bench` (see `kvCli`)
  }
}

/** `rafkv`'s command-line entry, whose `bench` command measures rafkv against lmdb and classic-level. */
export function kvCli(): string {
  return join(packageDir("@rafkit/kv-example"), "dist", "cli.js");
}

/** The harness's command-line entry (`rafkit-bench`). */
export function benchCli(): string {
  return join(packageDir("@rafkit/bench"), "dist", "cli.js");
}
