import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runDemo } from "../src/demo-run";
import { progressBar } from "../src/progress";

function capture() {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on("data", (d: Buffer) => chunks.push(d));
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

describe("demo", () => {
  it("runs every step on a small store and reports, with progress on a pipe", async () => {
    const out = capture();
    const err = capture();
    await runDemo({
      records: 3000,
      benchRecords: 300,
      out: out.stream,
      err: err.stream as unknown as NodeJS.WriteStream,
    });
    const text = out.text();
    expect(text).toMatch(/loaded 3,000 records/);
    expect(text).toMatch(/all 3,000 values read back intact/);
    expect(text).toMatch(/deleted 1,000; compaction copied 2,000 live records .* verify ok/);
    expect(text).toMatch(/rafkv \/ classic-level: load/);
    expect(text).toMatch(/all steps passed/);
    // stderr is not a terminal here, as under `pnpm demo` (turbo pipes it): plain lines, a few per step.
    const progress = err.text();
    expect(progress).not.toContain("\x1b");
    for (const [title, unit] of [
      ["load", "records"],
      ["verify", "records"],
      ["compact", "records"],
      ["bench", "ops"],
    ])
      expect(progress).toMatch(new RegExp(`^${title} 100% [\\d,]+/[\\d,]+ ${unit}`, "m"));
    expect(progress).toMatch(/^load 100% 3,000\/3,000 records$/m);
    expect(progress.split("\n").length).toBeLessThan(60);
  });
});

/** A clock that the test moves. */
function fakeClock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("progress bar", () => {
  it("draws on a terminal", () => {
    const tty = capture();
    Object.assign(tty.stream, {
      isTTY: true,
      columns: 100,
      cursorTo() {},
      clearLine() {},
      moveCursor() {},
    });
    const bar = progressBar("load", "records", tty.stream as unknown as NodeJS.WriteStream);
    bar.update(0, 10, "start");
    bar.update(10, 10, "end");
    bar.stop();
    bar.stop();
    expect(tty.text()).toMatch(/load .*10\/10 records end/);
  });

  it("prints a few plain lines elsewhere: the first, each further tenth at most once a second, the last", () => {
    const pipe = capture();
    const clock = fakeClock();
    const bar = progressBar("load", "records", pipe.stream as unknown as NodeJS.WriteStream, {
      now: clock.now,
    });
    bar.update(0, 100_000);
    // Every record, fast: 100 000 updates within 0.5 s print nothing more.
    for (let i = 1; i <= 50_000; i++) {
      bar.update(i, 100_000);
      if (i % 10_000 === 0) clock.advance(100);
    }
    expect(pipe.text()).toBe("load 0% 0/100,000 records\n");
    clock.advance(1000);
    bar.update(50_001, 100_000, "phase 2"); // a second passed and a tenth more done
    bar.update(50_002, 100_000); // but not again at once
    clock.advance(5000);
    bar.update(55_000, 100_000); // nor without another tenth
    clock.advance(5000);
    bar.update(61_000, 100_000);
    bar.stop();
    bar.stop();
    bar.update(70_000, 100_000);
    expect(pipe.text()).toBe(
      [
        "load 0% 0/100,000 records",
        "load 50% 50,001/100,000 records phase 2",
        "load 61% 61,000/100,000 records",
        "",
      ].join("\n"),
    );
  });

  it("ends with the final state, once", () => {
    const pipe = capture();
    const clock = fakeClock();
    const bar = progressBar("verify", "bytes", pipe.stream as unknown as NodeJS.WriteStream, {
      now: clock.now,
      minIntervalMs: 10,
    });
    for (let i = 0; i <= 1000; i++) {
      bar.update(i, 1000);
      clock.advance(1);
    }
    bar.stop();
    const lines = pipe.text().trimEnd().split("\n");
    expect(lines[0]).toBe("verify 0% 0/1,000 bytes");
    expect(lines.at(-1)).toBe("verify 100% 1,000/1,000 bytes");
    expect(lines.length).toBe(11); // 0%, then 10% .. 100%: one line per tenth
    const silent = capture();
    progressBar("x", "y", silent.stream as unknown as NodeJS.WriteStream).stop();
    expect(silent.text()).toBe("");
  });
});
