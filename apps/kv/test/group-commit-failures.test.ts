import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { getBackend } from "@rafkit/syscall-state";
import { describe, expect, it, vi } from "vitest";
import { open } from "../src";
import {
  EFBIG,
  EIO,
  expectCleanReopen,
  failNext,
  failWhen,
  failWrites,
  fdatasyncOf,
  gate,
  hasProcFd,
  mockDatasyncAsync,
  openFilesUnder,
  outcome,
  pathOfFd,
  reopen,
  secondFdatasyncFailsFirst,
  settleOrder,
  turn,
} from "./faults";
import { tempDir } from "./helpers";

// fsyncs of the active file that fail where the group-commit path does not see them: after a later fsync already
// acknowledged the failed one's group, in a compaction's fdatasync before its commit, and in close()'s seal.
// Each must stop the store taking writes (fail-stop), undo the writes not yet acknowledged, and keep every
// acknowledged one.

describe("an fdatasync that fails after a later one acknowledged its group", () => {
  it("stops the store taking writes, rejects the writes not yet acknowledged, keeps the acknowledged ones", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("before", "0");
    const release = gate();
    // The first group's fdatasync returns EIO only after the second group's succeeded (which acknowledged both).
    mockDatasyncAsync(async (call, fd, real) => {
      if (call === 1) {
        await release.opened;
        return EIO;
      }
      return real(fd);
    });
    const first = outcome(db.put("first", "1"));
    await turn();
    const second = outcome(db.put("second", "2"));
    expect(await second).toEqual({ value: undefined });
    expect(await first).toEqual({ value: undefined }); // covered by the second fdatasync
    // A write gathering its group when the failure comes: not acknowledged, so it is undone.
    const third = outcome(db.put("third", "3"));
    release.open();
    expect(await third).toEqual({ error: "EIO" });
    await turn();
    expect(db.readOnly).toBe(true);
    expect(db.stats().readOnlyReason).toMatch(/a write failed .*EIO/);
    await expect(db.put("after", "x")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    const check = async (s: typeof db) => {
      expect(await s.getString("before")).toBe("0");
      expect(await s.getString("first")).toBe("1");
      expect(await s.getString("second")).toBe("2");
      expect(await s.get("third")).toBeUndefined();
      expect(await s.get("after")).toBeUndefined();
    };
    await check(db);
    await expectCleanReopen(db, dir, check);
  });
});

describe("a compaction whose fdatasync before its commit fails", () => {
  it("stops the store taking writes and leaves every acknowledged write", async () => {
    const dir = tempDir();
    const seed = await open(dir, { sync: "never", maxFileSize: 16 * 1024 });
    for (let i = 0; i < 500; i++) void seed.put(`k${i}`, `v${i}`);
    await seed.close();
    const db = await open(dir, { sync: "batch", maxFileSize: 16 * 1024 });
    await db.put("k0", "acknowledged");
    // Batch writes fsync through datasyncAsync; the synchronous fdatasync is the compaction's, before its commit.
    failWhen("datasync", () => true);
    expect(await outcome(db.compact())).toEqual({ error: "EIO" });
    expect(db.readOnly).toBe(true);
    await expect(db.put("after", "x")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    const check = async (s: typeof db) => {
      expect(await s.getString("k0")).toBe("acknowledged");
      expect(await s.getString("k499")).toBe("v499");
      expect(await s.get("after")).toBeUndefined();
      expect(s.stats().keys).toBe(500);
    };
    await check(db);
    await expectCleanReopen(db, dir, check);
  });
});

describe("close() whose seal fails", () => {
  it("rejects the writes waiting for a group and leaves none of them in the file", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("kept", "1");
    failWhen("sync", () => true);
    // Issued in the same turn as close: their group's fdatasync never starts, the seal's fsync is theirs.
    const put = outcome(db.put("waiting", "2"));
    const del = outcome(db.delete("kept"));
    expect(await outcome(db.close())).toEqual({ error: "EIO" });
    expect(await put).toEqual({ error: "EIO" });
    expect(await del).toEqual({ error: "EIO" });
    vi.restoreAllMocks();
    const again = await open(dir);
    // Rejected writes must not come back after a reopen.
    expect(await again.get("waiting")).toBeUndefined();
    expect(await again.getString("kept")).toBe("1");
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  });
});

