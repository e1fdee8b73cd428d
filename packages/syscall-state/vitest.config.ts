import { packageTestConfig } from "../../vitest.shared.ts";

// The win32 backend runs under Wine (scripts/ci/windows.sh), not in this Linux coverage run.
export default packageTestConfig({
  lines: 94,
  coverageExclude:
    process.platform === "win32"
      ? []
      : [
          "src/win32/kernel32.ts",
          "src/win32/last-error.ts",
          "src/win32/node-on-windows.ts",
          "src/win32/sync-directory.ts",
          "src/win32/win32-path.ts",
          "src/win32/win32-primitives.ts",
        ],
  browserOnly: [
    "src/opfs/core.ts",
    "src/opfs/worker-host.ts",
    "src/opfs/worker-primitives.ts",
    "src/opfs/primitives.ts",
  ],
});
