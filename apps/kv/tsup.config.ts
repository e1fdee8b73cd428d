import { packageBuildConfig } from "../../tsup.shared.ts";

export default packageBuildConfig(
  ["src/index.ts", "src/bench.ts", "src/cli.ts", "src/demo.ts"],
  {},
  { nodeTypes: true },
);
