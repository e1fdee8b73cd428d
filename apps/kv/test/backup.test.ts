import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { getBackend } from "@rafkit/syscall-state";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { tempDir } from "./helpers";
import { rafkv } from "./rafkv";

// backup(dest) in the process that has the store open, and rafkv DIR backup DEST as a process of its own.

describe("backup", () => {
  it("copies a live store, during a compaction too, and the copy opens with every acknowledged write", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch", maxFileSize: 4096 });
    const acked = new Map<string, string>();
    for (let i = 0; i < 400; i++) {
      await db.put(`k${i % 150}`, `v${i}`);
      acked.set(`k${i % 150}`, `v${i}`);
    }
    for (let i = 0; i < 20; i++) {
      await db.delete(`k${i}`);
      acked.delete(`k${i}`);
    }
    const compacting = db.compact();
    const dest = path.join(tempDir(), "copy");
    const result = await db.backup(dest);
    const late = db.put("late", "x"); // after the backup began: may or may not be in it
    await Promise.all([compacting, late]);
    expect(result.files).toBeGreaterThan(0);
    await db.close();
    const copy = await open(dest);
    expect(copy.recovery).toEqual([]);
    for (const [k, v] of acked) expect(await copy.getString(k)).toBe(v);
    for (let i = 0; i < 20; i++) expect(await copy.has(`k${i}`)).toBe(false);
    expect((await copy.verify()).ok).toBe(true);
    await copy.close();
    await expect(db.backup(path.join(tempDir(), "x"))).rejects.toMatchObject({
      code: "ERR_KV_CLOSED",
    });
  });

  it("refuses a destination that holds files, and rafkv DIR backup DEST makes a copy", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("k", "v");
    await expect(db.backup(dir)).rejects.toMatchObject({ code: "ERR_KV_INVALID_ARG" });
    await db.close();
    const dest = path.join(tempDir(), "copy");
    const r = await rafkv([dir, "backup", dest]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^backed up 1 data file \(\d+ B\) to /);
    expect((await rafkv([dest, "get", "k"])).out).toBe("v");
    expect((await rafkv([dir, "backup", dest])).code).toBe(2);
  });
});

describe("rafkv DIR backup DEST while another process writes", () => {
  // Only OS locks keep a reader out while another process writes (the node backend has none).
  it.skipIf(getBackend().features?.locks === false)(
    "is refused with the lock's code and a message naming the library's online backup(dest)",
    async () => {
      const dir = tempDir();
      const dist = new URL("../dist/index.js", import.meta.url).href;
      const child = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const db = await (await import(${JSON.stringify(dist)})).open(${JSON.stringify(dir)});
         await db.put("k", "v");
         console.log("open");
         process.stdin.on("data", async () => { await db.close(); process.exit(0); });`,
        ],
        { stdio: ["pipe", "pipe", "inherit"] },
      );
      const exited = new Promise((resolve) => child.on("exit", resolve));
      try {
        await new Promise((resolve) => child.stdout.once("data", resolve));
        const dest = path.join(tempDir(), "copy");
        const r = await rafkv([dir, "backup", dest]);
        expect(r.code).toBe(3);
        expect(r.err).toMatch(
          new RegExp(
            `^rafkv: cannot back up .*: store .* is locked for writing by process ${child.pid}\\. .*opens the store read-only.*db\\.backup\\(dest\\)`,
          ),
        );
        expect(fs.existsSync(dest)).toBe(false);
      } finally {
        child.stdin.write("close");
        await exited;
      }
      const help = await rafkv(["backup", "--help"]);
      expect(help.out).toMatch(/cannot run while another process has the store open for writing/);
      expect(help.out).toMatch(/backup\(dest\)/);
    },
  );
});
