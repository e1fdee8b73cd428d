import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { crc32, open } from "../src";
import { HEADER_SIZE } from "../src/record";
import { dataFiles, flipByte, hintOf, recordOffsets, tempDir, twoFiles } from "./helpers";

// Metadata that is damaged, or not this store's: hints, the marker, DAMAGED notes, files the store did not write.
// (Planted links: planted-links.test.ts; backups: backup.test.ts.)

describe("a hint file", () => {
  it("is covered by its checksum up to its last byte: a changed footer makes it unused, not damage", async () => {
    const dir = tempDir();
    const db = await open(dir);
    for (let i = 0; i < 5; i++) await db.put(`k${i}`, `v${i}`);
    await db.close();
    const hint = hintOf(dir, 0);
    const bytes = fs.readFileSync(hint);
    // The footer's covered length (bytes 4..11 of the 24-byte footer), made larger than the data file.
    bytes[bytes.length - 18] = bytes[bytes.length - 18]! ^ 0x01;
    fs.writeFileSync(hint, bytes);
    const again = await open(dir);
    expect(again.recovery).toEqual([]);
    expect(again.readOnly).toBe(false);
    expect(await again.getString("k4")).toBe("v4");
    await again.close();
    expect(fs.existsSync(hint)).toBe(true); // rewritten on close
  });

  it("copied over another's, is damage: no older value and no deleted key answers", async () => {
    const dir = await twoFiles();
    fs.copyFileSync(hintOf(dir, 0), hintOf(dir, 1));
    for (const readOnly of [true, false]) {
      const db = await open(dir, { readOnly });
      expect(db.readOnly).toBe(true);
      expect(db.recovery.some((r) => r.kind === "corrupt")).toBe(true);
      // a's newest record is in file 2: never the "1" of file 1.
      const a = await db.getString("a").then(
        (v) => v,
        (e: { code?: string }) => e.code,
      );
      expect(["2", "ERR_KV_CORRUPT"]).toContain(a);
      // c was deleted in file 2: it must not come back.
      const c = await db.getString("c").then(
        (v) => v,
        (e: { code?: string }) => e.code,
      );
      expect([undefined, "ERR_KV_CORRUPT"]).toContain(c);
      await db.close();
    }
  });

  it("whose checksum holds but whose lengths are beyond 2^53 is unused, never an untyped error", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("k", "v");
    await db.close();
    // The footer of the first format: its CRC covered the entries only, so any count or length passed it.
    const footer = new Uint8Array(24);
    const view = new DataView(footer.buffer);
    view.setInt32(0, 0);
    view.setUint32(4, 0xffffffff); // coveredLength: 2^64 - 1
    view.setUint32(8, 0xffffffff);
    view.setUint32(12, crc32(new Uint8Array(0)));
    footer.set(Buffer.from("RKVHINT1"), 16);
    fs.writeFileSync(hintOf(dir, 0), footer);
    const again = await open(dir);
    expect(again.recovery).toEqual([]);
    expect(await again.getString("k")).toBe("v");
    await again.close();
  });
});

