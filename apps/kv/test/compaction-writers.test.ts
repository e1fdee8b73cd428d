import { describe, expect, it } from "vitest";
import { open } from "../src";
import { tempDir } from "./helpers";

describe("compaction under a writer that awaits every write", () => {
  it.each([
    ["never", 200_000],
    ["always", 5_000],
  ] as const)("finishes under sync %s while the writer keeps going", async (sync, limit) => {
    const dir = tempDir();
    const db = await open(dir, { sync: sync === "always" ? "never" : sync });
    for (let i = 0; i < 3000; i++) db.put(`k${i}`, `value-${i}`);
    await db.close();
    const writer = await open(dir, { sync });
    let done = false;
    const compaction = writer.compact().then(() => {
      done = true;
    });
    let puts = 0;
    while (!done && puts < limit) await writer.put(`w${puts++ % 100}`, "x");
    expect(done).toBe(true);
    await compaction;
    expect(writer.stats().keys).toBe(3000 + Math.min(puts, 100));
    await writer.close();
  });
});

describe("acknowledgements during a compaction", () => {
  it("resolve in write order", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "always" });
    for (let i = 0; i < 2000; i++) db.put(`k${i}`, "v");
    const compaction = db.compact();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => db.put("x", `v${i}`).then(() => order.push(i))),
    );
    await compaction;
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(await db.getString("x")).toBe("v39");
    await db.close();
  });
});
