import { spawnSync } from "node:child_process";
import { existsSync, linkSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { getBackend, isNativeAvailable } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { afterEach, describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, OverlappingFileLockError, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";
import { killIfHung } from "./support/watchdog";

const tmp = tempDir();
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const workerScript = fileURLToPath(new URL("./fixtures/thread-lock-worker.mjs", import.meta.url));
const linuxNative = isNativeAvailable() && process.platform === "linux";
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

function lockFile(name = "locked.bin"): string {
  const p = tmp(name);
  writeFileSync(p, Buffer.alloc(64));
  return p;
}

const open = (p: string) => new RandomAccessFile(p, "rw", { backend: "native" });
const openAsync = (p: string) => AsyncRandomAccessFile.open(p, "rw", { backend: "native" });

/** The error a call throws (the test fails if it throws none). */
function thrown(f: () => unknown): Error & { code?: string } {
  try {
    f();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error("expected a throw");
}

describe.skipIf(!linuxNative)(
  "sync lock() vs a conflicting lock held in the same thread through another instance",
  () => {
    test("throws OverlappingFileLockError naming the path instead of waiting; tryLock stays null; non-conflicting ranges are granted", () => {
      const p = lockFile();
      const holder = open(p);
      const waiter = open(p);
      const held = holder.lock({ position: 0, size: 16 });
      const e = thrown(() => waiter.lock());
      expect(e).toBeInstanceOf(OverlappingFileLockError);
      expect(e.code).toBe("ERR_RAF_OVERLAPPING_LOCK");
      expect(e.message).toContain(p);
      expect(e.message).toMatch(/wait forever/);
      expect(e.message).toContain("[0, 16)");
      // A shared request conflicts with an exclusive holder too.
      expect(() => waiter.lock({ shared: true, position: 15, size: 1 })).toThrow(
        OverlappingFileLockError,
      );
      expect(waiter.tryLock({ position: 8, size: 100 })).toBeNull();
      // Nothing was taken by the refused attempts: the range right after the holder's is free.
      const after = waiter.lock({ position: 16, size: 16 });
      expect(after.isValid()).toBe(true);
      // And now the holder is the one that would wait on the waiter.
      expect(() => holder.lock({ position: 20, size: 1 })).toThrow(/wait forever/);
      after.release();
      held.release();
      waiter.close();
      holder.close();
    });

    test("shared locks on both sides do not conflict: granted without the rule getting in the way", () => {
      const p = lockFile();
      const a = open(p);
      const b = new RandomAccessFile(p, "r", { backend: "native" });
      const sa = a.lock({ shared: true, position: 0, size: 32 });
      const sb = b.lock({ shared: true, position: 16, size: 32 });
      expect(sb.isValid()).toBe(true);
      // An exclusive one over a shared holder is a conflict.
      const c = open(p);
      expect(() => c.lock({ position: 40, size: 1 })).toThrow(OverlappingFileLockError);
      c.close();
      sa.release();
      sb.release();
      a.close();
      b.close();
    });

    test("an async instance holding the lock counts too; after its release() the sync lock() is granted", async () => {
      const p = lockFile();
      const holder = await openAsync(p);
      const waiter = open(p);
      const held = await holder.lock({ shared: true });
      expect(() => waiter.lock({ position: 1000, size: 1 })).toThrow(/wait forever/);
      await held.release();
      const mine = waiter.lock();
      expect(mine.size).toBe(Number.POSITIVE_INFINITY);
      // The other way round: the async class's lock() waits for a same-thread holder (it can release).
      let granted = false;
      const waiting = holder.lock({ position: 0, size: 8 }).then((l) => {
        granted = true;
        return l;
      });
      await new Promise((r) => setTimeout(r, 10)); // its polls run: the thread is free
      expect(granted).toBe(false); // the sync instance still holds the whole file
      mine.release();
      const got = await waiting;
      expect(got.isValid()).toBe(true);
      // And now the async instance is the holder the sync one must not wait for.
      expect(() => waiter.lock({ position: 4, size: 1 })).toThrow(OverlappingFileLockError);
      await holder.close();
      expect(waiter.lock({ position: 4, size: 1 }).isValid()).toBe(true);
      waiter.close();
    });

    test("an async lock()/tryLock() counts from its call: the OS grants it before its promise settles, and a sync lock() in between must not wait forever", async () => {
      const p = lockFile();
      const holder = await openAsync(p);
      const waiter = open(p);
      // Not awaited: the backend's first attempt takes the OS lock inside this call.
      const trying = holder.tryLock({ position: 0, size: 8 });
      expect(() => waiter.lock({ position: 4, size: 1 })).toThrow(OverlappingFileLockError);
      const tried = await trying;
      expect(tried?.isValid()).toBe(true);
      await tried?.release();
      const locking = holder.lock({ shared: true, position: 100 });
      expect(() => waiter.lock({ position: 200, size: 1 })).toThrow(/wait forever/);
      // A shared request over a shared one is no conflict (the OS grants it at once).
      const shared = waiter.lock({ shared: true, position: 150, size: 1 });
      expect(shared.isValid()).toBe(true);
      shared.release();
      await (await locking).release();
      expect(waiter.lock({ position: 0, size: 64 }).isValid()).toBe(true);
      waiter.close();
      await holder.close();
    });

    test("non-awaited async calls in every order before a sync lock(): the record holds exactly while the OS lock may be held", async () => {
      const p = lockFile();
      const waiter = open(p);
      const range = { position: 0, size: 8 };
      const outcome = () => {
        try {
          const l = waiter.lock(range);
          l.release();
          return "granted";
        } catch (e) {
          return (e as { code?: string }).code;
        }
      };
      // lock() queued behind a read in flight: not asked of the OS yet, so the sync lock() gets the range
      // (no hang, no throw), and the async one then waits for it.
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend: "native", bufferSize: 0 });
      const reading = a.readInt();
      const queued = a.lock(range);
      const first = waiter.lock(range);
      await reading;
      first.release();
      const got = await queued;
      expect(outcome()).toBe("ERR_RAF_OVERLAPPING_LOCK");
      // release() queued behind a read in flight: the OS lock is still held, so is the record.
      const reading2 = a.readInt();
      const releasing = got.release();
      expect(outcome()).toBe("ERR_RAF_OVERLAPPING_LOCK");
      await reading2;
      await releasing;
      expect(outcome()).toBe("granted");
      // lock() then close(), neither awaited: granted in the call, held until the close runs.
      const locking = a.lock(range);
      const closing = a.close();
      expect(outcome()).toBe("ERR_RAF_OVERLAPPING_LOCK");
      await Promise.allSettled([locking]);
      await closing;
      expect(outcome()).toBe("granted");
      waiter.close();
    });

    test.each(["sync", "async"] as const)(
      "%s class: a release() whose flush fails keeps the lock and its record; its retry drops both",
      async (cls) => {
        const p = lockFile();
        const waiter = open(p);
        const backend = faultBackend(getBackend("native"));
        const range = { position: 0, size: 8 };
        if (cls === "sync") {
          const f = new RandomAccessFile(p, "rw", { backend });
          const l = f.lock(range);
          f.writeInt(1);
          backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
          expect(() => l.release()).toThrow(expect.objectContaining({ code: "ENOSPC" }));
          expect(l.isValid()).toBe(true);
          expect(() => waiter.lock(range)).toThrow(OverlappingFileLockError);
          l.release();
          f.close();
        } else {
          const f = await AsyncRandomAccessFile.open(p, "rw", { backend });
          const l = await f.lock(range);
          await f.writeInt(1);
          backend.inject({ call: "pwrite", errno: "ENOSPC", times: 1 });
          await expect(l.release()).rejects.toMatchObject({ code: "ENOSPC" });
          expect(l.isValid()).toBe(true);
          expect(() => waiter.lock(range)).toThrow(OverlappingFileLockError);
          await l.release();
          await f.close();
        }
        const mine = waiter.lock(range);
        expect(mine.isValid()).toBe(true);
        expect(readFileSync(p).readInt32BE(0)).toBe(1); // the retried flush wrote it before the unlock
        waiter.close();
      },
    );

    test("the same file through a hard link or after a rename is recognised (device and inode), and both paths are named", () => {
      const p = lockFile("original.bin");
      const holder = open(p);
      const held = holder.lock();
      const link = tmp("link.bin");
      linkSync(p, link);
      const viaLink = open(link);
      const e = thrown(() => viaLink.lock());
      expect(e.code).toBe("ERR_RAF_OVERLAPPING_LOCK");
      expect(e.message).toContain(link);
      expect(e.message).toContain(p);
      viaLink.close();
      const moved = tmp("moved.bin");
      renameSync(p, moved);
      const viaNewName = open(moved);
      expect(() => viaNewName.lock({ shared: true })).toThrow(OverlappingFileLockError);
      held.release();
      expect(viaNewName.lock({ shared: true }).isValid()).toBe(true);
      viaNewName.close();
      holder.close();
    });

    test("a holder is recognised until it closes (both classes) or is disposed; then the range is granted", async () => {
      const p = lockFile();
      const waiter = open(p);
      {
        using s = open(p);
        s.lock({ position: 0, size: 4 });
        expect(() => waiter.lock({ position: 0, size: 4 })).toThrow(OverlappingFileLockError);
      }
      const first = waiter.lock({ position: 0, size: 4 });
      first.release();
      const a = await openAsync(p);
      await a.lock({ position: 0, size: 4 });
      await a.close();
      const second = waiter.lock({ position: 0, size: 4 });
      expect(second.isValid()).toBe(true);
      using s = open(p);
      {
        using l = s.lock({ shared: true, position: 100 });
        expect(l.isValid()).toBe(true);
        expect(() => waiter.lock({ position: 100, size: 1 })).toThrow(OverlappingFileLockError);
      }
      expect(waiter.lock({ position: 100, size: 1 }).isValid()).toBe(true);
      waiter.close();
    });
  },
);

describe.skipIf(!linuxNative || !existsSync(dist))(
  "one record per thread across copies of the package (built dist)",
  () => {
    test("a lock taken through the ESM build stops a sync lock() through the CJS build (and this test's source copy)", async () => {
      const esm = (await import(dist)) as typeof import("../src/index");
      const cjs = createRequire(import.meta.url)(
        dist.replace(/\.js$/, ".cjs"),
      ) as typeof import("../src/index");
      expect(cjs.RandomAccessFile).not.toBe(esm.RandomAccessFile);
      const p = lockFile();
      const holder = new esm.RandomAccessFile(p, "rw", { backend: "native" });
      const held = holder.lock();
      const viaCjs = new cjs.RandomAccessFile(p, "rw", { backend: "native" });
      expect(() => viaCjs.lock()).toThrow(
        expect.objectContaining({ code: "ERR_RAF_OVERLAPPING_LOCK" }),
      );
      const viaSource = open(p);
      expect(() => viaSource.lock({ shared: true })).toThrow(OverlappingFileLockError);
      held.release();
      viaCjs.lock().release();
      viaSource.close();
      viaCjs.close();
      holder.close();
    });

    test("a copy loaded in another realm of this thread (a vm context, as Jest loads a package per test file) shares the record, both ways", () => {
      const script = fileURLToPath(new URL("./fixtures/vm-realm-lock.cjs", import.meta.url));
      // Without a shared record the lock() blocks the child forever: the timeout kills it (signal set).
      const r = spawnSync(process.execPath, [script, dist.replace(/\.js$/, ".cjs"), lockFile()], {
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        separateCopies: true,
        separateRealms: true,
        contextHolds: ["ERR_RAF_OVERLAPPING_LOCK", "granted"],
        hostHolds: ["ERR_RAF_OVERLAPPING_LOCK", "granted"],
      });
    });

    test("with Node's fs module made non-extensible (hardened environments), the package still loads and the ESM and CJS builds still share the record", () => {
      const script = `
        const { createRequire } = require("node:module");
        Object.preventExtensions(require("node:fs"));
        (async () => {
          const esm = await import(process.argv[1]);
          const cjs = createRequire(process.argv[1])(process.argv[1].replace(/\\.js$/, ".cjs"));
          const a = new esm.RandomAccessFile(process.argv[2], "rw", { backend: "native" });
          const b = new cjs.RandomAccessFile(process.argv[2], "rw", { backend: "native" });
          a.lock();
          let outcome = "granted";
          try { b.lock(); } catch (e) { outcome = e.code; }
          console.log(outcome);
          b.close();
          a.close();
        })();`;
      const r = spawnSync(process.execPath, ["-e", script, dist, lockFile()], {
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe("ERR_RAF_OVERLAPPING_LOCK");
    });
  },
);

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

    test("an instance collected unclosed leaves the registry: a new instance on its descriptor number waits for a worker instead of throwing", () => {
      const script = fileURLToPath(new URL("./fixtures/gc-lock.mjs", import.meta.url));
      const r = spawnSync(
        process.execPath,
        ["--expose-gc", script, dist, lockFile(), workerScript],
        {
          encoding: "utf8",
          timeout: 60_000,
        },
      );
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ collected: true, sameFd: true, outcome: "granted" });
    });
  },
);
