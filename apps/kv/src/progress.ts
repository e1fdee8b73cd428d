import cliProgress from "cli-progress";

/**
 * Progress of a long operation on stderr: a bar redrawn in place on a terminal, plain lines elsewhere (pipes, CI
 * logs, `pnpm demo` under turbo), so that progress stays visible without cursor codes or thousands of lines.
 */
export interface Progress {
  update(done: number, total: number, label?: string): void;
  /** Draws the final state (a plain line when not on a terminal) and ends the bar; calling it again does nothing. */
  stop(): void;
}

/** Tuning of the plain-line mode; injectable so that tests need no real clock. */
export interface PlainProgressOptions {
  /** Milliseconds; default `performance.now()`. */
  readonly now?: () => number;
  /** The least time between two lines (the first and the last line excepted). Default 1000 ms. */
  readonly minIntervalMs?: number;
}

/** A line at most every {@link PlainProgressOptions.minIntervalMs}, and then only after another tenth of the total. */
const STEP = 0.1;

/** A bar titled `title`, counting `unit`s (`"records"`, `"bytes"`, `"ops"`). */
export function progressBar(
  title: string,
  unit: string,
  stream: NodeJS.WriteStream = process.stderr,
  plain: PlainProgressOptions = {},
): Progress {
  return stream.isTTY ? ttyBar(title, unit, stream) : plainLines(title, unit, stream, plain);
}

function ttyBar(title: string, unit: string, stream: NodeJS.WriteStream): Progress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${title} |{bar}| {percentage}% {value}/{total} ${unit} {label}`,
      hideCursor: true,
      clearOnComplete: false,
      barsize: 30,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, label = "") {
      if (!started) {
        bar.start(total, done, { label });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done, { label });
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

/**
 * Plain progress lines: the first update, then one each time another tenth is done (but at most one per
 * interval), and the final state on stop. At most a dozen lines per bar, however many updates.
 */
function plainLines(
  title: string,
  unit: string,
  stream: NodeJS.WriteStream,
  options: PlainProgressOptions,
): Progress {
  const now = options.now ?? (() => performance.now());
  const interval = options.minIntervalMs ?? 1000;
  let state: { done: number; total: number; label: string } | null = null;
  let printed: { done: number; total: number; label: string; at: number } | null = null;
  let stopped = false;
  const print = (done: number, total: number, label: string) => {
    const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
    const text = `${title} ${pct}% ${count(done)}/${count(total)} ${unit}${label ? ` ${label}` : ""}`;
    try {
      stream.write(`${text}\n`);
    } catch {
      // A progress line is not worth failing the operation for (a closed stderr, say).
    }
    printed = { done, total, label, at: now() };
  };
  return {
    update(done, total, label = "") {
      if (stopped) return;
      state = { done, total, label };
      if (printed === null) return print(done, total, label);
      const step = Math.floor(done / Math.max(total, 1) / STEP);
      const last = Math.floor(printed.done / Math.max(printed.total, 1) / STEP);
      if (step > last && now() - printed.at >= interval) print(done, total, label);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      const s = state;
      const p = printed as { done: number; total: number; label: string } | null;
      if (s && (!p || p.done !== s.done || p.total !== s.total || p.label !== s.label))
        print(s.done, s.total, s.label);
    },
  };
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}
