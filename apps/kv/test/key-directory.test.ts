import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyId } from "../src/bytes";
import { hashId, KeyDirectory } from "../src/key-directory";

describe("KeyDirectory", () => {
  it("matches a Map under random sets and deletes, reusing freed slots", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.boolean(),
            fc.constantFrom("a", "b", "c", "\u00e9", "\u00ff\u0000", "key"),
            fc.nat(),
          ),
          { maxLength: 300 },
        ),
        (ops) => {
          const dir = new KeyDirectory();
          const model = new Map<string, number>();
          let ts = 0;
          for (const [put, id, n] of ops) {
            if (put) {
              ts++;
              const slot = dir.set(id, n % 7, n, 21 + (n % 100), ts, n % 5 === 0 ? -1 : n);
              expect(dir.find(id)).toBe(slot);
              model.set(id, n);
            } else {
              expect(dir.delete(id)).toBe(model.delete(id));
            }
          }
          expect(dir.count).toBe(model.size);
          expect(new Set(dir.ids())).toEqual(new Set(model.keys()));
          for (const [id, n] of model) {
            const slot = dir.find(id);
            expect(dir.file(slot)).toBe(n % 7);
            expect(dir.offset(slot)).toBe(n);
            expect(dir.recordSize(slot)).toBe(21 + (n % 100));
            expect(dir.cache(slot)).toBe(n % 5 === 0 ? -1 : n);
          }
        },
      ),
    );
  });

  it("matches a Map with thousands of keys: growth, long probe runs, deletes that shift entries back", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 9 }), fc.nat({ max: 2999 })), {
          minLength: 500,
          maxLength: 6000,
        }),
        fc.constantFrom(2, 4, 2048),
        fc.constantFrom(7, 60, 3000),
        (ops, tableSize, keySpace) => {
          // A small first table grows often and wraps its probe runs round its end.
          const dir = new KeyDirectory(tableSize);
          const model = new Map<string, number>();
          let ts = 0;
          // Ids of varied shapes: ASCII, bytes above 0x7f, and one-char ids, so that probe runs mix them.
          const idOf = (n: number) =>
            n % 3 === 0 ? `user${n}` : n % 3 === 1 ? `\u00ff${n}\u0080` : String.fromCharCode(n);
          for (const [kind, k] of ops) {
            // Few keys keep a small table near half full, where probe runs are long and wrap.
            const n = k % keySpace;
            const id = idOf(n);
            if (kind < 6) {
              const slot = dir.set(id, n % 7, ++ts, 21 + (n % 100), ts, -1);
              expect(dir.find(id)).toBe(slot);
              model.set(id, ts);
            } else {
              expect(dir.delete(id)).toBe(model.delete(id));
              expect(dir.find(id)).toBe(-1);
            }
          }
          expect(dir.count).toBe(model.size);
          expect(new Set(dir.ids())).toEqual(new Set(model.keys()));
          expect(dir.hasOther).toBe([...model.keys()].some((id) => /[^\0-\x7f]/.test(id)));
          const slots = new Set<number>();
          for (const [id, ts] of model) {
            const slot = dir.find(id);
            slots.add(slot);
            expect(dir.timestamp(slot)).toBe(ts);
            expect(dir.offset(slot)).toBe(ts);
            if (/^[\0-\x7f]*$/.test(id)) expect(dir.findAscii(id)).toBe(slot);
            else expect(dir.findAscii(id)).toBe(-1);
          }
          // Every live key has a slot of its own.
          expect(slots.size).toBe(model.size);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps every key findable when a delete shifts a probe run that wraps round the table's end", () => {
    // Seven ids whose home entries in a 16-entry table are 13, 14, 15 or 0: their probe runs cross the end.
    const pool: string[] = [];
    for (let n = 0; pool.length < 7; n++) {
      const id = `k${n}`;
      if ([13, 14, 15, 0].includes(hashId(id) & 15)) pool.push(id);
    }
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.constantFrom(...pool)), { maxLength: 200 }),
        (ops) => {
          // Seven keys at most: a 16-entry table never grows.
          const dir = new KeyDirectory(16);
          const model = new Set<string>();
          let ts = 0;
          for (const [put, id] of ops) {
            if (put) {
              dir.set(id, 1, ++ts, 30, ts, -1);
              model.add(id);
            } else {
              expect(dir.delete(id)).toBe(model.delete(id));
            }
            for (const live of pool) expect(dir.find(live) >= 0).toBe(model.has(live));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("moves an entry back across the table's end when a delete opens a hole before it", () => {
    // In a 16-entry table: a and c have home 14, b and d home 15; inserted in that order they sit at 14, 15, 0
    // and 1. Deleting a must move c to 14 and then d (home 15, past the end) to 0, or d is lost behind a hole.
    const byHome = new Map<number, string[]>();
    for (let n = 0; n < 2000; n++) {
      const id = `k${n}`;
      const home = hashId(id) & 15;
      byHome.set(home, [...(byHome.get(home) ?? []), id]);
    }
    const [a, c] = byHome.get(14) as [string, string];
    const [b, d] = byHome.get(15) as [string, string];
    const dir = new KeyDirectory(16);
    for (const id of [a, b, c, d]) dir.set(id, 1, 0, 30, 1, -1);
    expect(dir.delete(a)).toBe(true);
    expect([a, b, c, d].map((id) => dir.find(id) >= 0)).toEqual([false, true, true, true]);
  });

  it("finds an ASCII string key in one lookup, and never mistakes other strings for ids", () => {
    const dir = new KeyDirectory();
    // The id of the one-byte key 0xe9 is the string "\u00e9"; the string key "é" is UTF-8 0xc3 0xa9.
    dir.set(keyId(new Uint8Array([0xe9])), 1, 0, 22, 1, -1);
    dir.set("plain", 1, 22, 26, 2, -1);
    expect(dir.findAscii("plain")).toBeGreaterThanOrEqual(0);
    expect(dir.findAscii("\u00e9")).toBe(-1);
    expect(dir.hasOther).toBe(true);
    expect(dir.find(keyId("\u00e9"))).toBe(-1);
    dir.set(keyId("\u00e9"), 1, 48, 23, 3, -1);
    expect(dir.find(keyId("\u00e9"))).not.toBe(dir.find(keyId(new Uint8Array([0xe9]))));
  });

  it("moves a record without touching its size, timestamp or cached value", () => {
    const dir = new KeyDirectory();
    const slot = dir.set("k", 3, 100, 40, 7, 512);
    dir.move(slot, 9, 4096);
    expect([
      dir.file(slot),
      dir.offset(slot),
      dir.recordSize(slot),
      dir.timestamp(slot),
      dir.cache(slot),
    ]).toEqual([9, 4096, 40, 7, 512]);
  });

  it("grows past its first table", () => {
    const dir = new KeyDirectory();
    for (let i = 0; i < 5000; i++) dir.set(`k${i}`, i, i * 30, 30, i, -1);
    expect(dir.count).toBe(5000);
    expect(dir.offset(dir.find("k4321"))).toBe(4321 * 30);
    dir.clear();
    expect(dir.count).toBe(0);
    expect(dir.find("k1")).toBe(-1);
  });
});
