// `import.meta.url` in the CJS builds (injected by tsup.shared.ts). tsup's own shim writes `file:${__filename}`
// unencoded, so a path holding `#`, `?` or `%` became another URL: koffi was not found, the native backend lost.
import { pathToFileURL } from "node:url";

// A pure call, not a constant: esbuild then drops it from the files that do not use it.
const currentFileUrl = () => pathToFileURL(__filename).href;

export const rafkitImportMetaUrl = /* @__PURE__ */ currentFileUrl();
