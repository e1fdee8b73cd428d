import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyId } from "../src/bytes";
import { KeyDirectory } from "../src/key-directory";

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
