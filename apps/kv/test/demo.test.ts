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
  it("runs every step on a small store and reports", async () => {
    const out = capture();
    await runDemo({
      records: 3000,
      benchRecords: 300,
      out: out.stream,
      err: new PassThrough() as unknown as NodeJS.WriteStream,
    });
    const text = out.text();
    expect(text).toMatch(/loaded 3,000 records/);
    expect(text).toMatch(/all 3,000 values read back intact/);
    expect(text).toMatch(/deleted 1,000; compaction copied 2,000 live records .* verify ok/);
    expect(text).toMatch(/rafkv \/ classic-level: load/);
    expect(text).toMatch(/all steps passed/);
  });
});

describe("progress bar", () => {
  it("draws on a terminal and stays silent otherwise", () => {
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
    expect(tty.text()).toMatch(/load .*10\/10 records end/);
    const pipe = capture();
    const quiet = progressBar("load", "records", pipe.stream as unknown as NodeJS.WriteStream);
    quiet.update(5, 10);
    quiet.stop();
    expect(pipe.text()).toBe("");
  });
});
