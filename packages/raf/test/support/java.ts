import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Whether a `java` launcher is on PATH (the JDK interop tests need it; they are skipped, loudly, without). */
export const hasJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
if (!hasJava)
  console.warn("@rafkit/raf: `java` not found on PATH: the JDK interop tests are SKIPPED");

/** Runs test/fixtures/<name>.java with `args` in source-launcher mode; returns stdout, throws on failure. */
export function runJava(name: string, args: readonly string[]): string {
  const file = fileURLToPath(new URL(`../fixtures/${name}.java`, import.meta.url));
  const r = spawnSync("java", [file, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0)
    throw new Error(`java ${name} ${args.join(" ")} failed (${r.status}): ${r.stdout}${r.stderr}`);
  return r.stdout;
}
