import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { DataFile } from "../src/data-file";
import { scanDataFile } from "../src/scan";
import { tempDir } from "./helpers";

/** `file`, counting its reads (a real file: only the count is added). */
function countingReads(file: DataFile): { file: DataFile; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(file, {
    get(target, key) {
      const member = Reflect.get(target, key, target);
      if (typeof member !== "function") return member;
      if (key === "read" || key === "readAt") {
        return (...args: unknown[]) => {
          reads++;
          return member.apply(target, args);
        };
      }
      return member.bind(target);
    },
  });
  return { file: counted, reads: () => reads };
}

describe("a data file with many damaged records", () => {
  it("is scanned in two passes, however many regions are damaged", async () => {
    const dir = tempDir();
    const db = await open(dir); // sync "always": a sync point before every record
    for (let i = 0; i < 400; i++) await db.put(`key${i}`, `value-${i}-${"z".repeat(30)}`);
    await db.close();
    const name = fs.readdirSync(dir).find((n) => n.endsWith(".data"))!;
    const at = path.join(dir, name);
    const records: { offset: number; size: number }[] = [];
    const clean = DataFile.open(at, "r");
    try {
      scanDataFile(clean, 0, (_h, _id, offset, size) => records.push({ offset, size }));
    } finally {
      clean.close();
    }
    // One byte of the value of every other record of the first 300: 150 damaged regions.
    const bytes = fs.readFileSync(at);
    const damaged = records.slice(0, 300).filter((_, k) => k % 2 === 0);
    for (const r of damaged) bytes[r.offset + r.size - 5]! ^= 0xff;
    fs.writeFileSync(at, bytes);

    const { file, reads } = countingReads(DataFile.open(at, "r"));
    try {
      const result = scanDataFile(file, 0, () => {});
      expect(result.damage.map((d) => [d.offset, d.kind])).toEqual(
        damaged.map((r) => [r.offset, "corrupt"]),
      );
      expect(result.records).toBe(400 - damaged.length);
      // Two passes (the scan, and one survey from the first region on), each reading every region a few times:
      // linear in the regions. A scan per region and region after it read 150 * 150 * (a few) times; a scan per
      // subset of them (2^150) would never end.
      expect(reads()).toBeLessThan(150 * 20);
    } finally {
      file.close();
    }
    const store = await open(dir, { readOnly: true });
    expect((await store.verify()).ok).toBe(false);
    await store.close();
  });
});
