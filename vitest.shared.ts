import { defineConfig } from "vitest/config";

/** Shared vitest settings: every package reports coverage; each sets its own threshold. */
export function packageTestConfig(options: {
  lines: number;
  testTimeout?: number;
  /** Sources this platform cannot run (they are covered where they run, e.g. under Wine). */
  coverageExclude?: string[];
}) {
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: 60_000,
      coverage: {
        provider: "v8",
        include: ["src/**/*.ts"],
        exclude: options.coverageExclude ?? [],
        reporter: ["text-summary", "json-summary"],
        thresholds: { lines: options.lines },
      },
    },
  });
}
