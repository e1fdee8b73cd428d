#!/usr/bin/env node
// Runs only the demo's Playwright cases (the full run is run-browser-tests.mjs).
import { rmSync } from "node:fs";
import { launchChromium } from "./chromium.mjs";
import { demoCases } from "./demo-cases.mjs";

const { context, profile } = await launchChromium();
const results = await demoCases(context);
await context.close();
rmSync(profile, { recursive: true, force: true });
for (const [name, ok, detail] of results)
  console.log(`${ok ? "  ok  " : "  FAIL"} ${name}${ok ? "" : `\n        ${detail}`}`);
const failed = results.filter((r) => !r[1]).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
