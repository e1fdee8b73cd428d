import { packageBuildConfig } from "../../tsup.shared.ts";

export default packageBuildConfig(["src/index.ts"], {}, { nodeTypes: true });
