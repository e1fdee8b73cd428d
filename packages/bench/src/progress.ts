import cliProgress from "cli-progress";
import pc from "picocolors";
import type { PlannedBenchmark, RunListener } from "./run";

/** Seconds a fork costs beyond its iterations (process start, module load); refined as forks finish. */
const FORK_OVERHEAD_S = 0.15;

function plannedSeconds(p: PlannedBenchmark): { perFork: number; iterations: number } {
  const { warmup, measurement, mode, forks } = p.options;
  const iter = (spec: typeof warmup) =>
    mode === "ss" || spec.invocations !== undefined ? 0.001 : (spec.time ?? 0) / 1000;
  const perFork =
    FORK_OVERHEAD_S + warmup.iterations * iter(warmup) + measurement.iterations * iter(measurement);
  return { perFork, iterations: Math.max(forks, 1) * (warmup.iterations + measurement.iterations) };
}

function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/**
 * A one-line progress display on stderr (benchmark, fork, iteration, ETA), drawn only when stderr is a
 * terminal so logs and pipes stay clean. The ETA is the planned time of what remains, scaled by how the
 * run has tracked its plan so far.
 */
export function progressListener(stream: NodeJS.WriteStream = process.stderr): RunListener {
  if (!stream.isTTY) return {};
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${pc.cyan("{bar}")} {percentage}% | {name} | fork {fork} | {phase} {iteration} | ETA {eta_text}`,
      hideCursor: true,
      clearOnComplete: true,
      barsize: 20,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let plan: readonly PlannedBenchmark[] = [];
  let started = 0;
  let plannedDone = 0;
  let plannedTotal = 0;
  let iterationsDone = 0;
  // Per benchmark, so the count stays right when forks of several benchmarks take turns (`interleave`).
  const doneOf = new Map<PlannedBenchmark, number>();
  const eta = () => {
    const elapsed = (performance.now() - started) / 1000;
    // Trust the observed pace only once there is some history.
    const pace = plannedDone > 0 && elapsed > 0.5 ? elapsed / plannedDone : 1;
    return formatEta((plannedTotal - plannedDone) * pace);
  };
  const label = (p: PlannedBenchmark) => {
    const params = Object.entries(p.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(",");
    return params ? `${p.id} (${params})` : p.id;
  };
  return {
    onStart(p) {
      plan = p;
      started = performance.now();
      plannedTotal = plan.reduce(
        (sum, b) => sum + plannedSeconds(b).perFork * Math.max(b.options.forks, 1),
        0,
      );
      const total = plan.reduce((sum, b) => sum + plannedSeconds(b).iterations, 0);
      bar.start(total, 0, { name: "", fork: "", phase: "", iteration: "", eta_text: eta() });
    },
    onBenchmarkSkipped(p) {
      // Every params combination of it: count them as done.
      for (const b of plan) {
        if (b.id !== p.id || doneOf.has(b)) continue;
        const { perFork, iterations } = plannedSeconds(b);
        doneOf.set(b, iterations);
        iterationsDone += iterations;
        plannedDone += perFork * Math.max(b.options.forks, 1);
      }
      bar.update(iterationsDone);
    },
    onForkStart(p, fork) {
      plannedDone += FORK_OVERHEAD_S;
      bar.update({
        name: `${label(p)} [${plan.indexOf(p) + 1}/${plan.length}]`,
        fork: p.options.forks === 0 ? "in-process" : `${fork}/${p.options.forks}`,
        eta_text: eta(),
      });
    },
    onIteration(p, _fork, record) {
      const spec = p.options[record.phase];
      plannedDone +=
        p.options.mode === "ss" || spec.invocations !== undefined ? 0.001 : (spec.time ?? 0) / 1000;
      iterationsDone++;
      doneOf.set(p, (doneOf.get(p) ?? 0) + 1);
      bar.update(iterationsDone, {
        phase: record.phase,
        iteration: `${record.index + 1}/${spec.iterations}`,
        eta_text: eta(),
      });
    },
    onBenchmarkEnd(p, outcome) {
      if (outcome.error) {
        stream.write(`\n${pc.red(`✗ ${label(p)}: ${outcome.error.message}`)}\n`);
      }
      // Catch up on the iterations a failed benchmark skipped.
      iterationsDone += Math.max(0, plannedSeconds(p).iterations - (doneOf.get(p) ?? 0));
      doneOf.set(p, plannedSeconds(p).iterations);
      bar.update(iterationsDone);
    },
    onEnd() {
      bar.stop();
    },
  };
}
