import { mergeConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.shared.ts";

// cli.ts runs only as a child process (test/targets.test.ts), where v8 coverage of this process cannot see it.
export default mergeConfig(packageTestConfig({ lines: 90, testTimeout: 120_000 }), {
  test: { coverage: { exclude: ["src/cli.ts"] } },
});
