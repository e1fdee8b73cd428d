import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { dataFiles, tempDir } from "./helpers";

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
