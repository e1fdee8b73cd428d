// The conformance suite: the same files on every runtime (`node run.mjs`, `bun run.mjs`, `deno run -A run.mjs`),
// over the built packages as users import them. scripts/ci/runtimes.sh runs it on each supported runtime.
import { run } from "./harness.mjs";
import "./suites/bits.mjs";
import "./suites/syscall-state.mjs";
import "./suites/raf-sync.mjs";
import "./suites/raf-async.mjs";
import "./suites/raf-locks.mjs";
import "./suites/workers-kv.mjs";
import "./suites/syntax.mjs";
import "./suites/bench.mjs";

const failed = await run({
  id: process.env.RAFKIT_CONFORMANCE_RUNTIME ?? "local",
  out: process.env.RAFKIT_CONFORMANCE_OUT,
});
process.exitCode = failed === 0 ? 0 : 1;
