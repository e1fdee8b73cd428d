import { packageBuildConfig } from "../../tsup.shared.ts";

// shims: koffi is loaded lazily through createRequire(import.meta.url), which the CJS build must shim.
export default packageBuildConfig(["src/index.ts", "src/testing.ts"], { shims: true });
