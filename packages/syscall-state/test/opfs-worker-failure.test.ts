import { constants } from "node:os";
import { afterEach, describe, expect, test } from "vitest";
import { opfsWorkerPrimitives } from "../src/opfs/worker-primitives";

// The page's OPFS backend hands every call to a worker it starts. A worker that cannot start (a
// Content-Security-Policy without blob: workers) or a context without `Worker` (a shared or service worker) is
// injected here, as the browser would present it; Chromium runs the real worker (apps/browser-demo).

const errno = constants.errno as Record<string, number>;
const g = globalThis as { Worker?: unknown };
const saved = g.Worker;
afterEach(() => {
  g.Worker = saved;
});

/** A Worker that never runs: its error event comes on a later turn, as a refused script's does. */
class RefusedWorker {
  static made = 0;
  onmessage: unknown = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessageerror: unknown = null;
  constructor() {
    RefusedWorker.made++;
    setTimeout(() => this.onerror?.({ message: "refused by Content-Security-Policy" }), 1);
  }
  postMessage(): void {}
}

describe("the page's OPFS worker", () => {
  test("that cannot start: every waiting call answers -EIO, and the next call starts another", async () => {
    g.Worker = RefusedWorker;
    RefusedWorker.made = 0;
    const p = opfsWorkerPrimitives(errno);
    const answers = await Promise.all([
      p.openAsync("d/x.bin", "rw"),
      p.openAsync("d/y.bin", "r"),
      p.sizeAsync(3),
    ]);
    expect(answers).toEqual([-errno.EIO!, -errno.EIO!, -errno.EIO!]);
    expect(await p.openAsync("d/x.bin", "rw")).toBe(-errno.EIO!);
    expect(RefusedWorker.made).toBe(2);
  });

  test("where no Worker exists (a shared or service worker): ENOSYS at once", async () => {
    g.Worker = undefined;
    const p = opfsWorkerPrimitives(errno);
    expect(await p.openAsync("d/x.bin", "rw")).toBe(-errno.ENOSYS!);
    expect(p.close(7)).toBe(-errno.EBADF!);
  });
});
