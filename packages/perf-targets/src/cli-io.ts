import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type BenchmarkResult, parseJmhJson } from "@rafkit/bench";

/** Prints `command: message` to stderr and exits with status 1. */
export function fail(command: string, message: string): never {
  process.stderr.write(`${command}: ${message}\n`);
  process.exit(1);
}

/**
 * Writes `text` to `file` (making its directory) and says so on stderr. A file that cannot be written is said on
 * stderr and fails the command (exit status 1), which goes on: a run's verdicts are not lost to a bad path.
 */
export function writeReport(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (error) {
    process.stderr.write(`perf-targets: cannot write ${file}: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
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
