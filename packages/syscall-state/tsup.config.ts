import { packageBuildConfig } from "../../tsup.shared.ts";

// koffi is loaded lazily through createRequire(import.meta.url), which the shared config gives the CJS build.
export default packageBuildConfig(["src/index.ts", "src/testing.ts"]);
