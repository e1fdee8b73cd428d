import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { dataFiles, tempDir } from "./helpers";

/** Data files on disk that hold bytes. */
const filesWithData = (dir: string) =>
  dataFiles(dir).filter((n) => fs.statSync(path.join(dir, n)).size > 0).length;

describe("verify's file count", () => {
  it("counts the data files that hold records, not the empty active file", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 4096 });
    expect((await db.verify()).files).toBe(0); // a new store: only its empty active file
    for (let i = 0; i < 100; i++) await db.put(`k${i}`, "v".repeat(100));
    expect((await db.verify()).files).toBe(filesWithData(dir));
    await db.compact();
    // The compaction leaves its outputs and a new, empty active file.
    expect(db.stats().files).toBe(dataFiles(dir).length);
    const report = await db.verify();
    expect(report).toMatchObject({ ok: true, records: 100 });
    expect(report.files).toBe(filesWithData(dir));
    expect(report.files).toBe(dataFiles(dir).length - 1);
    await db.close();
    const ro = await open(dir, { readOnly: true });
    expect((await ro.verify()).files).toBe(filesWithData(dir));
    await ro.close();
  });
});
