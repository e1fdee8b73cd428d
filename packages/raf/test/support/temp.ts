import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** A fresh temp directory for this test file, removed after it. */
export function tempDir(): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), "rafkit-raf-"));
  // On Windows a deleted file keeps its name until its last handle closes: a test that leaves one open
  // on purpose leaves its directory behind there.
  afterAll(() => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if (process.platform !== "win32") throw error;
    }
  });
  let n = 0;
  return (name: string) => join(dir, `${n++}-${name}`);
}

/** How many descriptors this process has open (Linux: entries of /proc/self/fd). */
export function openFdCount(): number {
  return readdirSync("/proc/self/fd").length;
}

/** Both backends by name, for `describe.each`. */
export const BACKENDS = ["node", "native"] as const;
