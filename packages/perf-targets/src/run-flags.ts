import { BenchError, parseCount, parseIterationLength } from "@rafkit/bench";

/** The flags that shape a harness run, as the command line gives them. */
export interface RunFlagText {
  forks?: string | undefined;
  warmupIterations?: string | undefined;
  iterations?: string | undefined;
  warmupTime?: string | undefined;
  measurementTime?: string | undefined;
}

/** The counts among them, checked; the iteration lengths are checked too and stay text, as the harness takes it. */
export interface RunFlagCounts {
  forks?: number;
  warmupIterations?: number;
  iterations?: number;
}

/**
 * Checks the run flags with the harness's own parsers before anything runs: a bad one then ends the command with
 * one line, where each harness run refused it in turn and every target came out n/a.
 */
export function checkRunFlags(flags: RunFlagText, fail: (message: string) => never): RunFlagCounts {
  try {
    const counts: RunFlagCounts = {};
    if (flags.forks !== undefined) counts.forks = parseCount(flags.forks, "forks");
    if (flags.warmupIterations !== undefined)
      counts.warmupIterations = parseCount(flags.warmupIterations, "warmup iterations");
    if (flags.iterations !== undefined)
      counts.iterations = parseCount(flags.iterations, "iterations", 1);
    if (flags.warmupTime !== undefined) parseIterationLength(flags.warmupTime);
    if (flags.measurementTime !== undefined) parseIterationLength(flags.measurementTime);
    return counts;
  } catch (error) {
    if (error instanceof BenchError) fail(error.message);
    throw error;
  }
}
