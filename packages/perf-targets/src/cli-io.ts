import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type BenchmarkResult, parseJmhJson } from "@rafkit/bench";

/** Prints `command: message` to stderr and exits with status 1. */
export function fail(command: string, message: string): never {
  process.stderr.write(`${command}: ${message}\n`);
  process.exit(1);
}

/** Writes `text` to `file` (making its directory) and says so on stderr. */
export function writeReport(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  process.stderr.write(`wrote ${file}\n`);
}

/** The results of a saved JMH JSON file; `command` fails with the file's name when it does not parse. */
export function readResults(command: string, file: string): BenchmarkResult[] {
  try {
    return parseJmhJson(readFileSync(file, "utf8"));
  } catch (error) {
    return fail(command, `${file}: ${(error as Error).message}`);
  }
}
