#!/usr/bin/env node
import { runCli } from "./cli-main";

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`rafkv: ${String(error)}\n`);
    process.exitCode = 5;
  },
);
