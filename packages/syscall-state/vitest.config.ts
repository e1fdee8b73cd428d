import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({ lines: 94 });
