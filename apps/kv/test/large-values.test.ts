import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { tempDir } from "./helpers";

describe("values larger than the append buffer (64 KiB)", () => {
  it.each(["always", "batch", "never"] as const)(
    "round-trip under sync %s, across reopen and compaction",
    async (sync) => {
      const dir = tempDir();
      const sizes = [65_515, 65_516, 65_536, 65_600, 300_000, 5 * 1024 * 1024];
      const values = sizes.map((n) => randomBytes(n));
      let db = await open(dir, { sync, maxFileSize: 4 * 1024 * 1024 });
      await Promise.all(values.map((v, i) => db.put(`big${i}`, v)));
      await db.put("small", "after");
      // The longest key too.
      const longKey = "k".repeat(0xffff);
      await db.put(longKey, values[0]!);
      for (const [i, v] of values.entries())
        expect(Buffer.from((await db.get(`big${i}`))!).equals(v)).toBe(true);
      await db.put("big0", values[1]!); // garbage for the compaction to drop
      await db.close();

      db = await open(dir, { sync });
      expect(Buffer.from((await db.get("big0"))!).equals(values[1]!)).toBe(true);
      await db.compact();
      for (const [i, v] of values.entries())
        if (i > 0) expect(Buffer.from((await db.get(`big${i}`))!).equals(v)).toBe(true);
      expect(Buffer.from((await db.get(longKey))!).equals(values[0]!)).toBe(true);
      expect(await db.getString("small")).toBe("after");
      expect((await db.verify()).ok).toBe(true);
      await db.close();
    },
  );
});
