import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { afterEach, describe, expect, test } from "vitest";
import { AsyncRandomAccessFile } from "../src/index";
import { dist, linuxNative, lockFile, open, openAsync, tmp } from "./support/thread-locks";
import { killIfHung } from "./support/watchdog";

const workerScript = fileURLToPath(new URL("./fixtures/thread-lock-worker.mjs", import.meta.url));
if (!linuxNative)
  console.warn("same-thread lock tests skipped: they need Linux OFD locks (native backend)");

// Without the rule these tests block this thread forever in F_OFD_SETLKW: the watchdog turns that into a
// killed (failed) run.
killIfHung(90);

const workers: Worker[] = [];
afterEach(async () => {
  // A failed test may leave a worker waiting for a waiter that never came.
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});

/** Whether someone is blocked waiting for a lock on the file with inode `ino` (Linux /proc/locks). */
function waiterBlocked(ino: bigint): boolean {
  return readFileSync("/proc/locks", "utf8")
    .split("\n")
    .some((line) => line.includes("->") && line.includes(`:${ino} `));
}

describe.skipIf(!linuxNative || !existsSync(dist))(
  "locks held in other worker threads are waited for (built dist, real workers)",
  () => {
    test("a worker's conflicting lock: the sync lock() waits until the worker releases it, even while this thread holds a same-range lock on another file, and after same-thread locks were released or closed", async () => {
      const p = lockFile();
      // Locks this thread held on the range and gave up, in every way: none may count any more.
      const released = open(p); // stays open, its lock released
      const blocking = released.lock({ position: 0, size: 16 });
      // Async attempts this held lock refused, or a close cancelled: counted while pending, then not.
      const refused = await openAsync(p);
      expect(await refused.tryLock({ position: 0, size: 16 })).toBeNull();
      const cancelled = refused.lock({ position: 8, size: 1 });
      const closing = refused.close();
      await expect(cancelled).rejects.toMatchObject({ name: "ClosedError" });
      await closing;
      const refusedStays = await openAsync(p); // stays open, its attempt refused
      expect(await refusedStays.tryLock({ shared: true, position: 8 })).toBeNull();
      blocking.release();
      const releasedAsync = await openAsync(p);
      await (await releasedAsync.lock({ position: 4, size: 4 })).release();
      {
        using disposed = open(p);
        using _l = disposed.lock({ position: 8, size: 1 });
      }
      const closedAsync = await openAsync(p);
      await closedAsync.lock({ shared: true });
      await closedAsync.close();
      const closed = open(p);
      closed.lock({ position: 0, size: 16 });
      const closedFd = closed.fd;
      closed.close();
      // The OS hands the lowest free number out again: a closed holder's entry would now name this file.
      const f = open(p);
      expect(f.fd).toBe(closedFd);
      // This thread's lock on ANOTHER file overlaps the range: the rule must compare files, not ranges alone.
      const other = open(lockFile("other.bin"));
      const otherLock = other.lock();
      const w = new Worker(workerScript, { workerData: { dist, file: p, scenario: "holder" } });
      workers.push(w);
      const messages: unknown[] = [];
      const exited = new Promise((resolve) => w.once("exit", resolve));
      const locked = new Promise<{ sameThread: string }>((resolve) =>
        w.on("message", (m) => {
          messages.push(m);
          if ((m as { locked?: boolean }).locked) resolve(m);
        }),
      );
      // Inside the worker, a second instance met the rule (the registry is per thread, workers included).
      expect((await locked).sameThread).toBe("ERR_RAF_OVERLAPPING_LOCK");
      // Blocks in the kernel until the worker sees us waiting in /proc/locks and releases.
      const mine = f.lock({ position: 8, size: 1 });
      expect(mine.isValid()).toBe(true);
      await exited;
      expect(messages).toEqual([
        { locked: true, sameThread: "ERR_RAF_OVERLAPPING_LOCK" },
        { released: true },
      ]);
      f.close();
      otherLock.release();
      other.close();
      released.close();
      await releasedAsync.close();
      await refusedStays.close();
    });

    test("an async lock()/tryLock() whose flush on the way fails leaves no record: a sync lock() then waits for a worker instead of throwing", async () => {
      const p = lockFile();
      const backend = faultBackend(getBackend("native"));
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend });
      const range = { position: 0, size: 8 };
      await a.writeInt(1);
      backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
      await expect(a.tryLock(range)).rejects.toMatchObject({ code: "ENOSPC" });
      await a.writeInt(2);
      backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
      await expect(a.lock(range)).rejects.toMatchObject({ code: "ENOSPC" });
      const w = new Worker(workerScript, { workerData: { dist, file: p, scenario: "holder" } });
      workers.push(w);
      const exited = new Promise((resolve) => w.once("exit", resolve));
      await new Promise((resolve) =>
        w.on("message", (m) => (m as { locked?: boolean }).locked && resolve(m)),
      );
      const f = open(p);
      // Blocks until the worker sees us waiting and releases; a stale record would throw instead.
      expect(f.lock(range).isValid()).toBe(true);
      await exited;
      f.close();
      await a.close();
    });

    test("an async tryLock() the OS refuses (a worker holds the range) never counts: a sync lock() right after the call waits for the worker instead of throwing", async () => {
      const p = lockFile();
      const w = new Worker(workerScript, { workerData: { dist, file: p, scenario: "holder" } });
      workers.push(w);
      const exited = new Promise((resolve) => w.once("exit", resolve));
      await new Promise((resolve) =>
        w.on("message", (m) => (m as { locked?: boolean }).locked && resolve(m)),
      );
      const a = await openAsync(p);
      const f = open(p);
      // Not awaited: refused by the OS inside this call; its promise settles (null) turns later.
      const trying = a.tryLock({ position: 0, size: 8 });
      // Blocks until the worker sees us waiting and releases; a record of the refused attempt would throw.
      expect(f.lock({ position: 0, size: 8 }).isValid()).toBe(true);
      expect(await trying).toBeNull();
      await exited;
      f.close();
      await a.close();
    });

    test("an async lock's release() (or `using`) leaves the record as it leaves the OS: a sync lock() right after it waits for a worker instead of throwing", async () => {
      const p = lockFile();
      const a = await openAsync(p);
      const held = await a.lock({ position: 16, size: 16 });
      const w = new Worker(workerScript, { workerData: { dist, file: p, scenario: "holder" } });
      workers.push(w);
      const exited = new Promise((resolve) => w.once("exit", resolve));
      await new Promise((resolve) =>
        w.on("message", (m) => (m as { locked?: boolean }).locked && resolve(m)),
      );
      // Not awaited (as `using` does): the OS lock goes during this call, its promise settles later.
      const releasing = held.release();
      const f = open(p);
      // Conflicts with the worker's [0, 16) (waited for) and with the released [16, 32) (no holder any more).
      const mine = f.lock({ position: 8, size: 16 });
      expect(mine.isValid()).toBe(true);
      await releasing;
      await exited;
      f.close();
      await a.close();
    });

    test("a worker's instance closed at its exit leaves that worker's registry: a later lock() there waits for us instead of throwing", async () => {
      const p = lockFile();
      const out = tmp("outcome.txt");
      const mainHolder = open(p);
      const ours = mainHolder.lock({ position: 0, size: 10 });
      const w = new Worker(workerScript, { workerData: { dist, file: p, scenario: "exit", out } });
      workers.push(w);
      let ended = false;
      const exited = new Promise((resolve) =>
        w.once("exit", (code) => {
          ended = true;
          resolve(code);
        }),
      );
      const { ino } = statSync(p, { bigint: true });
      // Release ours only once the worker's exit-time lock() is blocked on it (or the worker ended).
      while (!ended && !waiterBlocked(ino)) await new Promise((r) => setTimeout(r, 5));
      ours.release();
      expect(await exited).toBe(0);
      expect(readFileSync(out, "utf8")).toBe("granted");
      mainHolder.close();
    });

    test("an instance that holds a lock is never collected unclosed: its lock stays held (one without is)", () => {
      const script = fileURLToPath(new URL("./fixtures/gc-lock.mjs", import.meta.url));
      const r = spawnSync(process.execPath, ["--expose-gc", script, dist, lockFile()], {
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        controlCollected: true,
        holderCollected: false,
        stillHeld: true,
      });
    });
  },
);
