import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { BenchError } from "./errors";
import { type IterationRecord, type RuntimeInfo, scoreOf, type TrialResult } from "./runner";
import type { BenchOptions, ExternalCommand, IterationSpec } from "./suite";
import { endChild, watchIterations } from "./watchdog";

/**
 * An iteration length as external harnesses take it: `200ms` for a time, `1000ops` for an invocation
 * count, `1ops` in single-shot mode (one call per iteration).
 */
export function iterationArg(spec: IterationSpec, mode: BenchOptions["mode"]): string {
  if (mode === "ss") return "1ops";
  if (spec.invocations !== undefined) return `${spec.invocations}ops`;
  return `${spec.time ?? 0}ms`;
}

interface IterationLine {
  warmup: boolean;
  ops: number;
  nanos: number;
}

function isIterationLine(value: unknown): value is IterationLine {
  const v = value as IterationLine;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.warmup === "boolean" &&
    Number.isFinite(v.ops) &&
    v.ops > 0 &&
    Number.isFinite(v.nanos) &&
    v.nanos >= 0
  );
}

function isRuntimeLine(value: unknown): value is { runtime: RuntimeInfo } {
  const r = (value as { runtime?: RuntimeInfo })?.runtime;
  return typeof r === "object" && r !== null && typeof r.jdkVersion === "string";
}

/** A line that means to be an iteration (it has one of its keys) but is not a valid one. */
function isMalformedIteration(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    ("warmup" in value || "ops" in value || "nanos" in value)
  );
}

/**
 * The program's own description, each field it leaves out "unknown", and its executable when it gives none: the
 * record named this Node process, which never ran the trial.
 */
function runtimeOf(given: Partial<RuntimeInfo> | undefined, command: ExternalCommand): RuntimeInfo {
  const field = (v: unknown) => (typeof v === "string" ? v : "unknown");
  return {
    jvm: typeof given?.jvm === "string" ? given.jvm : command.command,
    jdkVersion: field(given?.jdkVersion),
    vmName: field(given?.vmName),
    vmVersion: field(given?.vmVersion),
    jvmArgs: command.runtimeArgs ?? [],
  };
}

/** External forks running now, killed when this process is told to stop: a JVM would run its trial to the end. */
const running = new Set<ReturnType<typeof spawn>>();
const STOPS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
function onStop(signal: NodeJS.Signals): void {
  for (const child of running) child.kill("SIGTERM");
  for (const s of STOPS) process.off(s, onStop);
  // Then stop as the signal would have stopped this process (exit status 128 + its number).
  process.kill(process.pid, signal);
}
function track(child: ReturnType<typeof spawn>): void {
  if (running.size === 0) for (const s of STOPS) process.on(s, onStop);
  running.add(child);
  child.once("close", () => {
    running.delete(child);
    if (running.size === 0) for (const s of STOPS) process.off(s, onStop);
  });
}

function parseLine(line: string): unknown {
  if (!line.startsWith("{")) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * Runs one trial as a separate program (an external fork, e.g. `java RafBench ...`): reads its iteration
 * lines from stdout and scores them exactly as a Node fork's iterations are scored. Other output goes to
 * this process's stderr. Fails with `ERR_BENCH_FORK` when the program cannot start, with `ERR_BENCH_FAILED` when it
 * exits non-zero or reports other iteration counts than `options` asks for, and with `ERR_BENCH_TIMEOUT` (having
 * killed it) when no iteration finishes within the timeout.
 */
export function runExternalFork(
  command: ExternalCommand,
  options: BenchOptions,
  onIteration?: (record: IterationRecord) => void,
): Promise<TrialResult> {
  const child = spawn(command.command, [...command.args], {
    ...(command.cwd !== undefined ? { cwd: command.cwd } : {}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid !== undefined) track(child);
  const result: TrialResult = { pid: child.pid ?? -1, warmup: [], measurement: [] };
  let runtime: Partial<RuntimeInfo> | undefined;
  const stderrTail: string[] = [];
  child.stderr.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderrTail.push(chunk.toString());
    if (stderrTail.length > 20) stderrTail.shift();
  });
  let protocolError: string | undefined;
  let timedOut: BenchError | undefined;
  const lines = createInterface({ input: child.stdout });
  const watchdog = watchIterations(
    options,
    (error) => {
      timedOut = error;
      lines.close();
      endChild(child);
    },
    `; the external fork (pid ${child.pid}) was killed`,
  );
  lines.on("line", (line) => {
    const parsed = parseLine(line.trim());
    if (isRuntimeLine(parsed)) {
      runtime = parsed.runtime;
    } else if (isIterationLine(parsed)) {
      const phase = parsed.warmup ? "warmup" : "measurement";
      if (phase === "warmup" && result.measurement.length > 0) {
        protocolError ??= "a warmup iteration came after a measurement iteration";
      }
      // A score of 0 (or Infinity ops per time) would be averaged in as if measured.
      if (parsed.nanos === 0) {
        protocolError ??= `an iteration of ${parsed.ops} ops took 0 ns: too short for the clock; use longer iterations`;
      }
      const score = scoreOf(parsed.ops * options.operationsPerInvocation, parsed.nanos, options);
      const index = result[phase].length;
      result[phase].push(score);
      watchdog.progress({ phase, index });
      onIteration?.({ phase, index, invocations: parsed.ops, nanos: parsed.nanos, score });
    } else if (isMalformedIteration(parsed)) {
      protocolError ??= `a malformed iteration line (want {"warmup": boolean, "ops": number > 0, "nanos": number >= 0}): ${line.slice(0, 200)}`;
    } else if (line.length > 0) {
      process.stderr.write(`${line}\n`);
    }
  });
  const describe = `${command.command} ${command.args.join(" ")}`;
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      watchdog.stop();
      reject(
        new BenchError("ERR_BENCH_FORK", `cannot start ${describe}: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.on("close", (code, signal) => {
      watchdog.stop();
      if (timedOut) {
        reject(timedOut);
        return;
      }
      if (code !== 0) {
        const why = signal ? `signal ${signal}` : `code ${code}`;
        const tail = stderrTail.join("").trim().split("\n").slice(-5).join("\n");
        reject(
          new BenchError(
            "ERR_BENCH_FAILED",
            `external fork exited with ${why}: ${describe}${tail ? `\n${tail}` : ""}`,
          ),
        );
        return;
      }
      const want = {
        warmup: options.warmup.iterations,
        measurement: options.measurement.iterations,
      };
      if (
        protocolError === undefined &&
        (result.warmup.length !== want.warmup || result.measurement.length !== want.measurement)
      ) {
        protocolError = `reported ${result.warmup.length} warmup and ${result.measurement.length} measurement iterations, expected ${want.warmup} and ${want.measurement}`;
      }
      if (protocolError !== undefined) {
        reject(new BenchError("ERR_BENCH_FAILED", `external fork ${describe}: ${protocolError}`));
      } else {
        result.runtime = runtimeOf(runtime, command);
        resolve(result);
      }
    });
  });
}
