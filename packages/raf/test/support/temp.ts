import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** A fresh temp directory for this test file, removed after it. */
export function tempDir(): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), "rafkit-raf-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return (name: string) => join(dir, `${n++}-${name}`);
}

/** How many descriptors this process has open (Linux: entries of /proc/self/fd). */
export function openFdCount(): number {
  return readdirSync("/proc/self/fd").length;
}

/** Both backends by name, for `describe.each`. */
export const BACKENDS = ["node", "native"] as const;
