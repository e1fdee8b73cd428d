import { linkSync, readFileSync, renameSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, OverlappingFileLockError, RandomAccessFile } from "../src/index";
import { lockFile, open, openAsync, perHandleLocks, thrown, tmp } from "./support/thread-locks";
import { killIfHung } from "./support/watchdog";

if (!perHandleLocks)
  console.warn(
    "same-thread lock tests skipped: they need per-handle locks (native backend, Linux or Windows)",
  );

// Without the rule these tests block this thread forever in F_OFD_SETLKW (LockFileEx on Windows): the watchdog turns that into a
// killed (failed) run.
killIfHung(90);

describe.skipIf(!perHandleLocks)(
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
