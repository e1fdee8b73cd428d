import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { getBackend } from "@rafkit/syscall-state";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { type DirectoryOps, realDirectory } from "../src/store-dir";
import { dataFiles, recordOffsets, tempDir } from "./helpers";
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

  it("refuses a destination under a missing directory or a file: a bad argument (exit 2), as for a store", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("k", "v");
    const file = path.join(tempDir(), "a-file");
    fs.writeFileSync(file, "");
    for (const dest of [path.join(tempDir(), "missing", "copy"), path.join(file, "copy")]) {
      await expect(db.backup(dest)).rejects.toMatchObject({
        code: "ERR_KV_INVALID_ARG",
        path: dest,
        message: expect.stringMatching(/^cannot create backup directory .*: (ENOENT|ENOTDIR)/),
      });
    }
    await db.close();
    const r = await rafkv([dir, "backup", path.join(file, "copy")]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^rafkv: cannot create backup directory /);
  });
});

/** The real directory, but renaming data files into `dest` fails from the `n`th on; `dead` also fails every later call. */
function failingAt(dest: string, n: number, dead: boolean): DirectoryOps {
  let renamed = 0;
  let died = false;
  const inDest = (p: string) => p.startsWith(`${dest}${path.sep}`);
  const guarded =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      if (died && a.some((x) => typeof x === "string" && inDest(x)))
        throw Object.assign(new Error("EIO: the process died"), { code: "EIO" });
      return f(...a);
    };
  return {
    ...realDirectory,
    list: guarded(realDirectory.list),
    remove: guarded(realDirectory.remove),
    removeDirectory: guarded((p: string) => realDirectory.removeDirectory?.(p)),
    syncDirectory: guarded(realDirectory.syncDirectory),
    writeFileSynced: guarded(realDirectory.writeFileSynced),
    openData: guarded(realDirectory.openData),
    rename(from, to) {
      if (inDest(to) && to.endsWith(".data") && ++renamed >= n) {
        died = dead;
        throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
      }
      guarded(realDirectory.rename)(from, to);
    },
  };
}

describe("a backup that fails", () => {
  it("leaves the destination as it was: missing, or empty (rafkv: a failed command changes nothing)", async () => {
    for (const existing of [false, true]) {
      const dir = tempDir();
      const dest = path.join(tempDir(), "copy");
      if (existing) fs.mkdirSync(dest);
      const db = await open(dir, { maxFileSize: 100, directory: failingAt(dest, 3, false) });
      for (let i = 0; i < 12; i++) await db.put(`k${i}`, "v".repeat(60));
      await expect(db.backup(dest)).rejects.toMatchObject({ code: "ENOSPC" });
      expect(existing ? fs.readdirSync(dest) : fs.existsSync(dest)).toEqual(existing ? [] : false);
      // The store is unharmed, and a backup into the same place works once the disk has room.
      expect(await db.getString("k11")).toBe("v".repeat(60));
      await db.close();
      const again = await open(dir);
      await again.backup(dest);
      await again.close();
      const copy = await open(dest);
      expect(await copy.getString("k0")).toBe("v".repeat(60));
      await copy.close();
    }
  });

  it("keeps the incomplete-backup marker while a copied file it could not remove is left", async () => {
    const dir = tempDir();
    const dest = path.join(tempDir(), "copy");
    const failing = failingAt(dest, 3, false);
    const directory = {
      ...failing,
      remove(p: string) {
        if (p.startsWith(`${dest}${path.sep}`) && p.endsWith(".data"))
          throw Object.assign(new Error("EIO: i/o error, unlink"), { code: "EIO" });
        realDirectory.remove(p);
      },
    };
    const db = await open(dir, { maxFileSize: 100, directory });
    for (let i = 0; i < 12; i++) await db.put(`k${i}`, "v".repeat(60));
    await expect(db.backup(dest)).rejects.toMatchObject({ code: "ENOSPC" });
    await db.close();
    expect(fs.readdirSync(dest)).toContain("BACKUP-INCOMPLETE");
    await expect(open(dest, { readOnly: true })).rejects.toMatchObject({ code: "ERR_KV_NO_STORE" });
  });

  it("removes only what it wrote: a file another program put there meanwhile stays", async () => {
    const dir = tempDir();
    const dest = path.join(tempDir(), "copy");
    const failing = failingAt(dest, 3, false);
    const directory = {
      ...failing,
      rename(from: string, to: string) {
        if (to === path.join(dest, "0000000002.data"))
          fs.writeFileSync(path.join(dest, "someone-elses.txt"), "mine");
        failing.rename(from, to);
      },
    };
    const db = await open(dir, { maxFileSize: 100, directory });
    for (let i = 0; i < 12; i++) await db.put(`k${i}`, "v".repeat(60));
    await expect(db.backup(dest)).rejects.toMatchObject({ code: "ENOSPC" });
    await db.close();
    expect(fs.readdirSync(dest)).toEqual(["someone-elses.txt"]);
  });

  it("cut short by a crash, leaves a copy that refuses to open rather than one missing keys", async () => {
    const dir = tempDir();
    const dest = path.join(tempDir(), "copy");
    const db = await open(dir, { maxFileSize: 100, directory: failingAt(dest, 3, true) });
    for (let i = 0; i < 12; i++) await db.put(`k${i}`, "v".repeat(60));
    await expect(db.backup(dest)).rejects.toMatchObject({ code: "ENOSPC" });
    await db.close();
    // Two data files made it in before the crash: they would open as a store of two keys.
    expect(fs.readdirSync(dest).filter((n) => n.endsWith(".data"))).toHaveLength(2);
    for (const readOnly of [true, false]) {
      await expect(open(dest, { readOnly })).rejects.toMatchObject({
        code: "ERR_KV_NO_STORE",
        message: expect.stringMatching(/is an incomplete backup/),
      });
    }
    const r = await rafkv([dest, "get", "k0"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is an incomplete backup/);
  });
});

/** A closed store of small sealed files where k was "old", then "new"; and the data file holding "new". */
async function storeWithNewerK(): Promise<{ dir: string; holder: string }> {
  const dir = tempDir();
  const db = await open(dir, { maxFileSize: 100 });
  await db.put("k", "old");
  await db.put("filler", "x".repeat(90));
  await db.put("k", "new");
  await db.put("filler2", "y".repeat(90));
  await db.close();
  const holder = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".data"))
    .find((name) => fs.readFileSync(path.join(dir, name)).includes("new"))!;
  return { dir, holder };
}

