import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { crc32, open } from "../src";
import { decodeHint, encodeHint } from "../src/hint-file";
import { hintOf, tempDir } from "./helpers";

// Store files whose checksums hold but whose content no store writes (crafted, or copied from elsewhere), and
// things in the store directory that are not files: each is a typed error or a documented recovery, never an
// untyped exception, a hang, or a key silently gone.

/** A store of one sealed data file holding k0…k4, and its hint's path. */
async function fiveKeys(): Promise<{ dir: string; hint: string }> {
  const dir = tempDir();
  const db = await open(dir);
  for (let i = 0; i < 5; i++) await db.put(`k${i}`, `v${i}`);
  await db.close();
  return { dir, hint: hintOf(dir, 0) };
}

describe("a hint whose checksum holds", () => {
  it("but leaves records out: the open sees it, so no key is hidden and no compaction drops one", async () => {
    const { dir, hint } = await fiveKeys();
    const { entries, coveredLength } = decodeHint(fs.readFileSync(hint))!;
    fs.writeFileSync(hint, encodeHint([entries[0]!, entries.at(-1)!], coveredLength));
    for (const readOnly of [true, false]) {
      const db = await open(dir, { readOnly });
      expect(db.readOnly).toBe(true);
      expect(db.recovery.some((r) => r.kind === "corrupt")).toBe(true);
      expect(await db.getString("k2")).toBe("v2");
      expect((await db.verify()).problems).toContain(
        "0000000001.hint: does not match 0000000001.data",
      );
      await db.close();
    }
    const repaired = await open(dir, { repair: true });
    expect(repaired.readOnly).toBe(false);
    expect(await repaired.getString("k2")).toBe("v2");
    await repaired.compact();
    expect((await repaired.verify()).ok).toBe(true);
    expect(repaired.stats().keys).toBe(5);
    await repaired.close();
  });

  it("with no entry at all: the same", async () => {
    const { dir, hint } = await fiveKeys();
    const { coveredLength } = decodeHint(fs.readFileSync(hint))!;
    fs.writeFileSync(hint, encodeHint([], coveredLength));
    const db = await open(dir, { readOnly: true });
    expect([db.readOnly, await db.getString("k0")]).toEqual([true, "v0"]);
    expect((await db.verify()).ok).toBe(false);
    await db.close();
  });

  it("with a value length no record has, or a negative timestamp, is not used: the data file is read", async () => {
    for (const craft of [
      (e: { valueLength: number }) => ({ ...e, valueLength: 0x7fffffff }),
      (e: { timestamp: number }) => ({ ...e, timestamp: -5 }),
    ]) {
      const { dir, hint } = await fiveKeys();
      const { entries, coveredLength } = decodeHint(fs.readFileSync(hint))!;
      const crafted = entries.map((e, k) => (k === 1 ? craft(e as never) : e)) as typeof entries;
      fs.writeFileSync(hint, encodeHint(crafted, 2 ** 33));
      expect(decodeHint(fs.readFileSync(hint))).toBeNull();
      fs.writeFileSync(hint, encodeHint(crafted, coveredLength));
      expect(decodeHint(fs.readFileSync(hint))).toBeNull();
      const db = await open(dir, { readOnly: true });
      expect(await db.getString("k1")).toBe("v1");
      expect(db.stats().liveBytes).toBeGreaterThan(0);
      await db.close();
    }
  });
});

describe("a data record whose checksum holds but whose header or key its hint does not name", () => {
  /** Rewrites the record of `key` in the first data file with `edit`, then makes its CRC anew. */
  function forge(dir: string, key: string, edit: (record: Buffer) => void): void {
    const file = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith(".data"))!);
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf(Buffer.from(key)) - 20;
    const size = 20 + bytes.readInt32BE(at + 12) + bytes.readInt32BE(at + 16);
    edit(bytes.subarray(at, at + size));
    bytes.writeUInt32BE(crc32(bytes, at + 4, at + size), at);
    fs.writeFileSync(file, bytes);
  }

  it.each([
    // Read as key "k" and value "2v2": another key's bytes as the value.
    ["a shorter key length", (r: Buffer) => r.writeInt32BE(1, 12)],
    // A value start past the record: a RangeError, which left every later read in the process failing.
    ["a key length past the record", (r: Buffer) => r.writeInt32BE(100, 12)],
    ["another key of the same length", (r: Buffer) => r.write("kX", 20)],
    ["a value length past the record", (r: Buffer) => r.writeInt32BE(50, 16)],
  ])("%s: ERR_KV_CORRUPT for that key, and nothing else hurt", async (_, edit) => {
    const { dir } = await fiveKeys();
    forge(dir, "k2", edit);
    const db = await open(dir);
    await expect(db.getString("k2")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    expect(await db.getString("k1")).toBe("v1");
    await db.close();
    // A compaction copies records by what the key directory says of them: this one is not that, so it stops.
    const again = await open(dir);
    if (!again.readOnly)
      await expect(again.compact()).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    await again.close();
    const other = await open(tempDir(), { cacheSize: 0 });
    await other.put("x", "y");
    expect(await other.getString("x")).toBe("y");
    await other.close();
  });
});

describe("a compaction marker whose checksum holds", () => {
  it.each([
    ["2^63 - 1", 0x7fffffffffffffffn],
    ["2^53", 2n ** 53n],
    ["-1", -1n],
    ["past the last file id", 2n ** 31n],
  ])("but names file %s is ERR_KV_CORRUPT on every open", async (_, id) => {
    const { dir } = await fiveKeys();
    const bytes = new Uint8Array(16);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, 0x524b564d); // "RKVM"
    view.setBigInt64(4, id);
    view.setUint32(12, crc32(bytes, 0, 12));
    fs.writeFileSync(path.join(dir, "MERGED"), bytes);
    for (const options of [{}, { readOnly: true }])
      await expect(open(dir, options)).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
  });
});

describe.skipIf(process.platform === "win32")(
  "what is not a file where a store file belongs",
  () => {
    it.each(["MERGED", "0000000001.hint", "0000000001.data", "0000000009.data"])(
      "a FIFO as %s is refused at once (EINVAL), read-only too: an open would wait for a writer forever",
      async (name) => {
        const { dir } = await fiveKeys();
        fs.rmSync(path.join(dir, name), { force: true });
        execFileSync("mkfifo", [path.join(dir, name)]);
        for (const options of [{}, { readOnly: true }])
          await expect(open(dir, options)).rejects.toMatchObject({
            code: "EINVAL",
            syscall: "open",
            path: path.join(dir, name),
            message: expect.stringContaining("is a FIFO, not a regular file"),
          });
      },
    );

    it("a directory named like a leftover temp file is not the store's: left alone, the open works", async () => {
      const { dir } = await fiveKeys();
      fs.mkdirSync(path.join(dir, "notes.tmp"));
      fs.writeFileSync(path.join(dir, "notes.tmp", "mine.txt"), "a user's file");
      const db = await open(dir);
      expect(await db.getString("k3")).toBe("v3");
      await db.close();
      expect(fs.readFileSync(path.join(dir, "notes.tmp", "mine.txt"), "utf8")).toBe(
        "a user's file",
      );
    });
  },
);
