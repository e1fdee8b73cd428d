import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { realDirectory } from "../src/store-dir";
import { dataFiles, tempDir } from "./helpers";

// What fuzzing a store's files found: each case lost data, or reported a store other than it was.

/** A closed store of `n` sealed data files, one key each (`k0`…), renamed to start at file id `first`. */
async function sealedFiles(n: number, first = 1): Promise<string> {
  const dir = tempDir();
  const db = await open(dir, { maxFileSize: 100 });
  for (let i = 0; i < n; i++) await db.put(`k${i}`, "v".repeat(60));
  await db.close();
  if (first !== 1) {
    for (const name of fs.readdirSync(dir).filter((f) => /^\d{10}\.(data|hint)$/.test(f))) {
      const id = Number(name.slice(0, 10)) + first - 1;
      fs.renameSync(path.join(dir, name), path.join(dir, `${id}${name.slice(10)}`));
    }
  }
  return dir;
}

describe("file ids near the last one (2^31 - 1)", () => {
  it("a compaction that would need an id past it fails, and every key still answers", async () => {
    const dir = await sealedFiles(2, 2 ** 31 - 3);
    const db = await open(dir);
    await db.put("z", "last"); // the active file takes the last id
    await expect(db.compact()).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    for (const k of ["k0", "k1"]) expect(await db.getString(k)).toBe("v".repeat(60));
    expect(await db.getString("z")).toBe("last");
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect(await again.getString("k0")).toBe("v".repeat(60));
    await again.close();
  });
});

describe("a compaction whose commit (the marker's write) fails", () => {
  it("leaves no outputs behind, attempt after attempt", async () => {
    const dir = await sealedFiles(6);
    const failing = {
      ...realDirectory,
      writeFileSynced(p: string, bytes: Uint8Array) {
        if (path.basename(p) === "MERGED.tmp")
          throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
        realDirectory.writeFileSynced(p, bytes);
      },
    };
    const db = await open(dir, { directory: failing });
    for (let i = 0; i < 3; i++) await db.delete(`k${i}`);
    const onDisk = () => dataFiles(dir).length;
    const sizes: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(db.compact()).rejects.toMatchObject({ code: "ENOSPC" });
      // Every data file on disk is one the store counts (an output left behind is not), and none is added.
      expect(onDisk()).toBe((await db.stats()).files);
      sizes.push(onDisk());
    }
    expect(new Set(sizes).size).toBe(1);
    expect(await db.getString("k5")).toBe("v".repeat(60));
    await db.close();
  });
});

describe("verify and the DAMAGED notes", () => {
  it("fails where the store refuses writes for a note its scan cannot see", async () => {
    const dir = await sealedFiles(1);
    fs.writeFileSync(path.join(dir, "DAMAGED"), "0000000009.data 100 10\n");
    const db = await open(dir);
    expect(db.readOnly).toBe(true);
    const report = await db.verify();
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.stringMatching(/^0000000009\.data: damaged at offset 100/),
    ]);
    await db.close();
  });
});

describe("a dangling symbolic link in place of MERGED or DAMAGED", () => {
  it.each(["MERGED", "DAMAGED"])("%s: refused (ELOOP), not taken for no file", async (name) => {
    const dir = await sealedFiles(2);
    fs.symlinkSync(path.join(tempDir(), "nothing-here"), path.join(dir, name));
    const before = fs.readdirSync(dir).sort();
    for (const readOnly of [true, false]) {
      await expect(open(dir, { readOnly })).rejects.toMatchObject({ code: "ELOOP" });
    }
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  });
});
