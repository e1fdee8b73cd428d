import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { open } from "../src";
import {
  EIO,
  expectCleanReopen,
  failNext,
  failWhen,
  failWrites,
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
// Failed cut backs and closes after a failure: group-commit-failed-cleanup.test.ts; EFBIG: group-commit-efbig.test.ts.

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

describe("writes refused while earlier ones wait for their batch group's fsync (sync: batch)", () => {
  it("reject after them: issue order", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("a", "0");
    const { order, note } = settleOrder();
    const writes = [
      note("put a", db.put("a", "1")),
      note("delete a", db.delete("a")),
      note("delete missing", db.delete("missing")),
      note("put empty key", db.put("", "x")),
      note("put after", db.put("b", "2")),
    ];
    const results = await Promise.all(writes);
    expect(order).toEqual(["put a", "delete a", "delete missing", "put empty key", "put after"]);
    expect(results[3]).toEqual({ error: "ERR_KV_INVALID_ARG" });
    await db.close();
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
