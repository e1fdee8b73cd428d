import { mergeConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.shared.ts";

// cli.ts, compare-cli.ts and seeds.ts run only as child processes (test/targets.test.ts,
// test/before-after.test.ts, test/seeds.test.ts), where v8 coverage of this process cannot see it.
export default mergeConfig(packageTestConfig({ lines: 90, testTimeout: 120_000 }), {
  test: { coverage: { exclude: ["src/cli.ts", "src/compare-cli.ts", "src/seeds.ts"] } },
});
