import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { tempDir } from "./helpers";

describe("argument checks", () => {
  it.each([
    ["maxFileSize", Number.NaN],
    ["maxFileSize", 0],
    ["maxFileSize", -1],
    ["maxFileSize", 1.5],
    ["maxFileSize", "1024"],
    ["cacheSize", Number.NaN],
    ["cacheSize", -1],
    ["cacheSize", Number.POSITIVE_INFINITY],
    ["cacheSize", "1024"],
  ])("refuses %s = %s on open, creating nothing", async (name, value) => {
    const dir = path.join(tempDir(), "db");
    await expect(open(dir, { [name]: value })).rejects.toMatchObject({
      code: "ERR_KV_INVALID_ARG",
      message: expect.stringContaining(name),
    });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("takes a cache of 0 bytes (off) and the smallest file size", async () => {
    const db = await open(tempDir(), { cacheSize: 0, maxFileSize: 1 });
    await db.put("a", "1");
    await db.put("b", "2");
    expect(await db.getString("a")).toBe("1");
    expect(db.stats().files).toBe(2); // a file per record
    await db.close();
  });

  it("refuses a delete of a key no put could store, as put does", async () => {
    const db = await open(tempDir());
    await expect(db.delete("")).rejects.toMatchObject({ code: "ERR_KV_INVALID_ARG" });
    await expect(db.delete(new Uint8Array(65_536))).rejects.toMatchObject({
      code: "ERR_KV_INVALID_ARG",
    });
    await db.close();
  });

  it("refuses string keys with a lone surrogate, which UTF-8 would store as another key", async () => {
    const db = await open(tempDir());
    await db.put("\ufffdx", "replacement char");
    for (const key of ["\ud800x", "x\udc00", "\udbff"]) {
      await expect(db.put(key, "v")).rejects.toMatchObject({ code: "ERR_KV_INVALID_ARG" });
      await expect(db.delete(key)).rejects.toMatchObject({ code: "ERR_KV_INVALID_ARG" });
      // Reads answer "no such key", not the value of the key spelled with U+FFFD.
      expect(await db.get(key)).toBeUndefined();
      expect(await db.has(key)).toBe(false);
      const keys: Uint8Array[] = [];
      for await (const k of db.keys({ prefix: key })) keys.push(k);
      expect(keys).toEqual([]);
    }
    expect(await db.getString("\ufffdx")).toBe("replacement char");
    // A surrogate pair is well-formed: one code point, four UTF-8 bytes.
    await db.put("😀", "emoji");
    expect(await db.getString(new Uint8Array([0xf0, 0x9f, 0x98, 0x80]))).toBe("emoji");
    expect(db.stats().keys).toBe(2);
    await db.close();
  });

  it("refuses string values with a lone surrogate, which UTF-8 would store as U+FFFD", async () => {
    const db = await open(tempDir());
    for (const value of ["\ud800", "x\udc00y"]) {
      await expect(db.put("k", value)).rejects.toMatchObject({
        code: "ERR_KV_INVALID_ARG",
        message: expect.stringMatching(/^value is not well-formed UTF-16/),
      });
    }
    expect(await db.get("k")).toBeUndefined();
    await db.put("k", "😀");
    expect(await db.getString("k")).toBe("😀");
    await db.close();
  });

  it('refuses open options that should be booleans and are not (readOnly: "false" opened read-only)', async () => {
    const dir = tempDir();
    for (const options of [
      { readOnly: "false" },
      { create: "no" },
      { repair: 1 },
      { readOnly: null },
    ]) {
      await expect(open(dir, options as never)).rejects.toMatchObject({
        code: "ERR_KV_INVALID_ARG",
        message: expect.stringMatching(/must be a boolean/),
      });
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("stores keys and values at their size limits, binary and not UTF-8, across a reopen", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch", maxFileSize: 1 << 20 });
    const longest = new Uint8Array(65_535).map((_, i) => (i * 31) & 0xff);
    const binary = new Uint8Array([0x00, 0xff, 0xfe, 0x80, 0xc0]); // not UTF-8
    const large = new Uint8Array(1.5 * (1 << 20));
    for (let i = 0; i < large.length; i++) large[i] = (i * 7) & 0xff; // larger than a data file
    await Promise.all([
      db.put(longest, "longest key"),
      db.put(binary, new Uint8Array([1, 2, 3])),
      db.put("empty", new Uint8Array(0)),
      db.put("empty string", ""),
      db.put("large", large),
    ]);
    const check = async (s: typeof db) => {
      expect(await s.getString(longest)).toBe("longest key");
      expect(await s.get(binary)).toEqual(new Uint8Array([1, 2, 3]));
      expect(await s.get("empty")).toEqual(new Uint8Array(0));
      expect(await s.getString("empty string")).toBe("");
      expect(Buffer.from(large).equals((await s.get("large"))!)).toBe(true);
      const keys: Uint8Array[] = [];
      for await (const k of s.keys()) keys.push(k);
      expect(keys).toHaveLength(5);
      // Byte order: both binary keys start with 0x00, the longest then 0x1f, the other 0xff.
      expect(Buffer.from(keys[0]!).equals(longest)).toBe(true);
      expect(keys[1]).toEqual(binary);
      expect(keys.slice(2).map((k) => Buffer.from(k).toString())).toEqual([
        "empty",
        "empty string",
        "large",
      ]);
    };
    await check(db);
    await db.close();
    const again = await open(dir, { readOnly: true });
    await check(again);
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  });
});

describe("arguments of the wrong kind are ERR_KV_INVALID_ARG, before anything is done", () => {
  const invalid = { code: "ERR_KV_INVALID_ARG" };

  it("open: a store directory that is no path string, a directory option that is no DirectoryOps", async () => {
    for (const dir of [123, null, ""])
      await expect(open(dir as string)).rejects.toMatchObject(invalid);
    const at = path.join(tempDir(), "db");
    for (const directory of [{}, null, "fs"])
      await expect(open(at, { directory: directory as never })).rejects.toMatchObject(invalid);
    expect(fs.existsSync(at)).toBe(false);
  });

  it("compact and verify: an onProgress that is no function, refused before the active file is sealed", async () => {
    const db = await open(tempDir());
    await db.put("a", "1");
    const files = db.stats().files;
    await expect(db.compact({ onProgress: 5 as never })).rejects.toMatchObject(invalid);
    await expect(db.verify({ onProgress: "x" as never })).rejects.toMatchObject(invalid);
    expect(db.stats().files).toBe(files);
    await db.close();
  });

  it("put: a value whose ArrayBuffer was transferred (it reads as empty) is refused, not stored as empty", async () => {
    const db = await open(tempDir());
    const value = new Uint8Array([1, 2, 3]);
    structuredClone(value.buffer, { transfer: [value.buffer] });
    await expect(db.put("k", value)).rejects.toMatchObject(invalid);
    // A view a resizable buffer shrank under: out of bounds, it reads as empty too.
    type Resizable = ArrayBuffer & { resize(length: number): void };
    const Resizable = ArrayBuffer as unknown as new (
      n: number,
      o: { maxByteLength: number },
    ) => Resizable;
    const resizable = new Resizable(8, { maxByteLength: 16 });
    const shrunk = new Uint8Array(resizable, 4, 4);
    resizable.resize(2);
    await expect(db.put("k", shrunk)).rejects.toMatchObject(invalid);
    expect(await db.get("k")).toBeUndefined();
    await db.put("empty", new Uint8Array(0)); // an empty value of a live buffer is one
    expect(await db.get("empty")).toEqual(new Uint8Array(0));
    await db.close();
  });

  it("backup: a destination that is no path string, or is inside the store (also through a link)", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("a", "1");
    const link = path.join(tempDir(), "to-store");
    fs.symlinkSync(dir, link);
    for (const dest of [
      5,
      null,
      "",
      dir,
      path.join(dir, "0000000050.data"),
      path.join(dir, "sub/x"),
      `${link}/b`,
    ])
      await expect(db.backup(dest as string)).rejects.toMatchObject(invalid);
    await db.close();
    expect(fs.readdirSync(dir).sort()).toEqual(["0000000001.data", "0000000001.hint", "LOCK"]);
    const again = await open(dir, { readOnly: true });
    expect(await again.getString("a")).toBe("1");
    await again.close();
  });
});

describe("close", () => {
  it("called again while it runs settles with it: then the store can be opened again at once", async () => {
    const dir = tempDir();
    const db = await open(dir);
    for (let i = 0; i < 300; i++) await db.put(`k${i}`, "v".repeat(100));
    const compaction = db.compact().catch(() => undefined);
    const first = db.close();
    await db.close();
    const again = await open(dir);
    expect(await again.getString("k7")).toBe("v".repeat(100));
    await again.close();
    await first;
    await compaction;
    await db.close(); // closed: resolves
  });
});
