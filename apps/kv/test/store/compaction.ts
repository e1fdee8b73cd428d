import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../../src";
import { compactedWithDamagedMarker, tempDir } from "../helpers";

describe("compaction", () => {
  it("reclaims space and keeps reads and writes going while it runs", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 8192, sync: "never" });
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < 400; i++) await db.put(`k${i}`, `r${round}-${i}`);
    for (let i = 0; i < 400; i += 2) await db.delete(`k${i}`);
    const before = db.stats();
    const progress: number[] = [];
    const running = db.compact({ onProgress: (done) => progress.push(done) });
    const during: Promise<unknown>[] = [];
    for (let i = 0; i < 50; i++) {
      during.push(db.put(`k${i}`, `during-${i}`), db.get(`k${i + 100}`));
    }
    expect(db.compact()).toBe(running); // one run at a time
    const result = await running;
    await Promise.all(during);
    expect(progress.length).toBeGreaterThan(0);
    expect(result.records).toBeGreaterThan(0);
    const after = db.stats();
    expect(after.totalBytes).toBeLessThan(before.totalBytes / 3);
    expect(after.compactions).toBe(1);
    for (let i = 0; i < 400; i++) {
      const expected = i < 50 ? `during-${i}` : i % 2 ? `r4-${i}` : undefined;
      expect(await db.getString(`k${i}`)).toBe(expected);
    }
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect(again.stats().keys).toBe(225);
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  });

  it("survives a crash at each step of the switch: before the marker, after it, before the deletes", async () => {
    const dir = tempDir();
    let db = await open(dir, { maxFileSize: 1024 });
    for (let i = 0; i < 40; i++) await db.put(`k${i}`, `old-${i}`);
    for (let i = 0; i < 40; i += 4) await db.delete(`k${i}`); // tombstones that compaction drops
    for (let i = 1; i < 40; i += 4) await db.put(`k${i}`, `new-${i}`);
    await db.close();
    const inputs = new Map(fs.readdirSync(dir).map((n) => [n, fs.readFileSync(path.join(dir, n))]));
    db = await open(dir, { maxFileSize: 1024 });
    await db.compact();
    await db.close();
    const expectAll = async () => {
      const s = await open(dir, { readOnly: true });
      for (let i = 0; i < 40; i++) {
        const expected = i % 4 === 0 ? undefined : i % 4 === 1 ? `new-${i}` : `old-${i}`;
        expect(await s.getString(`k${i}`), `k${i}`).toBe(expected);
      }
      await s.close();
    };
    const restoreInputs = () => {
      for (const [n, b] of inputs)
        if (n.endsWith(".data") || n.endsWith(".hint")) fs.writeFileSync(path.join(dir, n), b);
    };
    // Crash after the marker while deleting the inputs, oldest first: the survivors hold old values whose
    // tombstones are gone, and the marker alone keeps them from coming back.
    const oldest = [...inputs.keys()].filter((n) => n.endsWith(".data")).sort()[0]!;
    fs.writeFileSync(path.join(dir, oldest), inputs.get(oldest)!);
    await expectAll();
    // Crash after the marker but before any input was deleted.
    restoreInputs();
    await expectAll();
    const rw = await open(dir);
    await rw.close();
    for (const n of inputs.keys())
      if (n.endsWith(".data")) expect(fs.existsSync(path.join(dir, n))).toBe(false);
    // Crash after the outputs were renamed but before the marker: duplicates, resolved by timestamp.
    restoreInputs();
    fs.rmSync(path.join(dir, "MERGED"));
    await expectAll();
    // Crash while an output was still a temp file.
    fs.writeFileSync(path.join(dir, "0000000099.data.tmp"), "partial");
    await expectAll();
    const cleaner = await open(dir);
    await cleaner.close();
    expect(fs.existsSync(path.join(dir, "0000000099.data.tmp"))).toBe(false);
    await expectAll();
  });

  it("refuses a damaged compaction marker unless repairing", async () => {
    const dir = await compactedWithDamagedMarker(6);
    await expect(open(dir)).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    const repaired = await open(dir, { repair: true });
    expect(await repaired.getString("a")).toBe("1");
    await repaired.close();
  });

  it("stops a running compaction on close without losing anything", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "never" });
    for (let i = 0; i < 3000; i++) await db.put(`k${i}`, `v${i}`);
    const running = db.compact();
    await db.close();
    await expect(running).rejects.toMatchObject({ code: "ERR_KV_CLOSED" });
    const again = await open(dir);
    expect(again.stats().keys).toBe(3000);
    expect(fs.readdirSync(dir).some((n) => n.endsWith(".tmp"))).toBe(false);
    await again.close();
  });
});
