import { packageTestConfig } from "../../vitest.shared.ts";

// 97.7% reached: the garbage-collection and worker-exit closes (leak-guard.ts) are tested in child
// processes and workers, which the coverage of the test process does not see.
export default packageTestConfig({ lines: 97 });
