import { describe, expect, it } from "vitest";
import { open } from "../src";
import { tempDir } from "./helpers";

// verify() while the store goes on: writes, a compaction, a close. It was a plain TypeError, or damage reported on a
// healthy store (keys written or moved after their file was read).
describe("verify while the store goes on", () => {
  it("a compaction started in the same tick: ok, no engine TypeError", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 2048 });
    for (let i = 0; i < 300; i++) await db.put(`k${i % 40}`, `v${i}`);
    for (const first of ["verify", "compact"] as const) {
      const [report] =
        first === "verify"
          ? await Promise.all([db.verify(), db.compact()])
          : await Promise.all([db.compact(), db.verify()]).then(([, r]) => [r]);
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
    }
    await db.close();
  });

  it("writes between its turns: ok", async () => {
    for (const sync of ["never", "batch", "always"] as const) {
      const dir = tempDir();
      const db = await open(dir, { sync, maxFileSize: 1024 });
      for (let i = 0; i < 100; i++) await db.put(`n${i}`, "x".repeat(50));
      let stop = false;
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          await db.put(`n${i % 100}`, `y${i}`);
          await new Promise((r) => setImmediate(r));
        }
      })();
      const report = await db.verify();
      stop = true;
      await writer;
      expect([sync, report.problems]).toEqual([sync, []]);
      await db.close();
    }
  });

  it("a close meanwhile: ERR_KV_CLOSED", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 2048 });
    for (let i = 0; i < 300; i++) await db.put(`k${i}`, `v${i}`);
    const verifying = db.verify();
    await db.close();
    await expect(verifying).rejects.toMatchObject({ code: "ERR_KV_CLOSED" });
  });
});
