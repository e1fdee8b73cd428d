import { readFileSync } from "node:fs";
import { BigEndian } from "@rafkit/bits";
import { type Backend, getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { RandomAccessFile } from "../src/index";
import { EOF, IO, type Step, Window } from "../src/window";
import { tempDir } from "./support/temp";

const tmp = tempDir();

/**
 * A minimal async driver over the same Window the sync class uses: it awaits each request with the
 * backend's *Async calls. It shows the core needs nothing driver-specific (issue 6 builds the real one).
 */
class AsyncSketch {
  private constructor(
    private readonly w: Window,
    private readonly b: Backend,
  ) {}

  static async open(path: string, bufferSize: number, backend: Backend): Promise<AsyncSketch> {
    const fd = await backend.openAsync(path, "rw");
    return new AsyncSketch(
      new Window(fd, path, bufferSize, { readOnly: false, writeThrough: false }),
      backend,
    );
  }

  private async io(): Promise<void> {
    const { w, b } = this;
    w.complete(
      await (w.ioWrite
        ? b.pwriteAsync(w.fd, w.ioBuf, w.ioOff, w.ioLen, w.ioPos)
        : b.preadAsync(w.fd, w.ioBuf, w.ioOff, w.ioLen, w.ioPos)),
    );
  }

  async readInt(): Promise<number> {
    const w = this.w;
    let i = w.takeRead(4);
    if (i < 0) {
      w.begin();
      let s: Step;
      while ((s = w.planRead(4)) === IO) await this.io();
      if (s === EOF) throw new Error("EOF");
      i = w.at;
      w.consume(4);
    }
    return BigEndian.getInt32(w.buf, i);
  }

  async writeInt(v: number): Promise<void> {
    const w = this.w;
    let i = w.writeIndex(4);
    if (i < 0) {
      w.beginWrite();
      while (w.planRoom(4) === IO) await this.io();
      i = w.at;
    }
    BigEndian.setInt32(w.buf, i, v);
    if (w.commit(i, 4)) await this.flush();
  }

  async readLine(): Promise<string | null> {
    const w = this.w;
    w.begin();
    let s: Step;
    while (
      (s = w.planLine((b, from, to) => Buffer.from(b.subarray(from, to)).toString("latin1"))) === IO
    ) {
      await this.io();
    }
    return w.lineResult(s);
  }

  seek(pos: number): void {
    this.w.pointer = pos;
  }

  async flush(): Promise<void> {
    while (this.w.planFlush() === IO) await this.io();
  }

  async close(): Promise<void> {
    await this.flush();
    this.w.markClosed();
    await this.b.closeAsync(this.w.fd);
  }
}

describe.each(["node", "native"] as const)(
  "the window core drives an async driver too (%s)",
  (kind) => {
    test("same results and bytes as the sync class, with short transfers and no extra syscalls on window hits", async () => {
      const backend = faultBackend(getBackend(kind), [
        { call: ["pread", "pwrite"], shortTransfer: 5 },
      ]);
      const pa = tmp("async.bin");
      const ps = tmp("sync.bin");
      const a = await AsyncSketch.open(pa, 16, backend);
      const s = new RandomAccessFile(ps, "rw", { bufferSize: 16, backend: getBackend(kind) });
      for (let k = 0; k < 200; k++) {
        await a.writeInt(k * 1000003);
        s.writeInt(k * 1000003);
      }
      a.seek(0);
      s.seek(0);
      for (let k = 0; k < 200; k++) expect(await a.readInt()).toBe(s.readInt());
      for (const f of [a, s]) {
        f.seek(3);
      }
      expect(await a.readLine()).toBe(s.readLine());
      backend.clearRules();
      a.seek(0);
      await a.readInt(); // refills the window
      backend.resetCalls();
      expect([await a.readInt(), await a.readInt()]).toEqual([1000003, 2000006]);
      expect(backend.totalCalls()).toBe(0);
      await a.close();
      s.close();
      expect(readFileSync(pa)).toEqual(readFileSync(ps));
    });
  },
);
