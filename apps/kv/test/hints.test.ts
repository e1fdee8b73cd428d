import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { HEADER_SIZE } from "../src/record";
import { realDirectory } from "../src/store-dir";
import { dataFiles, flipByte, recordOffsets, tempDir } from "./helpers";

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

describe("hint files and damage", () => {
  it("a record found corrupt when read makes the store read-only, and a repair drops only that record", async () => {
    const { dir, file } = await hintedStore(20);
    const offset = recordOffsets(file)[6]!;
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
    flipByte(file, recordOffsets(file)[2]! + HEADER_SIZE + 3); // k2's value
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
    "a hint of other data (copied from another store, %s) is reported as damage, and a repair rescans",
    async (_, pad) => {
      const a = await hintedStore(10);
      const b = tempDir();
      let db = await open(b);
      for (let i = 0; i < 10; i++) await db.put(`other${i}`, `${pad}${i}`);
      await db.close();
      const hint = path.basename(a.file).replace(/\.data$/, ".hint");
      fs.copyFileSync(path.join(a.dir, hint), path.join(b, hint));

      // The hint disagrees with the data: damage, whatever its cause. Nothing wrong is returned.
      db = await open(b);
      expect(db.readOnly).toBe(true);
      expect(db.recovery).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: path.basename(a.file), kind: "corrupt" }),
        ]),
      );
      await expect(db.get("k1")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
      expect((await db.verify()).problems.join()).toMatch(/does not match/);
      await db.close();
      expect(fs.existsSync(path.join(b, hint))).toBe(true); // kept as the evidence

      db = await open(b, { repair: true });
      expect(db.readOnly).toBe(false);
      expect(db.stats().keys).toBe(10);
      expect(await db.getString("other1")).toBe(`${pad}1`);
      expect(await db.get("k1")).toBeUndefined();
      await db.close();
      db = await open(b);
      expect(db.readOnly).toBe(false);
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
    expect(db.recovery).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "corrupt",
          offset: size - 100,
          bytes: 100,
          action: "ignored",
        }),
      ]),
    );
    // The keys whose records were in the lost bytes are not silently older or gone: their reads fail.
    const all = [...Array(100).keys()].map((i) => `k${i}`);
    const results = await Promise.allSettled(all.map((k) => db.get(k)));
    expect(results.some((r) => r.status === "rejected" && r.reason.code === "ERR_KV_CORRUPT")).toBe(
      true,
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

describe("damage at the edges of a hinted file (the records open checks)", () => {
  /** `a` written twice; its newer record first or last in a sealed file with a hint. */
  async function twoVersions(position: "first" | "last") {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 300 });
    await db.put("a", "OLDVALUE");
    await db.put("big1", "x".repeat(280)); // seals file 1
    if (position === "last") await db.put("b", "before");
    await db.put("a", "NEWVALUE");
    if (position === "first") await db.put("b", "after");
    await db.put("big2", "y".repeat(280)); // seals the file holding the new `a`
    await db.close();
    const files = dataFiles(dir);
    const holder = files
      .map((f) => path.join(dir, f))
      .find((f) => fs.readFileSync(f).includes("NEWVALUE"))!;
    const at = fs.readFileSync(holder).indexOf("NEWVALUE");
    expect(fs.existsSync(holder.replace(/\.data$/, ".hint"))).toBe(true);
    return { dir, holder, at };
  }

  it.each(["first", "last"] as const)(
    "a damaged %s record is never cut off or answered with the older value; a repair drops the key",
    async (position) => {
      const { dir, holder, at } = await twoVersions(position);
      flipByte(holder, at + 2);
      const size = fs.statSync(holder).size;
      const db = await open(dir);
      await expect(db.get("a")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
      expect(db.readOnly).toBe(true);
      await db.close();
      expect(fs.statSync(holder).size).toBe(size);
      expect(fs.existsSync(holder.replace(/\.data$/, ".hint"))).toBe(true);
      // A reader sees the same.
      const reader = await open(dir, { readOnly: true });
      await expect(reader.get("a")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
      await reader.close();

      const repaired = await open(dir, { repair: true });
      expect(await repaired.get("a")).toBeUndefined(); // dropped, not the older value
      expect(await repaired.getString("b")).toBe(position === "last" ? "before" : "after");
      await repaired.close();
      const clean = await open(dir);
      expect(clean.readOnly).toBe(false);
      expect((await clean.verify()).ok).toBe(true);
      await clean.close();
    },
  );

  it.each([10, 0])(
    "a sealed file cut to %i bytes, below its first record, is lost data",
    async (keep) => {
      const { dir, holder } = await twoVersions("first");
      fs.truncateSync(holder, keep);
      const db = await open(dir);
      expect(db.readOnly).toBe(true);
      expect(db.recovery).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: path.basename(holder), kind: "corrupt", offset: keep }),
        ]),
      );
      await expect(db.get("a")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
      await db.close();
      expect(fs.existsSync(holder)).toBe(true);
    },
  );
});

