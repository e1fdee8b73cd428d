import { defineConfig } from "vitest/config";

/**
 * Shared vitest settings: every package reports coverage; each sets its own threshold. `browserOnly`: source
 * files that only run in a browser (OPFS, Web Locks), left out of Node's coverage: the Chromium run
 * (`pnpm test:browser`) tests them.
 */
export function packageTestConfig(options: {
  lines: number;
  testTimeout?: number;
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
        exclude: options.browserOnly ?? [],
        reporter: ["text-summary", "json-summary"],
        thresholds: { lines: options.lines },
      },
    },
  });
}
