// The JDKs the suites compare with, found by version (`findJdks` reads each home's `release` file), never by
// path: JDK 17 is the reviews' "before" (RandomAccessFile byte by byte), JDK 25 the "after" (bulk primitive
// I/O since JDK 21; without a JDK 25, the newest 21+). Without any JDK 21+, JDK 17 runs the reviews' patch as an
// emulation instead.
import { findJdks, javaExecutable, javaUnavailable } from "@rafkit/bench";

let found;
const jdks = () => {
  found ??= findJdks();
  return found;
};

/** The JDK 17 launcher (from `findJdks`, else the `java` on PATH when it is 17), or undefined. */
export function jdk17() {
  const j = jdks().find((j) => j.major === 17);
  if (j) return j.java;
  return javaUnavailable(javaExecutable(), 17) === undefined &&
    javaUnavailable(javaExecutable(), 18) !== undefined
    ? javaExecutable()
    : undefined;
}

/**
 * The "after" JDK's launcher (impl `jdk25`): JDK 25, else the newest JDK 21+ (whose RandomAccessFile has the bulk
 * I/O too; the tables name it by the version its forks report), or undefined.
 */
export const jdk25 = () => afterJdk(jdks())?.java;

/** Of `list` (as `findJdks` gives it), the "after" JDK: 25, else the newest 21+, else undefined. */
export function afterJdk(list) {
  const bulk = list.filter((j) => j.major >= 21);
  return bulk.find((j) => j.major === 25) ?? [...bulk].sort((a, b) => b.major - a.major)[0];
}

/** True when some JDK 21+ is installed: the emulation of the bulk patch is then not needed. */
export const hasBulkJdk = () => jdks().some((j) => j.major >= 21);

/** Why an `impl` that names a JDK cannot run here, or undefined. */
export function jdkUnavailable(impl) {
  const list = () =>
    jdks()
      .map((j) => `${j.major} (${j.home})`)
      .join(", ") || "none";
  if (impl === "jdk17")
    return jdk17()
      ? undefined
      : `no JDK 17 found (JDKs here: ${list()}); install one or set JAVA_HOME`;
  if (impl === "jdk25")
    return jdk25()
      ? undefined
      : `no JDK 21+ found among the installed JDKs (${list()}): the "after" JDK skipped`;
  if (impl === "jdk17Emulated") {
    if (hasBulkJdk())
      return "a JDK 21+ is installed: its real RandomAccessFile replaces the emulation";
    return jdk17() ? undefined : "no JDK 17 for the emulation";
  }
  return undefined;
}
