import { defineConfig } from "vitest/config";

/** Shared vitest settings: every package reports coverage; each sets its own threshold. */
export function packageTestConfig(options: { lines: number; testTimeout?: number }) {
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: 60_000,
      coverage: {
        provider: "v8",
        include: ["src/**/*.ts"],
        reporter: ["text-summary", "json-summary"],
        thresholds: { lines: options.lines },
      },
    },
  });
}
