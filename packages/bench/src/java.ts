import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExternalCommand } from "./suite";

const javaChecked = new Map<string, string | undefined>();

/** The `java` launcher to use: `$RAFKIT_BENCH_JAVA`, else `java` on PATH. */
export function javaExecutable(): string {
  return process.env.RAFKIT_BENCH_JAVA || "java";
}

/** The feature release of a `java -version` banner (`openjdk version "25.0.3"` -> 25; `"1.8.0"` -> 8). */
function majorOf(version: string): number | undefined {
  const m = /^(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return undefined;
  return m[1] === "1" && m[2] !== undefined ? Number(m[2]) : Number(m[1]);
}

/**
 * Why Java benchmarks cannot run with `java` (default `javaExecutable()`), or `undefined` when
 * `java -version` works and is `minVersion` (default 17) or later. Checked once per executable and bound.
 */
export function javaUnavailable(java = javaExecutable(), minVersion = 17): string | undefined {
  const key = `${java}\0${minVersion}`;
  if (javaChecked.has(key)) return javaChecked.get(key);
  const probe = spawnSync(java, ["-version"], { encoding: "utf8" });
  let reason: string | undefined;
  if (probe.error || probe.status !== 0) {
    reason = `${java} not found or not runnable (${probe.error?.message ?? `exit ${probe.status}`}); install a JDK ${minVersion}+ or set RAFKIT_BENCH_JAVA`;
  } else {
    const text = /version "([^"]+)"/.exec(probe.stderr)?.[1];
    const major = text === undefined ? undefined : majorOf(text);
    if (major !== undefined && major < minVersion) {
      reason = `${java} is version ${major}; this benchmark needs ${minVersion} or later`;
    }
  }
  javaChecked.set(key, reason);
  return reason;
}

/** An installed JDK found by `findJdks`. */
export interface Jdk {
  /** Its home directory (holds `bin/java` and `release`). */
  home: string;
  /** Its `java` launcher. */
  java: string;
  /** `JAVA_VERSION` from its `release` file, e.g. `25.0.3`. */
  version: string;
  /** The feature release, e.g. 25. */
  major: number;
}

/** `JAVA_VERSION="25.0.3"` from a JDK home's `release` file, or undefined. */
function releaseVersion(home: string): string | undefined {
  try {
    return /^JAVA_VERSION="([^"]+)"/m.exec(readFileSync(join(home, "release"), "utf8"))?.[1];
  } catch {
    return undefined;
  }
}

/** Directories that hold one JDK home per entry, by platform convention. */
function jdkParents(): string[] {
  if (process.platform === "darwin") return ["/Library/Java/JavaVirtualMachines"];
  if (process.platform === "win32")
    return ["C:\\Program Files\\Java", "C:\\Program Files\\Eclipse Adoptium"];
  return ["/usr/lib/jvm", "/usr/java", "/opt/java"];
}

/**
 * The JDKs installed here, found by version rather than by path: `$JAVA_HOME` and every home under the platform's
 * JVM directories (`/usr/lib/jvm/*` on Linux), each with a `release` file and a `bin/java` (the `java` on PATH is
 * not asked: see {@link javaExecutable}). One entry per real home, newest feature release first.
 */
export function findJdks(): Jdk[] {
  const homes: string[] = [];
  if (process.env.JAVA_HOME) homes.push(process.env.JAVA_HOME);
  for (const parent of jdkParents()) {
    let names: string[] = [];
    try {
      names = readdirSync(parent).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const home = join(parent, name);
      homes.push(
        existsSync(join(home, "Contents", "Home")) ? join(home, "Contents", "Home") : home,
      );
    }
  }
  const found = new Map<string, Jdk>();
  for (const home of homes) {
    const java = join(home, "bin", process.platform === "win32" ? "java.exe" : "java");
    const version = releaseVersion(home);
    const major = version === undefined ? undefined : majorOf(version);
    if (major === undefined || version === undefined || !existsSync(java)) continue;
    // Symlinked aliases (java-17-openjdk and java-1.17.0-openjdk) count once: by the launcher's real path.
    const real = realpathSync(java);
    if (![...found.values()].some((j) => realpathSync(j.java) === real))
      found.set(home, { home, java, version, major });
  }
  return [...found.values()].sort((a, b) => b.major - a.major);
}

const compiled = new Map<string, string | undefined>();

/**
 * Compiles a single-file Java program once per content and JDK (into a cache directory under the OS temp
 * dir, so forks skip the source launcher's compile step) and returns the class directory; `undefined` when
 * `javac` is unavailable, in which case the source launcher runs the file directly.
 */
function compiledClasses(
  source: string,
  java: string,
  javacArgs: readonly string[],
): string | undefined {
  const key = `${source}\0${java}\0${javacArgs.join(" ")}`;
  if (compiled.has(key)) return compiled.get(key);
  const hash = createHash("sha256")
    .update(readFileSync(source))
    .update(`\0${java}\0${javacArgs.join(" ")}`)
    .digest("hex")
    .slice(0, 16);
  const dir = join(tmpdir(), `rafkit-bench-java-${hash}`);
  const main = basename(source).replace(/\.java$/, ".class");
  let result: string | undefined = dir;
  if (!existsSync(join(dir, main))) {
    mkdirSync(tmpdir(), { recursive: true });
    // Compile into a private directory, then rename: concurrent runs never see half a class directory.
    const work = mkdtempSync(`${dir}-tmp-`);
    const javac =
      java.includes("/") || java.includes("\\")
        ? join(dirname(java), basename(java).replace(/^java/, "javac"))
        : java.replace(/java(\.exe)?$/, "javac$1");
    const run = spawnSync(javac, [...javacArgs, "-d", work, source], { encoding: "utf8" });
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
  compiled.set(key, result);
  return result;
}

/** How `javaCommand` runs a program. */
export interface JavaCommandOptions {
  /** The `java` launcher (default `javaExecutable()`); its `javac` sits beside it. */
  java?: string;
  /** JVM options before the class, e.g. `--add-exports java.base/jdk.internal.foreign=ALL-UNNAMED`. */
  jvmArgs?: readonly string[];
  /** Options for `javac` (e.g. the same `--add-exports`). */
  javacArgs?: readonly string[];
}

/**
 * The command that runs the Java program in `source` (a single `.java` file whose class is named after
 * it) with `args`: from classes compiled once when `javac` is there, else with the source launcher.
 */
export function javaCommand(
  source: string | URL,
  args: readonly string[],
  options: JavaCommandOptions = {},
): ExternalCommand {
  const file = typeof source === "string" ? source : fileURLToPath(source);
  const java = options.java ?? javaExecutable();
  const classes = compiledClasses(file, java, options.javacArgs ?? []);
  const jvm = ["-Xms64m", "-Xmx256m", ...(options.jvmArgs ?? [])];
  return classes !== undefined
    ? {
        command: java,
        args: [...jvm, "-cp", classes, basename(file, ".java"), ...args],
        runtimeArgs: jvm,
      }
    : {
        command: java,
        args: [...jvm, ...(options.javacArgs ?? []), file, ...args],
        runtimeArgs: [...jvm, ...(options.javacArgs ?? [])],
      };
}
