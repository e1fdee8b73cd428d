import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { readMarker } from "../src/marker";
import { compactedWithDamagedMarker, dataFiles, flipByte, tempDir } from "./helpers";

// A damaged compaction marker MERGED: a repair must not count a compaction's obsolete inputs as live.

const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const KILL = fileURLToPath(new URL("./fixtures/kill-in-compaction.cjs", import.meta.url));

describe("a damaged MERGED marker", () => {
  it("with obsolete inputs left by a crash: repair refuses rather than bring a deleted key back", async () => {
    const dir = tempDir();
    // The first compaction copies `a` into an output above its active file, where the delete then goes: the
    // tombstone's file is below the value's. The second one dies after its commit, having deleted only its
    // first input (the tombstone's).
    const script = `
      import { open } from ${JSON.stringify(DIST)};
      const store = await open(${JSON.stringify(dir)});
      await store.put("a", "v1");
      await store.put("keep", "k");
      await store.compact();
      await store.delete("a");
      process.env.RAFKV_KILL = "after-first-input";
      await store.compact();
    `;
    const r = spawnSync(
      process.execPath,
      ["--require", KILL, "--input-type=module", "-e", script],
      {
        encoding: "utf8",
      },
    );
    expect(r.signal, r.stderr).toBe("SIGKILL");
    const firstLive = readMarker(dir);
    const obsolete = dataFiles(dir).filter((f) => Number(f.slice(0, 10)) < firstLive);
    expect(obsolete.length).toBeGreaterThan(0);
    expect(obsolete.some((f) => fs.readFileSync(path.join(dir, f)).includes("v1"))).toBe(true);
    const db = await open(dir, { readOnly: true }); // the intact marker makes them obsolete
    expect(await db.get("a")).toBeUndefined();
    await db.close();

    flipByte(path.join(dir, "MERGED"), 6);
    await expect(open(dir)).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    const before = fs.readdirSync(dir).sort();
    await expect(open(dir, { repair: true })).rejects.toMatchObject({
      code: "ERR_KV_CORRUPT",
      message: expect.stringMatching(/MERGED is damaged, and repair cannot rebuild it/),
    });
    expect(fs.readdirSync(dir).sort()).toEqual(before); // nothing changed
  });

  it("when every data file but the newest holds no record: repair rebuilds it", async () => {
    const dir = tempDir();
    let db = await open(dir);
    await db.put("a", "1");
    await db.put("gone", "x");
    await db.delete("gone");
    await db.compact(); // leaves its empty active file, and its output above it
    await db.close();
    const files = dataFiles(dir);
    expect(files).toHaveLength(2);
    expect(fs.statSync(path.join(dir, files[0]!)).size).toBe(0);
    flipByte(path.join(dir, "MERGED"), 2);
    await expect(open(dir)).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" });
    db = await open(dir, { repair: true });
    expect(db.recovery).toEqual([
      expect.objectContaining({ file: "MERGED", kind: "corrupt", action: "skipped" }),
    ]);
    expect(await db.getString("a")).toBe("1");
    await db.close();
    db = await open(dir); // the repair's compaction wrote a new marker
    expect(db.recovery).toEqual([]);
    expect(await db.get("gone")).toBeUndefined();
    expect(await db.getString("a")).toBe("1");
    expect((await db.verify()).ok).toBe(true);
    await db.close();
  });

  it("a rebuilding repair killed before its compaction commits leaves a store the next repair opens", async () => {
    const dir = await compactedWithDamagedMarker(2);
    // Killed as it renames its compaction's output into place: it has made an active file and an output
    // above the file holding `a`, which a new decision would take for an obsolete input.
    const script = `
      import { open } from ${JSON.stringify(DIST)};
      process.env.RAFKV_KILL = "before-output-rename";
      await open(${JSON.stringify(dir)}, { repair: true });
    `;
    const r = spawnSync(
      process.execPath,
      ["--require", KILL, "--input-type=module", "-e", script],
      {
        encoding: "utf8",
      },
    );
    expect(r.signal, r.stderr).toBe("SIGKILL");
    const again = await open(dir, { repair: true });
    expect(await again.getString("a")).toBe("1");
    await again.close();
    const clean = await open(dir);
    expect(clean.recovery).toEqual([]);
    expect(await clean.getString("a")).toBe("1");
    expect((await clean.verify()).ok).toBe(true);
    await clean.close();
  });
});
