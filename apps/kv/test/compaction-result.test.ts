import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { keyIdBytes } from "../src/bytes";
import { decodeHint } from "../src/hint-file";
import { dataFiles, tempDir } from "./helpers";

describe("CompactionResult", () => {
  it("counts the files a compaction wrote and removed, not those that writes during it started", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 4096, sync: "never" });
    for (let i = 0; i < 300; i++) await db.put(`old:${i}`, `value-${i}-${"x".repeat(60)}`);
    for (let i = 0; i < 300; i += 3) await db.delete(`old:${i}`);
    const before = new Set(dataFiles(dir));
    const running = db.compact();
    // Enough writes meanwhile to fill and seal several active files.
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) writes.push(db.put(`new:${i}`, "y".repeat(100)));
    const result = await running;
    await Promise.all(writes);
    await db.close();
    const after = dataFiles(dir);
    const added = after.filter((n) => !before.has(n));
    // A compaction's outputs hold only records it copied: the keys written before it started.
    const outputs = added.filter((name) => {
      const hintPath = path.join(dir, name.replace(".data", ".hint"));
      if (!fs.existsSync(hintPath)) return false; // an empty active file
      const hint = decodeHint(fs.readFileSync(hintPath));
      return hint!.entries.every((h) =>
        Buffer.from(keyIdBytes(h.id)).toString().startsWith("old:"),
      );
    });
    expect(outputs.length).toBeGreaterThan(1);
    expect(added.length).toBeGreaterThan(outputs.length + 1); // writes started files of their own
    expect(result.filesWritten).toBe(outputs.length);
    expect(result.filesRemoved).toBe([...before].filter((n) => !after.includes(n)).length);
    expect(result.filesRemoved).toBeGreaterThan(1);
  });
});
