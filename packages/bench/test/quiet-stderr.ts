import { afterEach, beforeEach, vi } from "vitest";

/**
 * Keeps what the harness forwards to this process's stderr (an external program's chatter, its error
 * message) out of the test output, for every test of the calling file. Returns what was written, which a
 * test may check; it is emptied before each test.
 */
export function quietStderr(): string[] {
  const written: string[] = [];
  beforeEach(() => {
    written.length = 0;
    vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array) => {
      written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      return true;
    }) as typeof process.stderr.write);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return written;
}
