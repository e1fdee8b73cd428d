import type { ChildProcess } from "node:child_process";
import { BenchError } from "./errors";
import { DEFAULT_OPTIONS, MAX_TIMEOUT } from "./options";
import type { IterationRecord } from "./runner";
import type { BenchOptions } from "./suite";

/** Watches a trial's iterations; told of each one that finishes, stopped when the trial ends. */
export interface Watchdog {
  /** An iteration finished: the trial has until its next one's planned length plus the timeout. */
  progress(record: Pick<IterationRecord, "phase" | "index">): void;
  /** The trial ended (either way): never fires after this. */
  stop(): void;
}

/**
 * JMH's iteration timeout (`-to`): calls `expire` with a `ERR_BENCH_TIMEOUT` error when no iteration finishes within
 * `options.timeout` past the longest planned iteration. The first wait also covers the trial's start (a fork's
 * start-up, `state`, the trial setup), the last one its teardown. The timer does not keep the process alive.
 */
export function watchIterations(
  options: BenchOptions,
  expire: (error: BenchError) => void,
  killed = "",
): Watchdog {
  const timeout = options.timeout ?? DEFAULT_OPTIONS.timeout!;
  const planned = options.mode === "ss" ? 0 : plannedTime(options);
  const window = timeout + planned;
  let last = "before its first iteration finished";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = undefined;
        const within = planned > 0 ? `${ms(timeout)} past a ${ms(planned)} iteration` : ms(timeout);
        expire(
          new BenchError(
            "ERR_BENCH_TIMEOUT",
            `timed out: nothing finished within ${within} (the timeout, -to), ${last}${killed}`,
          ),
        );
      },
      // A timeout of 24 days plus an iteration would pass setTimeout's limit, past which Node fires at once.
      Math.min(window, MAX_TIMEOUT),
    );
    timer.unref?.();
  };
  arm();
  return {
    progress({ phase, index }) {
      const done = index + 1;
      const of = options[phase].iterations;
      last =
        phase === "measurement" && done === of
          ? `after its last iteration (in its teardown)`
          : `after ${phase} iteration ${done} of ${of}`;
      arm();
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * The longest planned iteration in ms, of the phases that run; 0 for iterations by invocation count, whose length
 * nothing plans.
 */
function plannedTime(options: BenchOptions): number {
  return Math.max(
    ...[options.warmup, options.measurement].map((s) =>
      s.iterations > 0 && s.invocations === undefined ? (s.time ?? 0) : 0,
    ),
  );
}

/** A length in ms for a message: `250 ms`, `1.5 s`, `10 min`. */
function ms(value: number): string {
  if (value >= 60_000 && value % 60_000 === 0) return `${value / 60_000} min`;
  if (value >= 1000) return `${+(value / 1000).toFixed(3)} s`;
  return `${+value.toFixed(3)} ms`;
}

/**
 * Ends a timed-out child: killed, and our ends of its pipes closed, since a process it started with them (a JVM
 * under `sh -c`, a helper of a suite's state) would keep them open, and its `close` from coming. That process
 * itself is not ours to kill: a wrapper script should `exec` its program. (An IPC channel is left to the kill:
 * disconnected by hand, `close` never came.)
 */
export function endChild(child: ChildProcess): void {
  child.kill("SIGKILL");
  child.stdout?.destroy();
  child.stderr?.destroy();
}
