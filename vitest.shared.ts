import { defineConfig } from "vitest/config";

/**
 * Shared vitest settings: every package reports coverage; each sets its own threshold. Sources this platform
 * cannot run are left out of its coverage, and covered where they run: `coverageExclude` (e.g. the win32
 * backend, run under Wine) and `browserOnly` (OPFS, Web Locks: the Chromium run, `pnpm test:browser`).
 */
export function packageTestConfig(options: {
  lines: number;
  testTimeout?: number;
  coverageExclude?: string[];
  browserOnly?: string[];
}) {
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: 60_000,
      coverage: {
        provider: "v8",
        include: ["src/**/*.ts"],
        exclude: [...(options.coverageExclude ?? []), ...(options.browserOnly ?? [])],
        reporter: ["text-summary", "json-summary"],
        thresholds: { lines: options.lines },
      },
    },
  });
}
