import { describe, expect, it } from "vitest";
import { open, type Store } from "../src";
import { tempDir } from "./helpers";

/**
 * Issues puts, deletes of keys that exist and deletes of keys that do not, interleaved, each noting when its promise
 * resolves, and returns the order of those notes with what each resolved to.
 */
async function issueMixed(db: Store, n: number): Promise<{ order: number[]; values: unknown[] }> {
  const order: number[] = [];
  const values: unknown[] = [];
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    const p: Promise<unknown> =
      kind === 0
        ? db.put(`k${i}`, "v")
        : kind === 1
          ? db.delete(`k${i - 1}`)
          : db.delete(`missing${i}`);
    writes.push(
      p.then((v) => {
        order.push(i);
        values[i] = v;
      }),
    );
  }
  await Promise.all(writes);
  return { order, values };
}

const expected = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1));

describe("acknowledgement order", () => {
  it.each(["always", "batch", "never"] as const)(
    "follows issue order for puts and deletes mixed (sync %s)",
    async (sync) => {
      const db = await open(tempDir(), { sync });
      const { order, values } = await issueMixed(db, 30);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(values).toEqual(expected(30));
      await db.close();
    },
  );

  it.each(["always", "batch", "never"] as const)(
    "follows issue order while a compaction makes writes wait for a turn (sync %s)",
    async (sync) => {
      const db = await open(tempDir(), { sync: "never" });
      for (let i = 0; i < 3000; i++) void db.put(`old${i}`, "v");
      await db.close();
      const writer = await open(db.dir, { sync });
      const compaction = writer.compact();
      const { order, values } = await issueMixed(writer, 600);
      await compaction;
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(values).toEqual(expected(600));
      await writer.close();
    },
  );
});
