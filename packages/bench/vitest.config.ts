import { mergeConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.shared.ts";

// cli.ts and fork-child.ts run only as child processes (test/cli.test.ts, test/fork.test.ts), where v8
// coverage of this process cannot see them; index.ts only re-exports.
export default mergeConfig(packageTestConfig({ lines: 97 }), {
  test: { coverage: { exclude: ["src/cli.ts", "src/fork-child.ts", "src/index.ts"] } },
});
