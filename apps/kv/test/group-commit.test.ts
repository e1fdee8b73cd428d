import { describe, expect, it } from "vitest";
import { open, type Store } from "../src";
import {
  EIO,
  expectCleanReopen,
  failNext,
  gate,
  mockDatasyncAsync,
  outcome,
  reopen,
  secondFdatasyncFailsFirst,
  settleOrder,
  turn,
} from "./faults";
import { tempDir } from "./helpers";

/**
 * Issues puts, deletes of keys that exist and deletes of keys that do not, interleaved, each noting when its promise
 * resolves, and returns the order of those notes with what each resolved to.
 */
async function issueMixed(db: Store, n: number): Promise<{ order: number[]; values: unknown[] }> {
  const order: number[] = [];
  const values: unknown[] = [];
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    const p: Promise<unknown> =
      kind === 0
        ? db.put(`k${i}`, "v")
        : kind === 1
          ? db.delete(`k${i - 1}`)
          : db.delete(`missing${i}`);
    writes.push(
      p.then((v) => {
        order.push(i);
        values[i] = v;
      }),
    );
  }
  await Promise.all(writes);
  return { order, values };
}

const expected = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1));

describe("acknowledgement order", () => {
  it.each(["always", "batch", "never"] as const)(
    "follows issue order for puts and deletes mixed (sync %s)",
    async (sync) => {
      const db = await open(tempDir(), { sync });
      const { order, values } = await issueMixed(db, 30);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(values).toEqual(expected(30));
      await db.close();
    },
  );

  it.each(["always", "batch", "never"] as const)(
    "follows issue order while a compaction makes writes wait for a turn (sync %s)",
    async (sync) => {
      const db = await open(tempDir(), { sync: "never" });
      for (let i = 0; i < 3000; i++) void db.put(`old${i}`, "v");
      await db.close();
      const writer = await open(db.dir, { sync });
      const compaction = writer.compact();
      const { order, values } = await issueMixed(writer, 600);
      await compaction;
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(values).toEqual(expected(600));
      await writer.close();
    },
  );
});

describe("a batch group whose fdatasync fails", () => {
  it("rejects its writes but not a delete of a key that was never there, and leaves none of their effects", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("kept", "old");
    await db.put("gone", "x");
    failNext("datasyncAsync");
    const { order, note } = settleOrder();
    // One event-loop turn: one group.
    const results = await Promise.all([
      note("put new", db.put("new", "1")),
      note("put kept", db.put("kept", "new")),
      note("delete missing", db.delete("never-there")),
      note("delete gone", db.delete("gone")),
      note("delete gone again", db.delete("gone")), // missing because of the delete above: shares its fate
    ]);
    expect(results).toEqual([
      { error: "EIO" },
      { error: "EIO" },
      { value: false },
      { error: "EIO" },
      { error: "EIO" },
    ]);
    expect(order).toEqual([
      "put new",
      "put kept",
      "delete missing",
      "delete gone",
      "delete gone again",
    ]);
    // None of the failed writes shows, in this session or the next.
    const expectOld = async (s: typeof db) => {
      expect(await s.getString("new")).toBeUndefined();
      expect(await s.getString("kept")).toBe("old");
      expect(await s.getString("gone")).toBe("x");
      expect(s.stats().keys).toBe(2);
    };
    await expectOld(db);
    // The store takes no more writes: a later fsync that succeeds would not tell that the pages were lost.
    expect(db.readOnly).toBe(true);
    expect(db.stats().readOnlyReason).toMatch(/a write failed .*EIO/);
    await expect(db.put("after", "1")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    const again = await reopen(db, dir, { sync: "batch" });
    await expectOld(again);
    expect(again.recovery).toEqual([]);
    expect((await again.verify()).ok).toBe(true);
    await again.put("after", "1"); // a reopen writes again
    expect(await again.getString("after")).toBe("1");
    await again.close();
  });

  it("resolves a delete of a missing key joined to a running group that then fails", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    const release = gate();
    let started = false;
    mockDatasyncAsync(async () => {
      started = true;
      await release.opened;
      return EIO;
    });
    const put = outcome(db.put("a", "1"));
    await turn();
    expect(started).toBe(true); // the group's fdatasync is running
    const del = outcome(db.delete("b"));
    release.open();
    expect(await put).toEqual({ error: "EIO" });
    expect(await del).toEqual({ value: false });
    expect(await db.get("a")).toBeUndefined();
    await db.close();
  });

  it.each([
    ["succeeds", "1"],
    ["fails too", undefined],
  ])(
    "rejects the group before a failed one too, first, even when its own fdatasync then %s",
    async (_, firstValue) => {
      const dir = tempDir();
      const db = await open(dir, { sync: "batch" });
      await db.put("before", "1");
      // The first group's fdatasync returns only after the second group's has failed.
      secondFdatasyncFailsFirst(firstValue === undefined ? "fails" : "real");
      const { order, note } = settleOrder();
      const first = note("first", db.put("first", "1"));
      await turn();
      const second = note("second", db.put("second", "2"));
      expect(await second).toEqual({ error: "EIO" });
      // Both fdatasyncs ran on one descriptor: the kernel reports a writeback error to one of them only, so the
      // first one's success would prove nothing about its pages. It rejects too, and before the second (issue order).
      expect(await first).toEqual({ error: "EIO" });
      expect(order).toEqual(["first", "second"]);
      const check = async (s: typeof db) => {
        expect(await s.getString("before")).toBe("1");
        expect(await s.get("first")).toBeUndefined();
        expect(await s.get("second")).toBeUndefined();
      };
      await check(db);
      expect(db.recovery).toEqual([]);
      // Nothing reported as damage, and the next session writes again.
      await expectCleanReopen(db, dir, async (again) => {
        await check(again);
        expect(again.readOnly).toBe(false);
      });
    },
  );

  it("rejects the groups after a failed one too, and keeps the groups before it", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    const before = db.put("before", "1");
    await before;
    // The first fdatasync fails, but only after the next group's has started.
    const nextStarted = gate();
    mockDatasyncAsync(async (call, fd, real) => {
      if (call === 1) {
        await nextStarted.opened;
        return EIO;
      }
      nextStarted.open();
      return real(fd);
    });
    const first = outcome(db.put("first", "1"));
    await turn();
    const second = outcome(db.put("second", "2"));
    expect(await first).toEqual({ error: "EIO" });
    expect(await second).toEqual({ error: "EIO" });
    const check = async (s: typeof db) => {
      expect(await s.getString("before")).toBe("1");
      expect(await s.get("first")).toBeUndefined();
      expect(await s.get("second")).toBeUndefined();
    };
    await check(db);
    const again = await reopen(db, dir, { readOnly: true });
    await check(again);
    await again.close();
  });
});

