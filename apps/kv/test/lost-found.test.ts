import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { encodeRecord, HEADER_SIZE } from "../src/record";
import { dataFiles, flipByte, tempDir } from "./helpers";
import { rafkv } from "./rafkv";

// Nothing recovery cuts goes without a trace: a torn tail's bytes are copied into lost+found before the cut, and a
// data file with no valid record is moved there whole.

/** A store of `n` puts in one sealed data file, without its hint (so that the file is scanned). */
async function storeWith(n: number): Promise<{ dir: string; file: string }> {
  const dir = tempDir();
  const db = await open(dir);
  for (let i = 0; i < n; i++) await db.put(`k${i}`, `value-${i}`);
  await db.close();
  for (const h of fs.readdirSync(dir)) if (h.endsWith(".hint")) fs.rmSync(path.join(dir, h));
  return { dir, file: path.join(dir, dataFiles(dir)[0]!) };
}

const lostFound = (dir: string) => {
  const folder = path.join(dir, "lost+found");
  return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
};

describe("a torn tail", () => {
  it("is copied into lost+found, named after its file and offset, before a writable open cuts it", async () => {
    const { dir, file } = await storeWith(3);
    const size = fs.statSync(file).size;
    const garbage = Buffer.alloc(100, 0xab);
    fs.appendFileSync(file, garbage);
    const reader = await open(dir, { readOnly: true });
    expect(reader.recovery).toEqual([
      expect.objectContaining({ kind: "torn-tail", action: "ignored", bytes: 100 }),
    ]);
    expect(reader.recovery[0]!.keptAs).toBeUndefined();
    await reader.close();
    expect(lostFound(dir)).toEqual([]); // a reader changes nothing
    const db = await open(dir);
    const kept = `lost+found/${dataFiles(dir)[0]}.cut-at-${size}`;
    expect(db.recovery).toEqual([
      {
        file: dataFiles(dir)[0],
        offset: size,
        kind: "torn-tail",
        action: "truncated",
        bytes: 100,
        keptAs: kept,
      },
    ]);
    expect(fs.readFileSync(path.join(dir, kept))).toEqual(garbage);
    expect(fs.statSync(file).size).toBe(size);
    expect(await db.getString("k2")).toBe("value-2");
    const report = await db.verify();
    expect(report).toMatchObject({ ok: true, keptAside: [kept] });
    await db.close();
  });

  it("that is damage to the last fsynced group (no sync point after it to attest it) keeps every byte it cut", async () => {
    // The case docs/RECOVERY.md cannot tell from a power cut: the writer's last groups, fsynced, then damaged.
    const source = tempDir();
    const writer = await open(source, { sync: "batch" });
    for (let group = 0; group < 4; group++) {
      await Promise.all([0, 1, 2].map((i) => writer.put(`g${group}-${i}`, `value-${group}-${i}`)));
    }
    const name = dataFiles(source)[0]!;
    const bytes = fs.readFileSync(path.join(source, name)); // the active file, as a crash leaves it
    await writer.close();
    const dir = tempDir();
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    // The last group's first record: right after the last sync point.
    const last = bytes.lastIndexOf("RKVSYNC1") + 8;
    flipByte(file, last + HEADER_SIZE + 3);
    const damaged = fs.readFileSync(file);
    let end = damaged.length;
    while (damaged[end - 1] === 0) end--;
    const db = await open(dir);
    expect(db.readOnly).toBe(false);
    const issue = db.recovery.find((r) => r.kind === "torn-tail")!;
    expect(issue).toMatchObject({ offset: last, action: "truncated", bytes: end - last });
    expect(fs.readFileSync(path.join(dir, issue.keptAs!))).toEqual(damaged.subarray(last, end));
    // The group's intact records are gone from the store, but not from the disk: they are in the copy.
    expect(await db.get("g3-2")).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, issue.keptAs!)).includes("value-3-2")).toBe(true);
    expect(await db.getString("g2-2")).toBe("value-2-2");
    await db.close();
  });

  it("kept by an open that a crash stopped before its cut is not copied again", async () => {
    const { dir, file } = await storeWith(3);
    const size = fs.statSync(file).size;
    const name = dataFiles(dir)[0]!;
    fs.appendFileSync(file, Buffer.alloc(50, 0xab));
    fs.mkdirSync(path.join(dir, "lost+found"));
    // The copy as the crashed open left it.
    fs.writeFileSync(
      path.join(dir, "lost+found", `${name}.cut-at-${size}`),
      Buffer.alloc(50, 0xab),
    );
    const db = await open(dir);
    expect(db.recovery).toEqual([
      expect.objectContaining({ keptAs: `lost+found/${name}.cut-at-${size}` }),
    ]);
    await db.close();
    expect(lostFound(dir)).toEqual([`${name}.cut-at-${size}`]);
    // Different bytes under that name (another tail at the same offset, after a later crash): a copy of its own.
    fs.appendFileSync(file, Buffer.alloc(60, 0xcd));
    const again = await open(dir);
    expect(again.recovery).toEqual([
      expect.objectContaining({ keptAs: `lost+found/${name}.cut-at-${size}.1` }),
    ]);
    await again.close();
    expect(fs.readFileSync(path.join(dir, "lost+found", `${name}.cut-at-${size}.1`))).toEqual(
      Buffer.alloc(60, 0xcd),
    );
  });
});