describe("a put whose append flushes a full buffer, and that write fails (sync: batch)", () => {
  it("stops the store at once and rejects the writes of its group first, in issue order", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("kept", "1");
    failWrites(() => true);
    const { order, note } = settleOrder();
    // One turn: "small" waits in the append buffer for its group; "big" does not fit, so its put flushes first.
    const small = note("small", db.put("small", "x"));
    const big = note("big", db.put("big", "y".repeat(70 * 1024)));
    const after = note("after", db.put("after", "z"));
    expect(await Promise.all([small, big, after])).toEqual([
      { error: "EIO" },
      { error: "EIO" },
      { error: "ERR_KV_READ_ONLY" },
    ]);
    expect(order).toEqual(["small", "big", "after"]);
    expect(db.readOnly).toBe(true);
    const again = await reopen(db, dir);
    expect(await again.getString("kept")).toBe("1");
    expect(await again.get("small")).toBeUndefined();
    expect(await again.get("big")).toBeUndefined();
    expect(await again.get("after")).toBeUndefined();
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  });
});

if (!hasProcFd)
  console.warn("closed-store descriptor test skipped: it lists /proc/self/fd (Linux)");

describe.skipIf(!hasProcFd)("a failure after a failed reload closed the store", () => {
  it("loads nothing into the closed store when a later failure comes: no descriptor is left open", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("before", "1");
    // The first group's fdatasync fails only after the second group's failed.
    secondFdatasyncFailsFirst();
    const first = outcome(db.put("first", "1"));
    await turn();
    // The reload after the second failure cannot read the files back (a damaged marker): the store closes.
    fs.writeFileSync(path.join(dir, "MERGED"), "damaged");
    const second = outcome(db.put("second", "2"));
    expect(await second).toEqual({ error: "EIO" });
    // Readable again (a transient error) by the time the first group's failure comes, on the closed store.
    fs.rmSync(path.join(dir, "MERGED"));
    expect(await first).toEqual({ error: "EIO" });
    await turn();
    await expect(db.get("before")).rejects.toMatchObject({ code: "ERR_KV_CLOSED" });
    await db.close();
    expect(openFilesUnder(dir)).toEqual([]);
  });
});

describe("a put whose fdatasync fails while earlier puts wait for their turn (sync: always, compacting)", () => {
  it("rejects after them, and a write refused after it after that: issue order", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "always" });
    await db.put("seed", "1");
    // While a compaction runs, every 8th put of one turn and those after it resolve a turn later.
    const compaction = outcome(db.compact());
    const { order, note } = settleOrder();
    const writes: Promise<unknown>[] = [];
    const names: string[] = [];
    for (let i = 0; i < 10; i++) {
      names.push(`put ${i}`);
      writes.push(note(`put ${i}`, db.put(`k${i}`, "v")));
    }
    failNext("datasync");
    writes.push(note("failed", db.put("failed", "x")));
    writes.push(note("refused", db.put("refused", "y")));
    const results = await Promise.all(writes);
    // Before: "failed" and "refused" settled before puts 7 to 9, which were issued earlier.
    expect(order).toEqual([...names, "failed", "refused"]);
    expect(results.slice(-2)).toEqual([{ error: "EIO" }, { error: "ERR_KV_READ_ONLY" }]);
    expect(await compaction).toEqual({ error: "ERR_KV_READ_ONLY" });
    expect(await db.getString("k9")).toBe("v");
    expect(await db.get("failed")).toBeUndefined();
    const again = await reopen(db, dir);
    expect(await again.getString("k9")).toBe("v");
    expect(await again.get("failed")).toBeUndefined();
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  });
});

describe.skipIf(!hasProcFd)(
  "a group's fdatasync that starts only after a compaction deleted its file",
  () => {
    it("runs on that file's descriptor, not a closed one: no spurious EBADF stops the store, nothing leaks", async () => {
      const dir = tempDir();
      const db = await open(dir, { sync: "batch" });
      await db.put("x", "1");
      // The first fdatasync is queued (libuv's pool busy, say): it reaches the kernel only when released.
      const release = gate();
      let late: Promise<number> | undefined;
      const target = (fd: number) => {
        try {
          return pathOfFd(fd).replace(/ \(deleted\)$/, "");
        } catch {
          return "closed";
        }
      };
      const targets: string[] = [];
      mockDatasyncAsync((call, fd, real) => {
        if (call !== 1) return real(fd);
        targets.push(target(fd));
        late = release.opened.then(() => {
          targets.push(target(fd));
          return real(fd);
        });
        return late;
      });
      const put = outcome(db.put("a", "1"));
      await turn(); // its group's fdatasync is queued
      // The compaction's seal acknowledges the group, and the compaction deletes the file it is in.
      expect(await outcome(db.compact())).toMatchObject({ value: { filesRemoved: 1 } });
      expect(await put).toEqual({ value: undefined });
      release.open();
      // Before: its descriptor was closed by the compaction (EBADF, which stopped the store), or another file's.
      expect(await late).toBe(0);
      expect(targets[1]).toBe(targets[0]);
      await turn();
      expect(db.readOnly).toBe(false);
      await db.put("b", "2");
      await db.close();
      expect(openFilesUnder(dir)).toEqual([]);
      const again = await open(dir);
      expect(await again.getString("a")).toBe("1");
      expect(await again.getString("b")).toBe("2");
      await again.close();
    });
  },
);

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

