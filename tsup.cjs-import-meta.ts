// `import.meta.url` in the CJS builds (injected by tsup.shared.ts). tsup's own shim writes `file:${__filename}`
// unencoded, so a path holding `#`, `?` or `%` became another URL: koffi was not found, the native backend lost.

declare const require: (id: "node:url") => typeof import("node:url");

// A pure call, not a constant, and the require inside it: esbuild drops both from a build that does not use it
// (a top-level require of node:url stayed in bits' CJS build, which must bundle for browsers).
const currentFileUrl = () => require("node:url").pathToFileURL(__filename).href;

export const rafkitImportMetaUrl = /* @__PURE__ */ currentFileUrl();
