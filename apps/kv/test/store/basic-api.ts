import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KvError, open } from "../../src";
import { realDirectory } from "../../src/store-dir";
import { dataFiles, flipByte, tempDir } from "../helpers";

const text = (b: Uint8Array | undefined) =>
  b === undefined ? undefined : Buffer.from(b).toString();

describe("basic API", () => {
  it("puts, gets, deletes and lists string and binary keys", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("a", "1");
    await db.put(new Uint8Array([0, 255, 7]), new Uint8Array([9, 8, 7]));
    await db.put("user:2", "two");
    await db.put("user:1", "one");
    await db.put("é", "accent");
    expect(await db.getString("a")).toBe("1");
    const got = await db.get(new Uint8Array([0, 255, 7]));
    expect(got).toBeInstanceOf(Uint8Array);
    expect([...got!]).toEqual([9, 8, 7]);
    expect(await db.has("user:1")).toBe(true);
    expect(await db.get("missing")).toBeUndefined();
    expect(await db.getString("é")).toBe("accent");
    expect(await db.delete("a")).toBe(true);
    expect(await db.delete("a")).toBe(false);
    expect(db.hasSync("a")).toBe(false);

    const keys: string[] = [];
    for await (const k of db.keys({ prefix: "user:" })) keys.push(Buffer.from(k).toString());
    expect(keys).toEqual(["user:1", "user:2"]);
    const all: [string, string][] = [];
    for await (const [k, v] of db.entries())
      all.push([Buffer.from(k).toString("latin1"), text(v)!]);
    expect(all.map(([k]) => k)).toEqual(["\u0000\u00ff\u0007", "user:1", "user:2", "Ã©"]);
    expect(db.stats().keys).toBe(4);
    await db.close();
    await expect(db.get("user:1")).rejects.toMatchObject({ code: "ERR_KV_CLOSED" });
  });

  it("hands out copies: neither the caller's buffer nor a returned value can change the store's data", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "never" });
    const value = new Uint8Array([1, 2, 3]);
    await db.put("k", value);
    value.fill(0); // reused by the caller after the put
    const first = db.getSync("k")!;
    expect([...first]).toEqual([1, 2, 3]);
    first.fill(9);
    new Uint8Array(first.buffer).fill(9); // the whole pool the copy was carved from
    expect([...db.getSync("k")!]).toEqual([1, 2, 3]);
    for await (const [, v] of db.entries()) v.fill(7);
    expect([...(await db.get("k"))!]).toEqual([1, 2, 3]);
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect([...again.getSync("k")!]).toEqual([1, 2, 3]);
    await again.close();
  });

  it("tells apart string keys and byte keys that share chars, with or without other keys", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "never" });
    await db.put("plain", "p");
    // Only ASCII keys so far: a non-ASCII string key is absent without a second lookup.
    expect(db.getSync("\u00e9")).toBeUndefined();
    expect(db.hasSync("\u00e9")).toBe(false);
    await db.put(new Uint8Array([0xe9]), "byte e9"); // its id is the one-char string "\u00e9"
    expect(db.getSync("\u00e9")).toBeUndefined(); // the string "é" is UTF-8 c3 a9, another key
    await db.put("\u00e9", "string e9");
    expect(await db.getString("\u00e9")).toBe("string e9");
    expect(await db.getString(new Uint8Array([0xe9]))).toBe("byte e9");
    expect(await db.getString(new Uint8Array([0xc3, 0xa9]))).toBe("string e9");
    expect(db.hasSync(new TextEncoder().encode("plain"))).toBe(true);
    expect(await db.delete(new Uint8Array([0xc3, 0xa9]))).toBe(true);
    expect(db.getSync("\u00e9")).toBeUndefined();
    expect(await db.getString(new Uint8Array([0xe9]))).toBe("byte e9");
    await db.close();
  });

  it("keeps everything across close and open, from hint files or by scanning when they are gone", async () => {
    const dir = tempDir();
    let db = await open(dir, { maxFileSize: 4096 });
    for (let i = 0; i < 300; i++) await db.put(`k${i}`, `v${i}`.repeat(5));
    for (let i = 0; i < 300; i += 3) await db.delete(`k${i}`);
    await db.close();
    expect(dataFiles(dir).length).toBeGreaterThan(3);
    const check = async () => {
      db = await open(dir, { readOnly: true });
      expect(db.stats().keys).toBe(200);
      for (let i = 0; i < 300; i++)
        expect(await db.getString(`k${i}`)).toBe(i % 3 ? `v${i}`.repeat(5) : undefined);
      await db.close();
    };
    await check();
    for (const n of fs.readdirSync(dir)) if (n.endsWith(".hint")) fs.rmSync(path.join(dir, n));
    await check();
  });

  it("ignores a damaged hint file and scans the data file instead", async () => {
    const dir = tempDir();
    let db = await open(dir);
    for (let i = 0; i < 50; i++) await db.put(`k${i}`, `v${i}`);
    await db.close();
    const hint = fs.readdirSync(dir).find((n) => n.endsWith(".hint"))!;
    flipByte(path.join(dir, hint), 3);
    // A reader leaves it in place, and verify names it.
    db = await open(dir, { readOnly: true });
    expect(await db.getString("k42")).toBe("v42");
    expect((await db.verify()).problems.join()).toMatch(/damaged/);
    await db.close();
    // A writer drops it: hints are derived data.
    db = await open(dir);
    expect(await db.getString("k42")).toBe("v42");
    expect(fs.existsSync(path.join(dir, hint))).toBe(false);
    expect((await db.verify()).ok).toBe(true);
    await db.close();
  });

  it("returns the newest value through a small cache under overwrites, deletes and compaction", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom("put", "get", "get", "del", "compact"),
            fc.integer({ min: 0, max: 7 }),
            fc.string({ maxLength: 40 }),
          ),
          { maxLength: 80 },
        ),
        async (ops) => {
          const dir = tempDir();
          // Room for a few values only: evictions, and releases on overwrite, happen all the time.
          const db = await open(dir, { sync: "never", maxFileSize: 512, cacheSize: 800 });
          const model = new Map<string, string>();
          for (const [op, k, v] of ops) {
            const key = `key${k}`;
            if (op === "put") {
              await db.put(key, v);
              model.set(key, v);
            } else if (op === "del") {
              expect(await db.delete(key)).toBe(model.delete(key));
            } else if (op === "compact") await db.compact();
            expect(await db.getString(key)).toBe(model.get(key));
          }
          await db.close();
        },
      ),
      { numRuns: 30 },
    );
  });

  it("matches a Map under random puts and deletes, across reopen and compaction", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom("put", "del", "compact", "reopen"),
            fc.integer({ min: 0, max: 15 }),
            fc.string(),
          ),
          { maxLength: 60 },
        ),
        async (ops) => {
          const dir = tempDir();
          let db = await open(dir, { sync: "never", maxFileSize: 256 });
          const model = new Map<string, string>();
          for (const [op, k, v] of ops) {
            const key = `key${k}`;
            if (op === "put") {
              await db.put(key, v);
              model.set(key, v);
            } else if (op === "del") {
              expect(await db.delete(key)).toBe(model.delete(key));
            } else if (op === "compact") await db.compact();
            else {
              await db.close();
              db = await open(dir, { sync: "never", maxFileSize: 256 });
            }
          }
          const seen = new Map<string, string>();
          for await (const [k, v] of db.entries())
            seen.set(Buffer.from(k).toString(), Buffer.from(v).toString());
          expect(seen).toEqual(model);
          expect((await db.verify()).ok).toBe(true);
          await db.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  it("rejects bad arguments with typed errors and writes nothing", async () => {
    const db = await open(tempDir());
    await expect(db.put("", "x")).rejects.toMatchObject({ code: "ERR_KV_INVALID_ARG" });
    await expect(db.put("k", 42 as unknown as string)).rejects.toBeInstanceOf(KvError);
    await expect(db.put("x".repeat(70_000), "v")).rejects.toMatchObject({
      code: "ERR_KV_INVALID_ARG",
    });
    expect(db.stats().totalBytes).toBe(0);
    await db.close();
    await expect(open(tempDir(), { sync: "sometimes" as "always" })).rejects.toMatchObject({
      code: "ERR_KV_INVALID_ARG",
    });
  });

  it("takes null options as a typed error, not as no options", async () => {
    const invalid = { name: "KvError", code: "ERR_KV_INVALID_ARG" };
    const dir = tempDir();
    await expect(open(dir, null as unknown as object)).rejects.toMatchObject(invalid);
    const db = await open(dir);
    await db.put("k", "v");
    const none = null as unknown as object;
    await expect(db.compact(none)).rejects.toMatchObject(invalid);
    await expect(db.verify(none)).rejects.toMatchObject(invalid);
    await expect(db.keys(none).next()).rejects.toMatchObject(invalid);
    await expect(db.entries(none).next()).rejects.toMatchObject(invalid);
    expect(await db.getString("k")).toBe("v");
    await db.close();
  });

  it.each(["keys", "entries"] as const)(
    "%s() ends with ERR_KV_CLOSED when the store closes under it, not with a short listing",
    async (method) => {
      const db = await open(tempDir());
      for (let i = 0; i < 10; i++) await db.put(`k${i}`, "v");
      let seen = 0;
      const walk = async () => {
        for await (const _ of db[method]()) if (++seen === 3) await db.close();
      };
      await expect(walk()).rejects.toMatchObject({ code: "ERR_KV_CLOSED" });
      expect(seen).toBe(3);
    },
  );

  it("refuses a missing directory unless asked to create it, and a file that is not a directory", async () => {
    const dir = tempDir();
    await expect(open(path.join(dir, "nope"), { create: false })).rejects.toMatchObject({
      code: "ERR_KV_NO_STORE",
    });
    await expect(open(path.join(dir, "nope"), { readOnly: true })).rejects.toMatchObject({
      code: "ERR_KV_NO_STORE",
    });
    await expect(open(path.join(dir, "a", "b"))).rejects.toMatchObject({ code: "ERR_KV_NO_STORE" });
    fs.writeFileSync(path.join(dir, "file"), "x");
    await expect(open(path.join(dir, "file"))).rejects.toMatchObject({ code: "ERR_KV_NO_STORE" });
    // Under a file: missing (lstat throws ENOTDIR on every Node; stat did on Node 20, a raw error then).
    await expect(open(path.join(dir, "file", "sub"))).rejects.toMatchObject({
      code: "ERR_KV_NO_STORE",
    });
    expect(realDirectory.stat(path.join(dir, "file", "sub"), false)).toBeUndefined();
    const db = await open(path.join(dir, "new"));
    await db.close();
    expect(fs.statSync(path.join(dir, "new")).isDirectory()).toBe(true);
  });
});
