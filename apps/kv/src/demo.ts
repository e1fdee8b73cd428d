#!/usr/bin/env node
import pc from "picocolors";
import { runDemo } from "./demo-run";

runDemo().catch((error: unknown) => {
  process.stderr.write(
    `${pc.red("demo failed:")} ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
});
