import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KvError, open } from "../src";
import { decodeHint } from "../src/hint-file";
import { encodeRecord, HEADER_SIZE } from "../src/record";
import { compactedWithDamagedMarker, dataFiles, flipByte, recordOffsets, tempDir } from "./helpers";

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
    const db = await open(path.join(dir, "new"));
    await db.close();
    expect(fs.statSync(path.join(dir, "new")).isDirectory()).toBe(true);
  });
});

describe("sync modes", () => {
  it("batch groups concurrent writes, and every put resolves durable", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await Promise.all(Array.from({ length: 500 }, (_, i) => db.put(`k${i}`, `v${i}`)));
    await Promise.all([db.delete("k1"), db.put("k2", "new")]);
    expect(await db.getString("k2")).toBe("new");
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect(again.stats().keys).toBe(499);
    await again.close();
  });

  it("batch resolves a put whose group fsync was still waiting to start when close came", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    const puts = Array.from({ length: 300 }, (_, i) => db.put(`k${i}`, `v${i}`));
    await db.close();
    await Promise.all(puts);
    const again = await open(dir, { readOnly: true });
    expect(again.stats().keys).toBe(300);
    expect(await again.getString("k299")).toBe("v299");
    await again.close();
  });

  it("batch keeps resolving writes that arrive in waves while fsyncs run", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    let next = 0;
    const client = async () => {
      for (let i = 0; i < 40; i++) {
        const n = next++;
        await db.put(`w${n}`, `v${n}`);
      }
    };
    await Promise.all(Array.from({ length: 50 }, client));
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect(again.stats().keys).toBe(2000);
    expect(await again.getString("w1999")).toBe("v1999");
    await again.close();
  });

  it("never hands writes to the OS by the next turn, so another reader sees them without a close", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "never" });
    await db.put("k", "v");
    await new Promise((resolve) => setImmediate(resolve));
    const file = path.join(dir, dataFiles(dir).at(-1)!);
    expect(fs.readFileSync(file).includes(Buffer.from("v"))).toBe(true);
    await db.close();
  });
});

