import { fork as forkProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BenchError } from "./errors";
import type { IterationRecord, TrialResult } from "./runner";
import type { BenchOptions, ParamValues } from "./suite";
import { endChild, watchIterations } from "./watchdog";

/** What the parent sends a fork: where to find the suite, and what to run. */
export interface ForkRequest {
  /** URL of the suite's module. */
  module: string;
  /** Suite name. */
  suite: string;
  /** Benchmark name. */
  benchmark: string;
  /** Parameter values. */
  params: ParamValues;
  /** Resolved options. */
  options: BenchOptions;
}

/** What a fork sends back. */
export type ForkMessage =
  | { type: "iteration"; record: IterationRecord }
  | { type: "result"; result: TrialResult }
  | { type: "error"; message: string; stack: string };

/**
 * Path of the built fork entry. From `dist/` it sits beside this file; when this file runs from `src/`
 * (the package's own tests) it falls back to the built one in `../dist/`.
 */
export function forkEntryPath(): string {
  const beside = fileURLToPath(new URL("./fork-child.js", import.meta.url));
  if (existsSync(beside)) return beside;
  const built = fileURLToPath(new URL("../dist/fork-child.js", import.meta.url));
  if (existsSync(built)) return built;
  throw new BenchError(
    "ERR_BENCH_FORK",
    `fork entry not found at ${beside}; build the package first`,
  );
}

/**
 * Runs one trial in a fresh `node` child process (JMH's fork), so the JIT profile of one benchmark cannot
 * shape another's. The child's stdout and stderr are forwarded to this process's stderr, keeping stdout for
 * the report. A child with no iteration finished within the timeout is killed (`ERR_BENCH_TIMEOUT`).
 */
export function runFork(
  request: ForkRequest,
  onIteration?: (record: IterationRecord) => void,
): Promise<TrialResult> {
  const execArgv = [...(request.options.gc ? ["--expose-gc"] : []), ...request.options.nodeArgs];
  const child = forkProcess(forkEntryPath(), [], {
    execArgv,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
  });
  child.stdout?.pipe(process.stderr, { end: false });
  child.stderr?.pipe(process.stderr, { end: false });
  return new Promise((resolve, reject) => {
    let result: TrialResult | undefined;
    let failure: Error | undefined;
    let timedOut: Error | undefined;
    const watchdog = watchIterations(
      request.options,
      (error) => {
        // A fork whose result (or error) came is stuck on its way out (an exit handler): what it said stands.
        if (result === undefined && failure === undefined) timedOut = error;
        endChild(child);
      },
      `; the fork (pid ${child.pid}) was killed`,
    );
    child.on("message", (message: ForkMessage) => {
      if (message.type === "iteration") {
        watchdog.progress(message.record);
        onIteration?.(message.record);
      } else if (message.type === "result") result = message.result;
      else {
        failure = new BenchError("ERR_BENCH_FAILED", message.message);
        if (message.stack) failure.stack = message.stack;
      }
    });
    child.on("error", (error) => {
      watchdog.stop();
      reject(
        new BenchError("ERR_BENCH_FORK", `cannot start fork: ${error.message}`, { cause: error }),
      );
    });
    child.on("close", (code, signal) => {
      watchdog.stop();
      if (result) resolve(result);
      else if (failure) reject(failure);
      else if (timedOut) reject(timedOut);
      else {
        reject(
          new BenchError(
            "ERR_BENCH_FORK",
            `fork (pid ${child.pid}) exited with ${signal ? `signal ${signal}` : `code ${code}`} before reporting a result`,
          ),
        );
      }
    });
    child.send(request);
  });
}
