import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExternalCommand } from "./suite";

const javaChecked = new Map<string, string | undefined>();

/** The `java` launcher to use: `$RAFKIT_BENCH_JAVA`, else `java` on PATH. */
export function javaExecutable(): string {
  return process.env.RAFKIT_BENCH_JAVA || "java";
}

/**
 * Why Java benchmarks cannot run here (`"java not found on PATH"`), or `undefined` when `java -version`
 * works and is 17 or later (the harness uses records and switch expressions). Checked once per executable.
 */
export function javaUnavailable(): string | undefined {
  const java = javaExecutable();
  if (javaChecked.has(java)) return javaChecked.get(java);
  const probe = spawnSync(java, ["-version"], { encoding: "utf8" });
  let reason: string | undefined;
  if (probe.error || probe.status !== 0) {
    reason = `${java} not found or not runnable (${probe.error?.message ?? `exit ${probe.status}`}); install a JDK 17+ or set RAFKIT_BENCH_JAVA`;
  } else {
    const version = /version "(\d+)/.exec(probe.stderr)?.[1];
    if (version !== undefined && Number(version) < 17) {
      reason = `${java} is version ${version}; the Java harness needs 17 or later`;
    }
  }
  javaChecked.set(java, reason);
  return reason;
}

const compiled = new Map<string, string | undefined>();

/**
 * Compiles a single-file Java program once per content (into a cache directory under the OS temp dir, so
 * forks skip the source launcher's compile step) and returns the class directory; `undefined` when
 * `javac` is unavailable, in which case the source launcher runs the file directly.
 */
function compiledClasses(source: string): string | undefined {
  if (compiled.has(source)) return compiled.get(source);
  const hash = createHash("sha256").update(readFileSync(source)).digest("hex").slice(0, 16);
  const dir = join(tmpdir(), `rafkit-bench-java-${hash}`);
  const main = basename(source).replace(/\.java$/, ".class");
  let result: string | undefined = dir;
  if (!existsSync(join(dir, main))) {
    mkdirSync(tmpdir(), { recursive: true });
    // Compile into a private directory, then rename: concurrent runs never see half a class directory.
    const work = mkdtempSync(`${dir}-tmp-`);
    const javac = process.env.RAFKIT_BENCH_JAVA
      ? process.env.RAFKIT_BENCH_JAVA.replace(/java(\.exe)?$/, "javac$1")
      : "javac";
    const run = spawnSync(javac, ["-d", work, source], { encoding: "utf8" });
    if (run.error || run.status !== 0) {
      rmSync(work, { recursive: true, force: true });
      result = undefined;
    } else {
      try {
        renameSync(work, dir);
      } catch {
        rmSync(work, { recursive: true, force: true }); // another run won the race
      }
    }
  }
  compiled.set(source, result);
  return result;
}

/**
 * The command that runs the Java program in `source` (a single `.java` file whose class is named after
 * it) with `args`: from classes compiled once when `javac` is there, else with the source launcher.
 */
export function javaCommand(source: string | URL, args: readonly string[]): ExternalCommand {
  const file = typeof source === "string" ? source : fileURLToPath(source);
  const classes = compiledClasses(file);
  const java = javaExecutable();
  const heap = ["-Xms64m", "-Xmx256m"];
  return classes !== undefined
    ? { command: java, args: [...heap, "-cp", classes, basename(file, ".java"), ...args] }
    : { command: java, args: [...heap, file, ...args] };
}
