import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { readMarker } from "../src/marker";
import { realDirectory, StoreDir } from "../src/store-dir";
import { compactedWithDamagedMarker, dataFiles, flipByte, tempDir } from "./helpers";

const value = (i: number) => `value-${i}-${"z".repeat(i * 2)}`;

describe("reopening after a crash cut the active file short or left garbage at its end", () => {
  it("keeps every record before the damage, at every byte of the last records, and writes again", async () => {
    // The files of a writer killed after 8 acknowledged puts: copied while it is open (no hint for its file).
    const source = tempDir();
    const writer = await open(source, { sync: "always" });
    const ends: number[] = [];
    for (let i = 0; i < 8; i++) {
      await writer.put(`key${i}`, value(i));
      ends.push(writer.stats().totalBytes);
    }
    const name = dataFiles(source)[0]!;
    const full = fs.readFileSync(path.join(source, name)).subarray(0, ends.at(-1)); // without the zeros ahead
    await writer.close();

    const from = ends[5]!; // every byte of the last two records
    let checked = 0;
    for (let cut = from; cut <= full.length; cut++) {
      for (const tail of [Buffer.alloc(0), Buffer.from("garbage after the last record")]) {
        const dir = tempDir();
        fs.writeFileSync(path.join(dir, name), Buffer.concat([full.subarray(0, cut), tail]));
        const db = await open(dir, { sync: "never" });
        const whole = ends.filter((end) => end <= cut).length; // records entirely before the cut
        for (let i = 0; i < 8; i++) {
          expect(await db.getString(`key${i}`)).toBe(i < whole ? value(i) : undefined);
        }
        expect(db.recovery.every((r) => r.kind === "torn-tail" && r.action === "truncated")).toBe(
          true,
        );
        await db.put("after", "crash");
        expect(await db.verify()).toMatchObject({ ok: true, problems: [], tornTails: [] });
        await db.close();
        checked++;
      }
    }
    expect(checked).toBe(2 * (full.length - from + 1));
  });
});

// A data file deleted from under its hint file: lost data, not a compaction's leftover.

const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const KILL = fileURLToPath(new URL("./fixtures/kill-in-compaction.cjs", import.meta.url));

/** Three sealed files (each with a hint): `a` old in the first, `a` new and `b` in the second, `c` in the third. */
async function threeFiles() {
  const dir = tempDir();
  const db = await open(dir, { maxFileSize: 240 });
  await db.put("a", `old${"-".repeat(150)}`);
  await db.put("a", `new${"-".repeat(150)}`);
  await db.put("b", `bee${"-".repeat(30)}`);
  await db.put("c", `sea${"-".repeat(150)}`);
  await db.close();
  const files = dataFiles(dir);
  expect(files).toHaveLength(3);
  for (const f of files)
    expect(fs.existsSync(path.join(dir, f.replace(".data", ".hint")))).toBe(true);
  const second = path.join(dir, files[1]!);
  expect(fs.readFileSync(second).includes("new")).toBe(true);
  return { dir, second, hint: second.replace(/\.data$/, ".hint"), name: files[1]! };
}

/** Runs `script` on the built store in a child that must die by the preload's SIGKILL. */
function killed(script: string): void {
  const r = spawnSync(process.execPath, ["--require", KILL, "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  expect(r.signal, r.stderr).toBe("SIGKILL");
}

describe("a data file missing under its hint", () => {
  it.each([true, false])(
    "is reported as corruption (readOnly: %s), the hint is kept, and no older value answers",
    async (readOnly) => {
      const { dir, second, hint, name } = await threeFiles();
      fs.rmSync(second);
      const db = await open(dir, { readOnly });
      expect(db.readOnly).toBe(true);
      expect(db.recovery).toEqual([
        expect.objectContaining({ file: name, offset: 0, kind: "corrupt", action: "ignored" }),
      ]);
      if (!readOnly) expect(db.stats().readOnlyReason).toMatch(/data file .* is missing/);
      expect(await db.get("a")).toBeUndefined(); // not "old...": its newest record is lost
      expect(await db.get("b")).toBeUndefined();
      expect(await db.getString("c")).toMatch(/^sea/);
      await expect(db.put("x", "y")).rejects.toMatchObject({ code: "ERR_KV_READ_ONLY" });
      const report = await db.verify();
      expect(report.ok).toBe(false);
      expect(report.problems).toEqual([expect.stringMatching(`^${name}: missing`)]);
      await db.close();
      expect(fs.existsSync(hint)).toBe(true);
      // Still reported by the next open: nothing was forgotten.
      const again = await open(dir);
      expect(again.readOnly).toBe(true);
      await again.close();
      expect(fs.existsSync(hint)).toBe(true);
    },
  );

  it("a repair goes on without the lost keys, says what was lost, and then removes the hint", async () => {
    const { dir, second, hint, name } = await threeFiles();
    const coveredLength = fs.statSync(second).size;
    fs.rmSync(second);
    const db = await open(dir, { repair: true });
    expect(db.readOnly).toBe(false);
    expect(db.recovery).toEqual([
      expect.objectContaining({
        file: name,
        kind: "corrupt",
        action: "skipped",
        bytes: coveredLength,
      }),
    ]);
    expect(await db.get("a")).toBeUndefined();
    expect(await db.getString("c")).toMatch(/^sea/);
    await db.put("d", "dee");
    await db.close();
    expect(fs.existsSync(hint)).toBe(false);
    const clean = await open(dir);
    expect(clean.readOnly).toBe(false);
    expect(clean.recovery).toEqual([]);
    expect((await clean.verify()).ok).toBe(true);
    expect(await clean.get("a")).toBeUndefined();
    expect(await clean.getString("d")).toBe("dee");
    await clean.close();
  });

  it("is not confused with a crash between a compaction output's hint and its data file, nor during their removal", async () => {
    const dir = tempDir();
    const script = `
      import { open } from ${JSON.stringify(DIST)};
      const store = await open(${JSON.stringify(dir)});
      for (let i = 0; i < 50; i++) await store.put("k" + i, "v" + i);
      await store.delete("k0");
      process.env.RAFKV_KILL = "before-output-rename";
      await store.compact();
    `;
    killed(script);
    const names = fs.readdirSync(dir);
    const output = names.find((n) => n.endsWith(".data.tmp"))!;
    expect(output).toBeDefined();
    expect(names).toContain(output.replace(".data.tmp", ".hint")); // the hint without its data file
    const reader = await open(dir, { readOnly: true });
    expect(reader.recovery).toEqual([]);
    await reader.close();
    // A writable open removing those leftovers dies in turn, after deleting the `.tmp` data file.
    killed(`
      import { open } from ${JSON.stringify(DIST)};
      process.env.RAFKV_KILL = "after-temp-removal";
      await open(${JSON.stringify(dir)});
    `);
    expect(fs.readdirSync(dir)).not.toContain(output);
    const db = await open(dir);
    expect(db.readOnly).toBe(false);
    expect(db.recovery).toEqual([]);
    expect(await db.getString("k49")).toBe("v49");
    expect(await db.get("k0")).toBeUndefined();
    await db.close();
    expect(fs.readdirSync(dir)).not.toContain(output.replace(".data.tmp", ".hint"));
  });
});

// A damaged compaction marker MERGED: a repair must not count a compaction's obsolete inputs as live.

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
    const firstLive = readMarker(new StoreDir(dir, realDirectory));
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
