import { spawnSync } from "node:child_process";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BenchError } from "./errors";
import { type AnySuite, isSuite } from "./suite";

/** A suite and the module it came from; forks re-import the module to find it again. */
export interface LoadedSuite {
  /** The suite. */
  suite: AnySuite;
  /** URL of the module that exports it; required to fork. */
  module?: string;
}

/** A module specifier as a URL: file paths are resolved against the working directory. */
export function moduleUrl(specifier: string): string {
  if (/^(file|data|node):/.test(specifier)) return specifier;
  return pathToFileURL(isAbsolute(specifier) ? specifier : resolve(specifier)).href;
}

/**
 * Imports a module and returns every suite it exports (default or named, alone or in arrays), those of
 * the default export first and in its order.
 */
export async function loadSuiteModule(specifier: string): Promise<LoadedSuite[]> {
  const url = moduleUrl(specifier);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (cause) {
    throw new BenchError(
      "ERR_BENCH_BAD_SUITE",
      `cannot load suite module ${specifier}: ${(cause as Error)?.message ?? cause}${syntaxErrorAt(url, cause)}`,
      { cause },
    );
  }
  const found = new Set<AnySuite>();
  // The default export first: a module namespace sorts its keys, so a default array is the only way for
  // a module to choose the order of its suites.
  const { default: first, ...named } = mod;
  for (const value of [first, ...Object.values(named)]) {
    for (const item of Array.isArray(value) ? value : [value]) if (isSuite(item)) found.add(item);
  }
  if (found.size === 0) {
    throw new BenchError(
      "ERR_BENCH_BAD_SUITE",
      `module ${specifier} exports no suite made by defineSuite()`,
    );
  }
  return [...found].map((suite) => ({ suite, module: url }));
}

/**
 * Where a syntax error in the suite file is: on Node, `import()`'s `SyntaxError` names no line, so `node --check`
 * is asked (it prints the file and line, the line, and a caret). Empty elsewhere, or when the error is in a module
 * the suite imports. @internal
 */
export function syntaxErrorAt(url: string, cause: unknown): string {
  const versions = process.versions as Record<string, string | undefined>;
  if (!(cause instanceof SyntaxError) || !url.startsWith("file:") || versions.bun || versions.deno)
    return "";
  const check = spawnSync(process.execPath, ["--check", fileURLToPath(url)], {
    encoding: "utf8",
    timeout: 10_000,
  });
  if (check.status === 0 || typeof check.stderr !== "string") return "";
  const where = check.stderr.split("\n").slice(0, 3);
  return /:\d+$/.test(where[0] ?? "") ? `\n${where.join("\n")}` : "";
}
