import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { errnoOf } from "../src/errno";

/** A fresh directory under os.tmpdir(), removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rafkit-ss-${prefix}-`));
  afterAll(() => removeTemp(dir));
  return dir;
}

/**
 * Removes a test's temp directory. On Windows a deleted file keeps its name until its last handle
 * closes, so a test that leaves a handle open on purpose leaves its directory behind there.
 */
export function removeTemp(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    if (process.platform !== "win32") throw error;
  }
}

/** `-errno` for a name, as backends return it. */
export const neg = (name: string): number => -errnoOf(name);

/** Linux's view of an fd's open flags (octal in /proc/self/fdinfo), or undefined elsewhere. */
export function fdFlags(fd: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  const text = readFileSync(`/proc/self/fdinfo/${fd}`, "utf8");
  const match = /^flags:\s+([0-7]+)$/m.exec(text);
  return match === null ? undefined : Number.parseInt(match[1]!, 8);
}

/** The built package, for workers and child processes (the turbo test task builds first). */
export const distIndex = new URL("../dist/index.js", import.meta.url);
