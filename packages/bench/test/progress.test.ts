import { describe, expect, it } from "vitest";
import { progressListener } from "../src/progress";
import { runBenchmarks } from "../src/run";
import { defineSuite } from "../src/suite";

/** Just enough of a TTY write stream for the progress bar, recording what is drawn. */
function fakeTty() {
  const chunks: string[] = [];
  const stream = {
    isTTY: true,
    columns: 200,
    chunks,
    write: (s: string) => {
      chunks.push(s);
      return true;
    },
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    clearScreenDown: () => true,
    on: () => stream,
    removeListener: () => stream,
  };
  return stream;
}

describe("progress", () => {
  const suite = defineSuite({
    name: "Progress",
    params: { n: [1, 2] },
    benchmarks: {
      ok: () => 1,
      bad() {
        throw new Error("nope");
      },
    },
  });
  const options = {
    overrides: {
      forks: 0,
      warmup: { iterations: 1, time: 30 },
      measurement: { iterations: 2, time: 30 },
    },
  };

  it("draws benchmark, fork, iteration and ETA on a terminal, and reports failures", async () => {
    const tty = fakeTty();
    await runBenchmarks([suite], options, progressListener(tty as never));
    const drawn = tty.chunks.join("");
    // The bar redraws at most 10 times a second, so only the last frame is certain.
    expect(drawn).toContain("100% | Progress.bad (n=2) [4/4]");
    expect(drawn).toContain("fork in-process");
    expect(drawn).toMatch(/measurement 2\/2/);
    expect(drawn).toMatch(/ETA \d+s/);
    expect(drawn).toContain("✗ Progress.bad (n=1): nope");
    expect(drawn).toContain("✗ Progress.bad (n=2): nope");
  });

  it("stays quiet when the stream is not a terminal", () => {
    expect(progressListener({ isTTY: false } as never)).toEqual({});
  });
});
