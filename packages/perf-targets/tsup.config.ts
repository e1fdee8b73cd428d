import { packageBuildConfig } from "../../tsup.shared.ts";

// A command-line tool, run by path: ESM only, no type declarations.
export default packageBuildConfig(["src/cli.ts", "src/seeds.ts"], {
  format: ["esm"],
  dts: false,
});
