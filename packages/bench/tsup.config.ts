import { packageBuildConfig } from "../../tsup.shared.ts";

// The CLI, the fork entry and the built-in suites are run by path (`node dist/cli.js`, forked children,
// `import(dist/suites/x.js)`), so each is its own entry. `shims` gives the CJS build `import.meta.url`,
// which locates the fork entry and the suites.
export default packageBuildConfig(
  ["src/index.ts", "src/cli.ts", "src/fork-child.ts", "src/suites/harness.ts"],
  { shims: true },
  { nodeTypes: true },
);
