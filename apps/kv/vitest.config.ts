import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({ lines: 93, testTimeout: 60_000 });