describe("damage a read finds is remembered", () => {
  it("the next open is read-only too, until a repair", async () => {
    const { dir, file } = await hintedStore(10);
    const offset = recordOffsets(file)[4]!;
    flipByte(file, offset + HEADER_SIZE + 3); // k4
    let db = await open(dir);
    await expect(db.get("k4")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    await db.close();
    db = await open(dir);
    expect(db.readOnly).toBe(true);
    expect(db.recovery).toEqual([expect.objectContaining({ offset, kind: "corrupt" })]);
    await db.close();
    db = await open(dir, { repair: true });
    expect(db.readOnly).toBe(false);
    expect(db.stats().keys).toBe(9);
    await db.close();
    expect(fs.existsSync(path.join(dir, "DAMAGED"))).toBe(false);
    db = await open(dir);
    expect(db.readOnly).toBe(false);
    await db.close();
  });

  it("repair needs a writable open, and a refused one leaves the store free", async () => {
    const { dir } = await hintedStore(3);
    await expect(open(dir, { readOnly: true, repair: true })).rejects.toMatchObject({
      code: "ERR_KV_INVALID_ARG",
    });
    const db = await open(dir);
    await db.close();
  });
});

describe("directories that are not stores", () => {
  it("are refused unless empty and the open may create a store", async () => {
    const leveldb = tempDir();
    for (const name of ["LOCK", "LOG", "CURRENT", "MANIFEST-000001", "000005.ldb"])
      fs.writeFileSync(path.join(leveldb, name), "x");
    const before = fs.readdirSync(leveldb).sort();
    for (const options of [{ readOnly: true }, { create: false }, {}]) {
      await expect(open(leveldb, options)).rejects.toMatchObject({ code: "ERR_KV_NO_STORE" });
    }
    expect(fs.readdirSync(leveldb).sort()).toEqual(before);
    const empty = tempDir();
    await expect(open(empty, { create: false })).rejects.toMatchObject({ code: "ERR_KV_NO_STORE" });
    const missing = path.join(tempDir(), "nope");
    await expect(open(missing, { readOnly: true, create: true })).rejects.toMatchObject({
      code: "ERR_KV_NO_STORE",
    });
    expect(fs.existsSync(missing)).toBe(false);
    await (await open(empty)).close(); // an empty directory becomes a store
    expect(dataFiles(empty).length).toBe(1);
  });

  it("a directory the OS refuses to make (EACCES, EROFS) is the OS's error, not a missing directory", async () => {
    for (const code of ["EACCES", "EROFS"]) {
      const directory = {
        ...realDirectory,
        makeDirectory: () => {
          throw Object.assign(new Error(`${code}: refused, mkdir`), { code });
        },
      };
      const dir = path.join(tempDir(), "store");
      await expect(open(dir, { directory })).rejects.toMatchObject({ code });
    }
  });
});

describe("damage in a file without a hint", () => {
  it("is reported and makes the store read-only; no key it may have held is answered for until a repair", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 200 });
    await db.put("b", "b-old");
    await db.put("pad", "p".repeat(190)); // seals file 1; what follows goes to a later file
    await db.put("b", "b-new");
    await db.put("d1", "after");
    await db.close();
    const holder = dataFiles(dir)
      .map((f) => path.join(dir, f))
      .find((f) => fs.readFileSync(f).includes("b-new"))!;
    fs.rmSync(holder.replace(/\.data$/, ".hint"), { force: true });
    flipByte(holder, fs.readFileSync(holder).indexOf("b-new") + 1);

    let s = await open(dir);
    expect(s.readOnly).toBe(true);
    expect(s.recovery).toEqual([
      expect.objectContaining({ file: path.basename(holder), kind: "corrupt" }),
    ]);
    // Written after the damaged record: vouched for.
    expect(await s.getString("d1")).toBe("after");
    // Without a hint, nothing says which key the damaged record held (its header is not trusted), so no key whose
    // newest record is older is answered for: not with its older value, not as absent, not by has() or keys().
    for (const key of ["b", "pad", "never-written"]) {
      await expect(s.get(key), key).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
      await expect(s.has(key), key).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    }
    await expect(s.getString("b")).rejects.toThrow(/newer record in damaged bytes/);
    await expect(
      (async () => {
        for await (const _ of s.keys()) {
          // draining
        }
      })(),
    ).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    await s.close();
    // A read-only open says the same.
    s = await open(dir, { readOnly: true });
    await expect(s.get("b")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    expect(await s.getString("d1")).toBe("after");
    await s.close();
    // A repair accepts the loss of the damaged record: the keys answer again, `b` with the record that is left.
    s = await open(dir, { repair: true });
    expect(await s.getString("d1")).toBe("after");
    expect(await s.getString("b")).toBe("b-old");
    expect(await s.get("never-written")).toBeUndefined();
    await s.close();
  });

  it("a read-only open reports a hint it cannot read as that error, not as a store that kept changing", async () => {
    const { dir, file } = await hintedStore(5);
    const hint = file.replace(/\.data$/, ".hint");
    fs.rmSync(hint);
    fs.symlinkSync(path.join(dir, "nowhere"), hint); // dangling: the name is there, yet no file
    // A planted link is refused at once (issue 17), not retried as a listing a writer changed (ERR_KV_BUSY).
    const error = await open(dir, { readOnly: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ELOOP" });
    expect((error as Error).cause).toBeUndefined(); // no retries
    await expect(open(path.join(dir, "gone"), { readOnly: true })).rejects.toMatchObject({
      code: "ERR_KV_NO_STORE",
    });
  });
});
