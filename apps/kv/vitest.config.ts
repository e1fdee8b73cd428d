import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({ lines: 95, testTimeout: 60_000 });
