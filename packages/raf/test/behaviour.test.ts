// RandomAccessFile's behaviour suites, one module per idea under behaviour/, all run from this one file: the
// Windows suite (scripts/ci/windows.sh) bundles and runs packages/raf/test/behaviour.test.ts by name, so every
// one of them runs there too. They are imported with `await import`, not a bare `import "./…"`: this package's
// "sideEffects": false lets the Windows bundler (esbuild) drop a bare import, and the suites with it.
await import("./behaviour/java-behaviour");
await import("./behaviour/modes");
await import("./behaviour/buffering");
await import("./behaviour/options");