describe("lost+found", () => {
  it("planted as a symbolic link is refused, and nothing is cut or moved through it", async () => {
    const { dir, file } = await storeWith(3);
    const size = fs.statSync(file).size;
    fs.appendFileSync(file, Buffer.alloc(100, 0xab));
    const elsewhere = tempDir();
    fs.symlinkSync(elsewhere, path.join(dir, "lost+found"));
    await expect(open(dir)).rejects.toMatchObject({ code: "ELOOP" });
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    expect(fs.statSync(file).size).toBe(size + 100);
  });
});

describe("a data file of the store's with no valid record", () => {
  /** A sealed file 1 holding a=1, and a hint-less newest file 2 whose only record (b=2) is damaged. */
  async function damagedOnlyRecord(): Promise<{ dir: string; name: string; bytes: Buffer }> {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("a", "1");
    await db.close();
    const name = "0000000002.data";
    const record = Buffer.from(encodeRecord(Date.now() * 1000, Buffer.from("b"), Buffer.from("2")));
    record[record.length - 1] = record[record.length - 1]! ^ 0xff;
    fs.writeFileSync(path.join(dir, name), record);
    return { dir, name, bytes: record };
  }

  it("is moved into lost+found whole, reported, never cut to nothing with success", async () => {
    const { dir, name, bytes } = await damagedOnlyRecord();
    const reader = await open(dir, { readOnly: true });
    expect(reader.recovery).toEqual([
      { file: name, offset: 0, kind: "torn-tail", action: "ignored", bytes: bytes.length },
    ]);
    await reader.close();
    expect(fs.readFileSync(path.join(dir, name))).toEqual(bytes);
    const db = await open(dir);
    expect(db.readOnly).toBe(false);
    expect(db.recovery).toEqual([
      {
        file: name,
        offset: 0,
        kind: "torn-tail",
        action: "moved",
        bytes: bytes.length,
        keptAs: `lost+found/${name}`,
      },
    ]);
    expect(fs.readFileSync(path.join(dir, "lost+found", name))).toEqual(bytes);
    expect(await db.getString("a")).toBe("1");
    await db.put("c", "3");
    await db.close();
    // The new active file is numbered above the one moved aside.
    expect(dataFiles(dir)).toEqual(["0000000001.data", "0000000003.data"]);
    const again = await open(dir);
    expect(again.recovery).toEqual([]);
    expect(await again.getString("c")).toBe("3");
    await again.close();
  });

  it("numbered far above the others is a stray: moved aside, and it does not take over the numbering", async () => {
    const { dir, name, bytes } = await damagedOnlyRecord();
    const stray = "2000000000.data";
    fs.renameSync(path.join(dir, name), path.join(dir, stray));
    const db = await open(dir);
    expect(db.recovery).toEqual([
      expect.objectContaining({ file: stray, action: "moved", keptAs: `lost+found/${stray}` }),
    ]);
    await db.put("c", "3");
    await db.close();
    expect(fs.readFileSync(path.join(dir, "lost+found", stray))).toEqual(bytes);
    expect(dataFiles(dir)).toEqual(["0000000001.data", "0000000002.data"]);
  });

  it("is noted by the CLI command whose open moved it, and by verify afterwards", async () => {
    const { dir, name } = await damagedOnlyRecord();
    const put = await rafkv([dir, "put", "c", "3"]);
    expect(put.code, put.err).toBe(0);
    expect(put.err).toBe(
      `note ${name}: no valid record (${fs.statSync(path.join(dir, "lost+found", name)).size} bytes), moved aside; kept as lost+found/${name}\n`,
    );
    const verify = await rafkv([dir, "verify"]);
    expect(verify.code).toBe(0);
    expect(verify.err).toContain(
      `note lost+found/${name}: kept aside by an earlier open (not part of the store)`,
    );
  });
});

describe("the CLI", () => {
  it("notes a torn tail that a writing command's open cut, and where its bytes are", async () => {
    const { dir, file } = await storeWith(3);
    const size = fs.statSync(file).size;
    fs.appendFileSync(file, Buffer.alloc(10, 0xab));
    const del = await rafkv([dir, "del", "k0"]);
    expect(del.code, del.err).toBe(0);
    expect(del.err).toBe(
      `note ${dataFiles(dir)[0]}: torn tail at offset ${size} (10 bytes) cut off; kept as lost+found/${dataFiles(dir)[0]}.cut-at-${size}\n`,
    );
  });
});
