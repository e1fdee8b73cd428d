import { packageTestConfig } from "../../vitest.shared.ts";

// 97.5% reached: the garbage-collection and worker-exit closes (leak-guard.ts) are tested in child
// processes and workers, which the coverage of the test process does not see. One run in six measured
// 96.8% with every test passing (paths taken only when a timer or the collector comes first), so the
// threshold leaves that margin rather than fail CI on scheduling.
// Web Locks exist only in browsers (and Node 24+): the Chromium run tests those files.
export default packageTestConfig({
  lines: 96,
  browserOnly: ["src/browser/web-locks.ts", "src/browser/held-web-locks.ts"],
});
