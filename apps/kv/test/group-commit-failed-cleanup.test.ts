import { getBackend } from "@rafkit/syscall-state";
import { describe, expect, it, vi } from "vitest";
import { open } from "../src";
import {
  EIO,
  expectCleanReopen,
  failNext,
  failWhen,
  failWrites,
  fdatasyncOf,
  hasProcFd,
  outcome,
  pathOfFd,
  reopen,
  turn,
} from "./faults";
import { tempDir } from "./helpers";

// A failed write whose cut back fails too: ftruncate returns EIO (fault injection), and maybe the writes after it.

/** A store holding kept = "old", whose next group's (or put's) fdatasync fails with EIO, and every ftruncate after. */
async function failedWithCutFailing(sync: "batch" | "always", writesFail: boolean) {
  const dir = tempDir();
  const db = await open(dir, { sync });
  await db.put("kept", "old");
  // From the failed fdatasync on, ftruncate fails, and (writesFail) so does every write.
  let broken = false;
  failNext(fdatasyncOf(sync), 1, () => {
    broken = true;
  });
  failWhen("truncate", () => broken);
  if (writesFail) failWrites(() => broken);
  const results = await Promise.all([outcome(db.put("new", "1")), outcome(db.put("kept", "new"))]);
  return { dir, db, results };
}

describe.each(["batch", "always"] as const)(
  "a failed write whose cut back fails (sync %s)",
  (sync) => {
    it("zeros the failed writes instead: neither this session nor a reopen shows them", async () => {
      const { dir, db, results } = await failedWithCutFailing(sync, false);
      expect(results[0]).toEqual({ error: "EIO" });
      expect(db.readOnly).toBe(true);
      // Before: the reload read the failed records back, and a reopen showed them.
      expect(await db.get("new")).toBeUndefined();
      expect(await db.getString("kept")).toBe("old");
      await expectCleanReopen(db, dir, async (again) => {
        expect(again.readOnly).toBe(false);
        expect(await again.get("new")).toBeUndefined();
        expect(await again.getString("kept")).toBe("old");
      });
    });

    it("when the zeros cannot be written either, this session still answers with the acknowledged writes only", async () => {
      const { dir, db } = await failedWithCutFailing(sync, true);
      expect(db.readOnly).toBe(true);
      expect(await db.get("new")).toBeUndefined();
      expect(await db.getString("kept")).toBe("old");
      expect(db.stats().keys).toBe(1);
      // Documented: nothing could undo them on disk, so a reopen finds the failed writes (whole records, no damage).
      await expectCleanReopen(db, dir, async (again) => {
        expect(await again.getString("new")).toBe("1");
      });
    });
  },
);

describe.skipIf(!hasProcFd)("close() when the LOCK file's pid cannot be cleared", () => {
  it("resolves, and releases the lock", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("a", "1");
    failWhen("truncate", (fd) => pathOfFd(fd).endsWith("/LOCK"));
    // Before: close rejected with the LOCK file's EIO after every write was durable.
    const again = await reopen(db, dir);
    expect(await again.getString("a")).toBe("1");
    await again.close();
  });
});

describe.skipIf(!hasProcFd)(
  "a failed write whose data file's close then fails too (EIO from close)",
  () => {
    it.each(["always", "batch"] as const)(
      "still rejects in order, stops the store and closes cleanly (sync %s)",
      async (sync) => {
        const dir = tempDir();
        const db = await open(dir, { sync });
        await db.put("x", "1");
        const backend = getBackend();
        const realClose = backend.close.bind(backend);
        vi.spyOn(backend, "close").mockImplementation((fd) => {
          const data = pathOfFd(fd).endsWith(".data");
          const r = realClose(fd); // the descriptor is released either way, as close(2) does
          return data ? EIO : r;
        });
        failNext(fdatasyncOf(sync));
        const unhandled: unknown[] = [];
        const onUnhandled = (reason: unknown) => unhandled.push(reason);
        process.on("unhandledRejection", onUnhandled);
        try {
          expect(await outcome(db.put("y", "2"))).toEqual({ error: "EIO" });
          await turn();
          expect(db.readOnly).toBe(true);
          expect(await db.getString("x")).toBe("1");
          expect(await db.get("y")).toBeUndefined();
          vi.restoreAllMocks();
          // Before: the reload stopped at the close, leaving the closed file active: close() then threw.
          await db.close();
          expect(unhandled).toEqual([]);
        } finally {
          process.off("unhandledRejection", onUnhandled);
        }
        const again = await open(dir);
        expect(await again.getString("x")).toBe("1");
        expect(await again.get("y")).toBeUndefined();
        await again.close();
      },
    );
  },
);
