import { browserBuildConfig } from "../../tsup.browser.ts";

export default browserBuildConfig({ browser: "src/browser.ts" }, [
  "process.ts",
  "buffer-global.ts",
]);
