import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({
  lines: 94,
  browserOnly: [
    "src/opfs/core.ts",
    "src/opfs/worker-host.ts",
    "src/opfs/worker-primitives.ts",
    "src/opfs/primitives.ts",
  ],
});
