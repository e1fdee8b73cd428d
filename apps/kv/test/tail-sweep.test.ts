import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { dataFiles, tempDir } from "./helpers";

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
