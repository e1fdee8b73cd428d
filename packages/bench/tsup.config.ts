import { packageBuildConfig } from "../../tsup.shared.ts";

// The CLI, the fork entry and the built-in suites are run by path (`node dist/cli.js`, forked children,
// `import(dist/suites/x.js)`), so each is its own entry. The CJS build's `import.meta.url` (from the shared
// config) locates the fork entry and the suites.
export default packageBuildConfig(
  ["src/index.ts", "src/cli.ts", "src/fork-child.ts", "src/suites/harness.ts"],
  {},
  { nodeTypes: true },
);