describe.skipIf(!hasProcFd)(
  "a compaction whose output cannot be written (EFBIG on its .tmp files)",
  () => {
    it("fails without leaking the outputs' descriptors or leaving their files, and the store keeps writing", async () => {
      const dir = tempDir();
      const db = await open(dir, { sync: "never", maxFileSize: 8 * 1024 });
      for (let i = 0; i < 60; i++) await db.put(`k${i}`, "v".repeat(500));
      // Every write to a compaction output fails: their appends stay buffered, in several outputs at once.
      failWrites((fd) => pathOfFd(fd).endsWith(".data.tmp"), EFBIG);
      await expect(db.compact()).rejects.toMatchObject({ code: "EFBIG" });
      vi.restoreAllMocks();
      const openFds = openFilesUnder(dir).filter((target) => target.includes(".tmp"));
      // Before: the first output's close threw (its flush failed again), and the others were left open.
      expect(openFds).toEqual([]);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
      // Not a failure of the active file: the store goes on.
      expect(db.readOnly).toBe(false);
      await db.put("after", "1");
      await db.close();
      const again = await open(dir);
      expect(await again.getString("k59")).toBe("v".repeat(500));
      expect(await again.getString("after")).toBe("1");
      expect((await again.verify()).ok).toBe(true);
      await again.close();
    });
  },
);

const WRITER = fileURLToPath(new URL("./fixtures/file-size-limit-writer.mjs", import.meta.url));
const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const hasBash = process.platform !== "win32" && fs.existsSync("/bin/bash");
if (!hasBash) console.warn("write-failure test skipped: it needs bash's ulimit");
if (!fs.existsSync(DIST))
  console.warn(`write-failure test skipped: ${DIST} is missing (run the build first)`);

interface Outcome {
  uncaught?: string;
  acked: string[];
  failed: string | null;
  errors: Record<string, number>;
  failedVisible: boolean | null;
  readOnly: boolean;
  readOnlyReason?: string;
}

/** Runs the writer under a 64 KiB file size limit: its appends fail with a real EFBIG once the data file is full. */
function writeUntilFull(dir: string, sync: string, how = "loop"): Outcome {
  const child = spawnSync(
    "/bin/bash",
    ["-c", 'ulimit -f 64 && exec "$0" "$@"', process.execPath, WRITER, dir, sync, how],
    { encoding: "utf8", timeout: 30_000 },
  );
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Outcome;
}

describe.skipIf(!hasBash || !fs.existsSync(DIST))("a data file that cannot grow (EFBIG)", () => {
  it.each(["always", "batch", "never"])(
    "stops the writes cleanly under sync %s: no crash, nothing failed shows, everything acknowledged stays",
    async (sync) => {
      const dir = tempDir();
      const out = writeUntilFull(dir, sync);
      // Under never the failing flush ran in a setImmediate callback, and its exception crashed the process.
      expect(out.uncaught).toBeUndefined();
      expect(out.failed).not.toBeNull();
      expect(out.failedVisible).toBe(false);
      expect(out.readOnly).toBe(true);
      expect(out.readOnlyReason).toMatch(/a write failed \(EFBIG/);
      const db = await open(dir);
      expect(db.recovery).toEqual([]);
      expect(await db.get(out.failed!)).toBeUndefined();
      // Under never an acknowledgement promises nothing on disk; under always and batch every one holds.
      if (sync !== "never") {
        for (const key of out.acked) expect(await db.getString(key)).toBe("v".repeat(1000));
      }
      expect(db.stats().keys).toBeGreaterThan(0);
      expect((await db.verify()).ok).toBe(true);
      await db.close();
    },
  );

  it("releases the lock and every file when close's flush fails", async () => {
    const dir = tempDir();
    const out = writeUntilFull(dir, "never", "close") as unknown as {
      closeError: string | null;
      reopened: string;
    };
    expect(out).toEqual({ closeError: "EFBIG", reopened: "ok" });
    const db = await open(dir); // what reached the file before the limit: whole records, a torn tail cut
    expect((await db.verify()).ok).toBe(true);
    await db.close();
  });
});