describe("backup of a store with a lost data file", () => {
  it("carries the loss into the copy, which answers no older value", async () => {
    // The data file holding k's newest value goes; its hint stays, the evidence of the loss.
    const { dir, holder } = await storeWithNewerK();
    expect(fs.existsSync(path.join(dir, holder.replace(".data", ".hint")))).toBe(true);
    fs.rmSync(path.join(dir, holder));
    const damaged = await open(dir);
    expect(damaged.readOnly).toBe(true);
    expect(await damaged.has("k")).toBe(false);
    const dest = path.join(tempDir(), "copy");
    await damaged.backup(dest);
    await damaged.close();
    const copy = await open(dest);
    expect(copy.readOnly).toBe(true);
    expect(copy.recovery.map((r) => r.kind)).toContain("corrupt");
    expect(await copy.has("k")).toBe(false);
    await copy.close();
  });
});

describe("backup of a store with a data file cut short under its hint", () => {
  it.each([false, true])(
    "carries the damage into the copy (read-only open: %s)",
    async (readOnly) => {
      const { dir, holder } = await storeWithNewerK();
      fs.truncateSync(path.join(dir, holder), 10);
      const damaged = await open(dir, { readOnly });
      expect(damaged.readOnly).toBe(true);
      await expect(damaged.get("k")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
      const dest = path.join(tempDir(), "copy");
      await damaged.backup(dest);
      await damaged.close();
      const copy = await open(dest);
      expect(copy.readOnly).toBe(true);
      await expect(copy.get("k")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
      await copy.close();
    },
  );
});

describe("backup's damage notes are the store's own, not the directory's current DAMAGED", () => {
  it("carries damage a read found, after a repair elsewhere removed the directory's note", async () => {
    const { dir, holder } = await storeWithNewerK();
    const file = path.join(dir, holder);
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf("new"); // inside a record its hint covers: found only by the read
    bytes[at] = bytes[at]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    const reader = await open(dir, { readOnly: true });
    await expect(reader.get("k")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    expect(fs.existsSync(path.join(dir, "DAMAGED"))).toBe(true);
    fs.rmSync(path.join(dir, "DAMAGED")); // as another process's repair does
    const dest = path.join(tempDir(), "copy");
    await reader.backup(dest);
    await reader.close();
    const copy = await open(dest);
    expect(copy.readOnly).toBe(true);
    expect(copy.recovery).toContainEqual(
      expect.objectContaining({ file: holder, kind: "corrupt" }),
    );
    await copy.close();
  });

  it("takes a note another process wrote since about a file the copy holds", async () => {
    const { dir, holder } = await storeWithNewerK();
    const reader = await open(dir, { readOnly: true });
    fs.writeFileSync(path.join(dir, "DAMAGED"), `${holder} 0 10\n`);
    const dest = path.join(tempDir(), "copy");
    await reader.backup(dest);
    await reader.close();
    const copy = await open(dest);
    expect(copy.readOnly).toBe(true);
    expect(copy.recovery).toContainEqual(expect.objectContaining({ file: holder, offset: 0 }));
    await copy.close();
  });

  it("leaves out a note written since about a file the copy does not hold", async () => {
    const { dir } = await storeWithNewerK();
    const reader = await open(dir, { readOnly: true });
    fs.writeFileSync(path.join(dir, "DAMAGED"), "000099.data 0 10\n");
    const dest = path.join(tempDir(), "copy");
    await reader.backup(dest);
    await reader.close();
    const copy = await open(dest);
    expect(copy.recovery).toEqual([]);
    expect(copy.readOnly).toBe(false);
    expect(await copy.getString("k")).toBe("new");
    await copy.close();
  });
});

describe("backup by a live reader that saw a writer's append half done", () => {
  it("copies no hint the writer wrote since over that file: the copy reports no damage", async () => {
    const dir = tempDir();
    const db = await open(dir);
    for (let i = 0; i < 20; i++) await db.put(`k${i}`, `v${i}`);
    await db.close();
    const data = path.join(dir, dataFiles(dir)[0]!);
    const hint = data.replace(/\.data$/, ".hint");
    const [sealed, sealedHint] = [fs.readFileSync(data), fs.readFileSync(hint)];
    // What a reader sees while the writer is at its 11th append: ten records, half of the next, no hint yet.
    const eleventh = recordOffsets(data)[10]!;
    fs.writeFileSync(data, sealed.subarray(0, eleventh + 23));
    fs.rmSync(hint);
    const reader = await open(dir, { readOnly: true });
    expect(reader.recovery.map((r) => r.kind)).toEqual(["torn-tail"]);
    // The writer then finished and sealed the file: its hint covers more than the reader loaded of it.
    fs.writeFileSync(data, sealed);
    fs.writeFileSync(hint, sealedHint);
    const dest = path.join(tempDir(), "copy");
    await reader.backup(dest);
    await reader.close();
    const copy = await open(dest, { readOnly: true });
    expect(copy.recovery.filter((r) => r.kind === "corrupt")).toEqual([]);
    for (let i = 0; i < 10; i++) expect(await copy.getString(`k${i}`)).toBe(`v${i}`);
    await copy.close();
  });
});

describe("backup by a read-only open while a writer without an OS lock compacts", () => {
  it("copies what the reader loaded, consistent with itself: the copy holds every key", async () => {
    const dir = tempDir();
    const go = path.join(tempDir(), "go");
    const writer = spawn(
      process.execPath,
      [new URL("./fixtures/paused-compaction-writer.mjs", import.meta.url).pathname, dir, go],
      { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, RAFKIT_BACKEND: "node" } },
    );
    const exited = new Promise((resolve) => writer.on("exit", resolve));
    const lines: string[] = [];
    createInterface({ input: writer.stdout }).on("line", (line) => lines.push(line));
    const said = (line: string) =>
      new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + 30_000;
        const check = () => {
          if (lines.includes(line)) resolve();
          else if (Date.now() > deadline) reject(new Error(`the writer never said ${line}`));
          else setTimeout(check, 5);
        };
        check();
      });
    try {
      await said("compacting");
      const reader = await open(dir, { readOnly: true });
      fs.writeFileSync(go, "");
      // The directory's marker now makes the files the reader loaded obsolete, and the file that was active then
      // has a hint covering more than the reader loaded of it.
      await said("committed");
      const dest = path.join(tempDir(), "copy");
      await reader.backup(dest);
      await reader.close();
      const copy = await open(dest, { readOnly: true });
      expect(copy.recovery).toEqual([]);
      for (let i = 0; i < 1000; i++) expect(await copy.getString(`key${i}`)).toBe(`value${i}`);
      expect((await copy.verify()).ok).toBe(true);
      await copy.close();
    } finally {
      // Whatever failed, the writer must not wait on: let it go on, ask it to close, and stop it if it does not.
      fs.writeFileSync(go, "");
      writer.stdin.on("error", () => undefined); // a writer already gone
      writer.stdin.write("close");
      const stop = setTimeout(() => writer.kill(), 30_000);
      await exited;
      clearTimeout(stop);
    }
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