describe("damage a read-only open found", () => {
  it("is remembered: the next writable open is read-only too", async () => {
    const dir = tempDir();
    const db = await open(dir);
    for (let i = 0; i < 10; i++) await db.put(`k${i}`, `value-${i}`);
    await db.close();
    const file = path.join(dir, dataFiles(dir)[0]!);
    flipByte(file, recordOffsets(file)[5]! + HEADER_SIZE + 3); // k5's value; the hint hides it
    const reader = await open(dir, { readOnly: true });
    await expect(reader.get("k5")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    await reader.close();
    const writer = await open(dir);
    expect(writer.readOnly).toBe(true);
    expect(writer.stats().readOnlyReason).toMatch(/corrupt record in 0+1\.data/);
    await expect(writer.put("x", "y")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    await writer.close();
  });
});

describe("a compaction marker that is not this store's", () => {
  it("is reported, and no data file is deleted", async () => {
    const dir = await twoFiles();
    const other = tempDir();
    const db = await open(other, { maxFileSize: 1 });
    for (let i = 0; i < 6; i++) await db.put(`x${i}`, "y");
    await db.compact();
    await db.close();
    fs.copyFileSync(path.join(other, "MERGED"), path.join(dir, "MERGED"));
    const before = dataFiles(dir);
    await expect(open(dir)).rejects.toMatchObject({
      code: "ERR_KV_CORRUPT",
      message: expect.stringMatching(/above every data file.*nothing was deleted/),
    });
    expect(dataFiles(dir)).toEqual(before);
    fs.rmSync(path.join(dir, "MERGED"));
    const reopened = await open(dir);
    expect(await reopened.getString("a")).toBe("2");
    await reopened.close();
  });
});

describe("files the store did not write", () => {
  it("with ids no store numbers are moved into lost+found, and do not take over the numbering", async () => {
    const dir = await twoFiles();
    const real = fs.readFileSync(path.join(dir, dataFiles(dir)[1]!));
    fs.writeFileSync(path.join(dir, "9999999999.data"), "not ours");
    fs.writeFileSync(path.join(dir, "2147483648.data"), real); // a copy of a real file, past 32 bits
    fs.writeFileSync(path.join(dir, "0000000000.hint"), "junk");
    const db = await open(dir);
    expect(db.readOnly).toBe(false);
    expect(db.recovery.map((r) => [r.file, r.kind, r.action]).sort()).toEqual([
      ["0000000000.hint", "foreign", "moved"],
      ["2147483648.data", "foreign", "moved"],
      ["9999999999.data", "foreign", "moved"],
    ]);
    await db.put("new", "value");
    await db.close();
    expect(fs.readFileSync(path.join(dir, "lost+found", "9999999999.data"), "utf8")).toBe(
      "not ours",
    );
    expect(fs.readFileSync(path.join(dir, "lost+found", "2147483648.data"))).toEqual(real);
    expect(dataFiles(dir).every((f) => Number(f.slice(0, 10)) < 100)).toBe(true);
    const again = await open(dir);
    expect(await again.getString("new")).toBe("value");
    expect(await again.getString("a")).toBe("2");
    await again.close();
  });

  it("with no valid record at all are kept aside byte for byte, never cut with success", async () => {
    const dir = await twoFiles();
    const garbage = Buffer.alloc(3000, 0xa5);
    const name = "0000000050.data";
    fs.writeFileSync(path.join(dir, name), garbage);
    const reader = await open(dir, { readOnly: true });
    expect(reader.recovery).toEqual([expect.objectContaining({ file: name, action: "ignored" })]);
    await reader.close();
    expect(fs.readFileSync(path.join(dir, name))).toEqual(garbage);
    const db = await open(dir);
    expect(db.recovery).toEqual([
      expect.objectContaining({ file: name, kind: "foreign", action: "moved", bytes: 3000 }),
    ]);
    expect(db.readOnly).toBe(false);
    await db.put("next", "one");
    await db.close();
    expect(fs.readFileSync(path.join(dir, "lost+found", name))).toEqual(garbage);
    const again = await open(dir);
    expect(await again.getString("next")).toBe("one");
    await again.close();
  });

  it("below the marker are kept aside, not deleted as a compaction's obsolete inputs", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 1 });
    for (let i = 0; i < 4; i++) await db.put(`k${i}`, "v");
    await db.compact();
    await db.close();
    fs.writeFileSync(path.join(dir, "0000000001.data"), "foreign bytes, below the marker");
    const again = await open(dir);
    expect(again.recovery).toEqual([
      expect.objectContaining({ file: "0000000001.data", action: "moved" }),
    ]);
    await again.close();
    expect(fs.existsSync(path.join(dir, "lost+found", "0000000001.data"))).toBe(true);
  });
});

describe("repair", () => {
  it("moves a data file whose damaged records it dropped into lost+found, never deleting it", async () => {
    const dir = tempDir();
    let db = await open(dir);
    for (let i = 0; i < 10; i++) await db.put(`k${i}`, `value-${i}`);
    await db.close();
    const name = dataFiles(dir)[0]!;
    const file = path.join(dir, name);
    fs.rmSync(file.replace(/\.data$/, ".hint"));
    flipByte(file, fs.readFileSync(file).indexOf("value-4") + 2);
    const damaged = fs.readFileSync(file);
    db = await open(dir, { repair: true });
    expect(db.recovery).toEqual([expect.objectContaining({ kind: "corrupt", action: "skipped" })]);
    expect(await db.getString("k5")).toBe("value-5");
    await db.close();
    expect(fs.readFileSync(path.join(dir, "lost+found", name))).toEqual(damaged);
  });
});

describe("an empty stray data file with a huge id", () => {
  it("is moved aside and does not take over the numbering", async () => {
    const dir = await twoFiles();
    fs.writeFileSync(path.join(dir, "2000000000.data"), "");
    const db = await open(dir);
    expect(db.recovery).toEqual([
      expect.objectContaining({ file: "2000000000.data", kind: "foreign", action: "moved" }),
    ]);
    await db.put("n", "1");
    await db.close();
    expect(dataFiles(dir).every((f) => Number(f.slice(0, 10)) < 100)).toBe(true);
    const again = await open(dir);
    expect(await again.getString("n")).toBe("1");
    await again.close();
  });
});
