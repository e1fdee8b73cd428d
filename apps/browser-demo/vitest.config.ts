import { defineConfig } from "vitest/config";

// Only the bundle checks run under vitest (Node); the Chromium tests are `test:browser`.
export default defineConfig({ test: { include: ["test/**/*.test.ts"], testTimeout: 60_000 } });
