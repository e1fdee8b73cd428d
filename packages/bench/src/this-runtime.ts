import type { RuntimeInfo } from "./runner";

/**
 * This process's runtime in JMH's terms: Node's `process.version` on V8, Bun's version on JavaScriptCore (its
 * WebKit revision), Deno's on V8. Bun and Deno answer `process.version` and `versions.v8` with a Node's they
 * imitate (Bun with a V8 it does not run), which made a Bun run's results read as Node's.
 */
export function thisRuntime(): RuntimeInfo {
  const versions = process.versions as Record<string, string | undefined>;
  const jvm = process.execPath;
  if (versions.bun !== undefined) {
    return {
      jvm,
      jdkVersion: `Bun ${versions.bun}`,
      vmName: "JavaScriptCore",
      vmVersion: versions.webkit ?? "unknown",
    };
  }
  if (versions.deno !== undefined) {
    return {
      jvm,
      jdkVersion: `Deno ${versions.deno}`,
      vmName: "V8",
      vmVersion: versions.v8 ?? "unknown",
    };
  }
  return { jvm, jdkVersion: process.version, vmName: "V8", vmVersion: process.versions.v8 };
}