describe("a delete of a key missing because of a delete in an earlier group", () => {
  it("shares that delete's fate, not the fate of the group it joined", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("x", "1");
    // The first group's fdatasync succeeds; the second's fails, after the first returned.
    const firstDone = gate();
    mockDatasyncAsync(async (call, fd, real) => {
      if (call === 1) {
        const r = await real(fd);
        setImmediate(firstDone.open);
        return r;
      }
      await firstDone.opened;
      return EIO;
    });
    const del = outcome(db.delete("x"));
    await turn(); // the first group's fdatasync runs
    const put = outcome(db.put("y", "2")); // starts the second group, which the next delete joins
    const again = outcome(db.delete("x")); // "x" is missing because of the first delete
    expect(await del).toEqual({ value: true });
    expect(await put).toEqual({ error: "EIO" });
    // Before: it rejected with the second group, though the delete its answer rests on succeeded.
    expect(await again).toEqual({ value: false });
    expect(await db.get("x")).toBeUndefined();
    await db.close();
  });

  it("rejects when that delete fails", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await db.put("x", "1");
    secondFdatasyncFailsFirst();
    const del = outcome(db.delete("x"));
    await turn();
    const put = outcome(db.put("y", "2"));
    const again = outcome(db.delete("x"));
    expect(await Promise.all([del, put, again])).toEqual([
      { error: "EIO" },
      { error: "EIO" },
      { error: "EIO" },
    ]);
    expect(await db.getString("x")).toBe("1");
    await db.close();
  });
});

describe("a group that fails while a compaction runs", () => {
  it("stops the compaction, and the store reopens with every acknowledged write", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "never", maxFileSize: 64 * 1024 });
    for (let i = 0; i < 3000; i++) void db.put(`k${i}`, `old ${i}`);
    await db.close();
    const writer = await open(dir, { sync: "batch", maxFileSize: 64 * 1024 });
    const compaction = outcome(writer.compact());
    await writer.put("k1", "acknowledged");
    failNext("datasyncAsync");
    const failed = outcome(writer.put("k2", "failed"));
    expect(await failed).toEqual({ error: "EIO" });
    // Stopped at its next yield (the key directory it walked was loaded again), or it had finished.
    expect([{ error: "ERR_KV_READ_ONLY" }, { value: expect.anything() }]).toContainEqual(
      await compaction,
    );
    const check = async (s: typeof db) => {
      expect(await s.getString("k1")).toBe("acknowledged");
      expect(await s.getString("k2")).toBe("old 2");
      expect(await s.getString("k2999")).toBe("old 2999");
      expect(s.stats().keys).toBe(3000);
    };
    await check(writer);
    await expectCleanReopen(writer, dir, check);
  });
});

describe("a write whose fdatasync fails (sync: always)", () => {
  it("rejects, leaves no trace, and the store takes no more writes", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "always" });
    await db.put("a", "1");
    failNext("datasync");
    await expect(db.put("a", "2")).rejects.toMatchObject({ code: "EIO" });
    expect(await db.getString("a")).toBe("1");
    await expect(db.delete("a")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    const again = await reopen(db, dir);
    expect(await again.getString("a")).toBe("1");
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  });
});

describe("a rotation whose seal fails", () => {
  it("rejects the writes waiting for their group too, rather than let its next fdatasync acknowledge them", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch", maxFileSize: 4096 });
    await db.put("kept", "1");
    failNext("sync");
    // One turn: "a" waits for its group's fdatasync; the large value fills the file, so its put seals it first.
    const a = outcome(db.put("a", "waiting"));
    const big = outcome(db.put("big", "x".repeat(5000)));
    expect(await big).toEqual({ error: "EIO" });
    expect(await a).toEqual({ error: "EIO" });
    expect(db.readOnly).toBe(true);
    expect(await db.get("a")).toBeUndefined();
    expect(await db.getString("kept")).toBe("1");
    await expectCleanReopen(db, dir, async (again) => {
      expect(await again.get("a")).toBeUndefined();
      expect(await again.getString("kept")).toBe("1");
    });
  });
});
