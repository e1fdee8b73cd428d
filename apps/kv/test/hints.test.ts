import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { encodeRecord, HEADER_SIZE } from "../src/record";
import { dataFiles, flipByte, tempDir } from "./helpers";

// Damage in a data file that a hint file covers: open trusts the hint (it does not read those records), so the
// damage shows when a record is read, by verify, or by a repair, which reads every record.

/** A store of `n` keys closed cleanly, so its data file has a hint; its first data file. */
async function hintedStore(n: number, maxFileSize?: number) {
  const dir = tempDir();
  const db = await open(dir, maxFileSize === undefined ? {} : { maxFileSize });
  for (let i = 0; i < n; i++) await db.put(`k${i}`, `value-${i}`);
  await db.close();
  const file = path.join(dir, dataFiles(dir)[0]!);
  expect(fs.existsSync(file.replace(/\.data$/, ".hint"))).toBe(true);
  return { dir, file };
}
const recordBytes = (i: number) =>
  encodeRecord(1, Buffer.from(`k${i}`), Buffer.from(`value-${i}`)).length;

describe("hint files and damage", () => {
  it("a record found corrupt when read makes the store read-only, and a repair drops only that record", async () => {
    const { dir, file } = await hintedStore(20);
    let offset = 0;
    for (let i = 0; i < 6; i++) offset += recordBytes(i);
    flipByte(file, offset + HEADER_SIZE + 3); // inside k6's value
    const db = await open(dir);
    expect(db.readOnly).toBe(false); // the hint was trusted
    expect(await db.getString("k5")).toBe("value-5");
    await expect(db.get("k6")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    expect(db.readOnly).toBe(true);
    expect(db.stats().readOnlyReason).toMatch(
      /corrupt record in 0+1\.data at offset \d+ \(open with repair/,
    );
    expect(db.recovery).toEqual([expect.objectContaining({ kind: "corrupt", offset })]);
    await expect(db.put("x", "y")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    await expect(db.compact()).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    expect(await db.getString("k7")).toBe("value-7"); // the others still read
    await db.close();

    const repaired = await open(dir, { repair: true });
    expect(repaired.readOnly).toBe(false);
    expect(repaired.recovery).toEqual([
      expect.objectContaining({ kind: "corrupt", offset, action: "skipped" }),
    ]);
    expect(repaired.stats().keys).toBe(19);
    expect(await repaired.get("k6")).toBeUndefined();
    await repaired.put("x", "y");
    await repaired.close();
    const clean = await open(dir);
    expect((await clean.verify()).ok).toBe(true);
    expect(await clean.getString("k19")).toBe("value-19");
    expect(await clean.getString("x")).toBe("y");
    await clean.close();
  });

  it("the acknowledged writes before such a find are kept: close still seals the active file", async () => {
    const { dir, file } = await hintedStore(5);
    flipByte(file, recordBytes(0) + recordBytes(1) + HEADER_SIZE + 3); // k2's value
    const db = await open(dir, { sync: "never" });
    await db.put("late", "write");
    await expect(db.get("k2")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect(await again.getString("late")).toBe("write");
    await again.close();
  });

  it.each([
    ["shorter", "x"],
    ["longer", "x".repeat(40)],
  ])(
    "a hint of other data (copied from another store, %s) is not used, and a writer drops it",
    async (_, pad) => {
      const a = await hintedStore(10);
      const b = tempDir();
      let db = await open(b);
      for (let i = 0; i < 10; i++) await db.put(`other${i}`, `${pad}${i}`);
      await db.close();
      const hint = path.basename(a.file).replace(/\.data$/, ".hint");
      fs.copyFileSync(path.join(a.dir, hint), path.join(b, hint));

      db = await open(b, { readOnly: true });
      expect(await db.get("k1")).toBeUndefined(); // no phantom keys
      expect(await db.getString("other1")).toBe(`${pad}1`);
      expect(db.stats().keys).toBe(10);
      expect((await db.verify()).problems.join()).toMatch(/does not match/);
      await db.close();

      db = await open(b);
      expect(db.stats().keys).toBe(10);
      expect(fs.existsSync(path.join(b, hint))).toBe(false);
      expect((await db.verify()).ok).toBe(true);
      await db.close();
    },
  );

  it("a sealed file shorter than its hint lost data: reported, read-only, and a repair keeps the rest", async () => {
    const { dir, file } = await hintedStore(100, 1024);
    expect(dataFiles(dir).length).toBeGreaterThan(2);
    const size = fs.statSync(file).size;
    fs.truncateSync(file, size - 100);

    const db = await open(dir);
    expect(db.readOnly).toBe(true);
    expect(db.stats().readOnlyReason).toMatch(/corrupt/);
    // The lost bytes, and the record they cut in two (its start is a torn tail, left alone while read-only).
    expect(db.recovery).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "corrupt",
          offset: size - 100,
          bytes: 100,
          action: "ignored",
        }),
        expect.objectContaining({ kind: "torn-tail", action: "ignored" }),
      ]),
    );
    await db.close();
    // Still the case on the next open: the evidence (the hint) was kept.
    const again = await open(dir);
    expect(again.readOnly).toBe(true);
    await again.close();

    const repaired = await open(dir, { repair: true });
    expect(repaired.readOnly).toBe(false);
    expect(repaired.recovery[0]).toMatchObject({ kind: "corrupt", action: "skipped" });
    const keys = repaired.stats().keys;
    expect(keys).toBeLessThan(100);
    expect(keys).toBeGreaterThan(90);
    expect(await repaired.getString("k99")).toBe("value-99");
    await repaired.close();
    const clean = await open(dir);
    expect(clean.readOnly).toBe(false);
    expect((await clean.verify()).ok).toBe(true);
    expect(clean.stats().keys).toBe(keys);
    await clean.close();
  });
});

describe("opening what is not a store", () => {
  it("a read-only open of a directory without a store fails and leaves nothing there", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "notes.txt"), "hi");
    await expect(open(dir, { readOnly: true })).rejects.toMatchObject({ code: "ERR_KV_NO_STORE" });
    expect(fs.readdirSync(dir)).toEqual(["notes.txt"]);
    // A store that was created and never written is one.
    const empty = tempDir();
    await (await open(empty)).close();
    const db = await open(empty, { readOnly: true });
    expect(db.stats().keys).toBe(0);
    await db.close();
  });
});
