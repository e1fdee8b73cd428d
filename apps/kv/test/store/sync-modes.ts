import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../../src";
import { dataFiles, tempDir } from "../helpers";

describe("sync modes", () => {
  it("batch groups concurrent writes, and every put resolves durable", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    await Promise.all(Array.from({ length: 500 }, (_, i) => db.put(`k${i}`, `v${i}`)));
    await Promise.all([db.delete("k1"), db.put("k2", "new")]);
    expect(await db.getString("k2")).toBe("new");
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect(again.stats().keys).toBe(499);
    await again.close();
  });

  it("batch resolves a put whose group fsync was still waiting to start when close came", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    const puts = Array.from({ length: 300 }, (_, i) => db.put(`k${i}`, `v${i}`));
    await db.close();
    await Promise.all(puts);
    const again = await open(dir, { readOnly: true });
    expect(again.stats().keys).toBe(300);
    expect(await again.getString("k299")).toBe("v299");
    await again.close();
  });

  it("batch keeps resolving writes that arrive in waves while fsyncs run", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "batch" });
    let next = 0;
    const client = async () => {
      for (let i = 0; i < 40; i++) {
        const n = next++;
        await db.put(`w${n}`, `v${n}`);
      }
    };
    await Promise.all(Array.from({ length: 50 }, client));
    await db.close();
    const again = await open(dir, { readOnly: true });
    expect(again.stats().keys).toBe(2000);
    expect(await again.getString("w1999")).toBe("v1999");
    await again.close();
  });

  it("never hands writes to the OS by the next turn, so another reader sees them without a close", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "never" });
    await db.put("k", "v");
    await new Promise((resolve) => setImmediate(resolve));
    const file = path.join(dir, dataFiles(dir).at(-1)!);
    expect(fs.readFileSync(file).includes(Buffer.from("v"))).toBe(true);
    await db.close();
  });
});
