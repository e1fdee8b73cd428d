import cliProgress from "cli-progress";

/** A progress bar on stderr; silent when stderr is not a terminal (pipes, CI logs). */
export interface Progress {
  update(done: number, total: number, label?: string): void;
  stop(): void;
}

/** A bar titled `title`, counting `unit`s (`"records"`, `"bytes"`, `"ops"`). */
export function progressBar(
  title: string,
  unit: string,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  if (!stream.isTTY) return { update() {}, stop() {} };
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
    },
  };
}