describe("recovery", () => {
  async function storeWith(n: number): Promise<{ dir: string; file: string }> {
    const dir = tempDir();
    const db = await open(dir);
    for (let i = 0; i < n; i++) await db.put(`k${i}`, `value-${i}`);
    await db.close();
    for (const h of fs.readdirSync(dir)) if (h.endsWith(".hint")) fs.rmSync(path.join(dir, h));
    return { dir, file: path.join(dir, dataFiles(dir)[0]!) };
  }
  const recordBytes = (i: number) =>
    encodeRecord(1, Buffer.from(`k${i}`), Buffer.from(`value-${i}`)).length;

  it("cuts off a torn tail and keeps every complete record", async () => {
    const { dir, file } = await storeWith(10);
    const size = fs.statSync(file).size;
    // The last record loses its end (and the sync point that sealing put after it).
    fs.truncateSync(file, size - 3 - 28);
    const db = await open(dir);
    expect(db.recovery).toEqual([
      expect.objectContaining({ kind: "torn-tail", action: "truncated" }),
    ]);
    expect(await db.getString("k8")).toBe("value-8");
    expect(await db.get("k9")).toBeUndefined();
    await db.put("k10", "after");
    await db.close();
    const again = await open(dir);
    expect(again.recovery).toEqual([]);
    expect(await again.getString("k10")).toBe("after");
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  });

  it("treats garbage after the last record as a torn tail, but only reports it when read-only", async () => {
    const { dir, file } = await storeWith(3);
    const size = fs.statSync(file).size;
    fs.appendFileSync(file, Buffer.alloc(100, 0xab));
    const ro = await open(dir, { readOnly: true });
    expect(ro.recovery[0]).toMatchObject({ kind: "torn-tail", action: "ignored", bytes: 100 });
    expect((await ro.verify()).tornTails).toHaveLength(1);
    await ro.close();
    expect(fs.statSync(file).size).toBe(size + 100);
    const rw = await open(dir);
    await rw.close();
    expect(fs.statSync(file).size).toBe(size);
  });

  /** Runs a writer in a child process (the built dist): `n` acknowledged puts, then it waits to be killed or stopped. */
  async function childWriter(dir: string, n: number, options: object, env = process.env) {
    const dist = new URL("../dist/index.js", import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(dist)});
         const db = await m.open(${JSON.stringify(dir)}, ${JSON.stringify(options)});
         const puts = [];
         for (let i = 0; i < ${n}; i++) puts.push(db.put("k" + i, "value-" + i));
         await Promise.all(puts);
         console.log("acked");
         let more = 0, go = false;
         process.stdin.on("data", async (d) => {
           if (String(d) === "more") { go = true; while (go) await db.put("more" + more++, "x".repeat(more % 300)); return; }
           go = false; await db.close(); process.exit(0);
         });`,
      ],
      { stdio: ["pipe", "pipe", "inherit"], env },
    );
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    return {
      kill: async () => {
        child.kill("SIGKILL");
        await exited;
      },
      more: () => child.stdin.write("more"),
      stop: async () => {
        child.stdin.write("stop");
        await exited;
      },
    };
  }
  /** Bytes of `n` records as storeWith and childWriter write them. */
  const contentBytes = (n: number) => {
    let total = 0;
    for (let i = 0; i < n; i++) total += recordBytes(i);
    return total;
  };

  it("cuts the zero tail a killed writer leaves (zeros written ahead of its appends) without reporting it", async () => {
    for (const sync of ["always", "batch"] as const) {
      const dir = tempDir();
      const writer = await childWriter(dir, 300, { sync });
      await writer.kill();
      const file = path.join(dir, dataFiles(dir)[0]!);
      const onDisk = fs.readFileSync(file);
      // The records and the sync points between them (under always, one before each put but the first).
      let content = onDisk.length;
      while (content > 0 && onDisk[content - 1] === 0) content--;
      expect(content, sync).toBeGreaterThanOrEqual(contentBytes(300));
      expect(content, sync).toBe(recordOffsets(file).at(-1)! + recordBytes(299));
      expect(onDisk.length, sync).toBeGreaterThan(content); // preallocated
      const ro = await open(dir, { readOnly: true });
      expect(ro.recovery).toEqual([]);
      expect(ro.stats().totalBytes).toBe(content);
      expect((await ro.verify()).tornTails).toEqual([]);
      await ro.close();
      expect(fs.readFileSync(file).equals(onDisk)).toBe(true); // read-only: untouched
      const db = await open(dir);
      expect(db.recovery).toEqual([]);
      expect(fs.statSync(file).size).toBe(content);
      for (let i = 0; i < 300; i++) expect(await db.getString(`k${i}`)).toBe(`value-${i}`);
      await db.put("after", "kill");
      await db.close();
      const again = await open(dir, { readOnly: true });
      expect(await again.getString("after")).toBe("kill");
      expect(await again.verify()).toMatchObject({ ok: true, tornTails: [] });
      await again.close();
    }
  });

  it("still cuts a torn record followed by a zero tail as a torn tail, and only its own bytes count", async () => {
    const { dir, file } = await storeWith(5);
    const size = fs.statSync(file).size;
    const torn = encodeRecord(1, Buffer.from("k5"), Buffer.from("value-5")).subarray(0, 16); // ends with the key length's last byte, 2
    fs.appendFileSync(file, torn);
    fs.appendFileSync(file, Buffer.alloc(3 << 20)); // 3 MiB of zeros after it
    const ro = await open(dir, { readOnly: true });
    expect(ro.recovery).toEqual([
      { file: dataFiles(dir)[0], offset: size, kind: "torn-tail", action: "ignored", bytes: 16 },
    ]);
    expect((await ro.verify()).problems).toEqual([]);
    await ro.close();
    expect(fs.statSync(file).size).toBe(size + 16 + (3 << 20));
    const db = await open(dir);
    expect(db.recovery).toEqual([
      expect.objectContaining({ kind: "torn-tail", action: "truncated", offset: size }),
    ]);
    expect(fs.statSync(file).size).toBe(size);
    expect(await db.getString("k4")).toBe("value-4");
    expect(await db.get("k5")).toBeUndefined();
    await db.close();
  });

  it("reports a corrupt record in the middle even when valid records and a zero tail follow it", async () => {
    const { dir, file } = await storeWith(10);
    const size = fs.statSync(file).size;
    const second = recordOffsets(file)[1]!;
    flipByte(file, second + HEADER_SIZE + 3); // inside record 1
    fs.appendFileSync(file, Buffer.alloc(2 << 20));
    const db = await open(dir);
    expect(db.readOnly).toBe(true);
    expect(db.recovery).toEqual([
      expect.objectContaining({ kind: "corrupt", offset: second, action: "ignored" }),
    ]);
    expect(await db.getString("k9")).toBe("value-9");
    const report = await db.verify();
    expect(report.problems).toHaveLength(1);
    expect(report.tornTails).toEqual([]);
    await db.close();
    expect(fs.statSync(file).size).toBe(size + (2 << 20)); // read-only: nothing cut
    const repaired = await open(dir, { repair: true });
    expect(repaired.stats().keys).toBe(9);
    await repaired.close();
    const clean = await open(dir);
    expect(clean.recovery).toEqual([]);
    expect((await clean.verify()).ok).toBe(true);
    for (const name of dataFiles(dir))
      expect(fs.readFileSync(path.join(dir, name)).at(-1)).not.toBe(0);
    await clean.close();
  });

  it("opens a store read-only while its writer runs with a zero tail: all acknowledged data, no damage, file untouched", async () => {
    const dir = tempDir();
    // The node backend takes no OS lock, so that a reader in this process can open while the writer runs.
    const writer = await childWriter(
      dir,
      2000,
      { sync: "batch" },
      { ...process.env, RAFKIT_BACKEND: "node" },
    );
    try {
      const file = path.join(dir, dataFiles(dir)[0]!);
      const before = fs.readFileSync(file);
      expect(before.length).toBeGreaterThan(contentBytes(2000));
      const ro = await open(dir, { readOnly: true });
      expect(ro.recovery).toEqual([]);
      for (let i = 0; i < 2000; i++) expect(await ro.getString(`k${i}`)).toBe(`value-${i}`);
      expect(await ro.verify()).toMatchObject({ ok: true, tornTails: [] });
      await ro.close();
      expect(fs.readFileSync(file).equals(before)).toBe(true);
      // Now with appends racing the reads: never corruption, and always everything acknowledged before.
      writer.more();
      for (let round = 0; round < 20; round++) {
        const r = await open(dir, { readOnly: true });
        expect(r.recovery.filter((x) => x.kind === "corrupt")).toEqual([]);
        expect(r.stats().readOnlyReason).toBe("opened read-only");
        expect(await r.getString("k1999")).toBe("value-1999");
        expect((await r.verify()).problems).toEqual([]);
        await r.close();
      }
    } finally {
      await writer.stop();
    }
    const db = await open(dir);
    expect(db.recovery).toEqual([]);
    expect((await db.verify()).ok).toBe(true);
    await db.close();
  });

  it("seals and closes files without their zeros: each ends where its hint says", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch", maxFileSize: 8192 });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => db.put(`k${i}`, `value-${i}`)));
    const active = path.join(dir, dataFiles(dir).at(-1)!);
    expect(fs.statSync(active).size).toBe(8192); // preallocated up to the size that seals it
    await db.close();
    const names = dataFiles(dir);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) {
      const bytes = fs.readFileSync(path.join(dir, name));
      const hint = decodeHint(fs.readFileSync(path.join(dir, name.replace(".data", ".hint"))));
      expect(hint?.coveredLength, name).toBe(bytes.length);
      expect(bytes.at(-1), name).not.toBe(0);
    }
  });

  it("opens read-only on a corrupt record in the middle, and repairs only when asked", async () => {
    const { dir, file } = await storeWith(10);
    const second = recordOffsets(file)[1]!;
    flipByte(file, second + HEADER_SIZE + 3); // inside record 1's value
    const db = await open(dir);
    expect(db.readOnly).toBe(true);
    expect(db.stats().readOnlyReason).toMatch(/corrupt record/);
    expect(db.recovery).toEqual([expect.objectContaining({ kind: "corrupt", offset: second })]);
    // The file has no hint (the active file), so which key the damaged record held is unknown: no key whose newest
    // record is older than the record after it is answered for (issue 17: never an older value), not even as absent.
    await expect(db.getString("k0")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    await expect(db.get("k1")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    expect(await db.getString("k2")).toBe("value-2");
    await expect(db.put("x", "y")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    await expect(db.compact()).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
    const report = await db.verify();
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatch(/corrupt record at offset/);
    await db.close();

    const repaired = await open(dir, { repair: true });
    expect(repaired.readOnly).toBe(false);
    expect(repaired.recovery[0]).toMatchObject({ kind: "corrupt", action: "skipped" });
    expect(repaired.stats().keys).toBe(9);
    await repaired.put("x", "y");
    await repaired.close();
    const clean = await open(dir);
    expect(clean.recovery).toEqual([]);
    expect((await clean.verify()).ok).toBe(true);
    expect(await clean.getString("k9")).toBe("value-9");
    await clean.close();
  });

  it("never returns a value whose bytes went bad after open", async () => {
    const { dir, file } = await storeWith(3);
    const db = await open(dir, { readOnly: true });
    flipByte(file, recordBytes(0) - 1);
    await expect(db.get("k0")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    expect(await db.getString("k1")).toBe("value-1");
    await db.close();
  });
});

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

describe("locking", () => {
  it("allows one writer, or many readers, in this process", async () => {
    const dir = tempDir();
    const w = await open(dir);
    await expect(open(dir)).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    await expect(open(dir, { readOnly: true })).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    await w.close();
    const r1 = await open(dir, { readOnly: true });
    const r2 = await open(dir, { readOnly: true });
    await expect(open(dir)).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    await r1.close();
    await r2.close();
    const w2 = await open(dir);
    await w2.close();
  });

  /** Starts a child process that opens `dir` with `options`, prints its stats as JSON, and closes on any input. */
  async function holder(dir: string, options: object, env: NodeJS.ProcessEnv = process.env) {
    const dist = new URL("../dist/index.js", import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(dist)}); const db = await m.open(${JSON.stringify(dir)}, ${JSON.stringify(options)}); console.log(JSON.stringify(db.stats())); process.stdin.on("data", async () => { await db.close(); process.exit(0); });`,
      ],
      { stdio: ["pipe", "pipe", "inherit"], env },
    );
    const stats = await new Promise<{ lock: string }>((resolve) =>
      child.stdout.once("data", (d: Buffer) => resolve(JSON.parse(d.toString()))),
    );
    const stop = async () => {
      child.stdin.write("x");
      await new Promise((resolve) => child.on("exit", resolve));
    };
    return { child, stats, stop };
  }

  it("tells a refused writer that readers in another process hold the store", async () => {
    const dir = tempDir();
    await (await open(dir)).close();
    const reader = await holder(dir, { readOnly: true });
    try {
      expect(reader.stats.lock).toBe("os");
      const error = await open(dir).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "ERR_KV_LOCKED" });
      expect((error as Error).message).toContain("open read-only");
      const shared = await open(dir, { readOnly: true }); // shared locks coexist
      expect(shared.stats().lock).toBe("os");
      await shared.close();
    } finally {
      await reader.stop();
    }
  });

  it("reports in stats when the backend has no file locks (node backend): only opens in its process are excluded", async () => {
    const dir = tempDir();
    const nodeBackend = await holder(dir, {}, { ...process.env, RAFKIT_BACKEND: "node" });
    try {
      expect(nodeBackend.stats.lock).toBe("process");
    } finally {
      await nodeBackend.stop();
    }
  });

  it("names the pid of a writer in another process", async () => {
    const dir = tempDir();
    const dist = new URL("../dist/index.js", import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(dist)}); const db = await m.open(${JSON.stringify(dir)}); console.log("open"); process.stdin.on("data", async () => { await db.close(); process.exit(0); });`,
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    try {
      const error = await open(dir).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "ERR_KV_LOCKED", holderPid: child.pid });
      expect((error as Error).message).toContain(`process ${child.pid}`);
      await expect(open(dir, { readOnly: true })).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    } finally {
      child.stdin.write("x");
      await new Promise((resolve) => child.on("exit", resolve));
    }
    const db = await open(dir);
    await db.close();
  });
});
