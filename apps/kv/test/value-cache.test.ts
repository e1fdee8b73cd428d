import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyOut, ValueCache } from "../src/value-cache";

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe("ValueCache (the read cache's ring)", () => {
  it("hands out copies: changing one changes neither the cache nor other copies", () => {
    const cache = new ValueCache(1024);
    const value = bytes(10, 7);
    const h = cache.add(value, 0, value.length);
    value.fill(1); // the caller reuses its buffer after put
    const a = cache.copyOut(h, 10);
    a.fill(9);
    const b = cache.copyOut(h, 10);
    expect([...b]).toEqual(Array(10).fill(7));
    expect(b.buffer === a.buffer ? b.byteOffset !== a.byteOffset : true).toBe(true);
  });

  it("matches a model of first-in-first-out eviction for any sizes, including wrap-around", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 64, max: 3000 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 200 }),
        (size, lengths) => {
          const cache = new ValueCache(size);
          const added: { h: number; n: number; fill: number }[] = [];
          lengths.forEach((n, i) => {
            const h = cache.add(bytes(n, i & 0xff), 0, n);
            if (n > Math.floor(size / 8)) expect(h).toBe(-1);
            else added.push({ h, n, fill: i & 0xff });
          });
          // Every valid handle still holds its own bytes; the newest value is always valid.
          for (const { h, n, fill } of added) {
            if (cache.has(h)) expect([...cache.copyOut(h, n)]).toEqual(Array(n).fill(fill));
          }
          const last = added.at(-1);
          if (last) expect(cache.has(last.h)).toBe(true);
        },
      ),
    );
  });

  it("keeps at least the last ring's worth of values, and drops older ones", () => {
    const cache = new ValueCache(1000); // 125-byte values at most
    const handles = Array.from({ length: 100 }, (_, i) => cache.add(bytes(100, i), 0, 100));
    // 104 bytes per value (8-byte aligned): the last 9 fit in 1000 bytes.
    for (const h of handles.slice(-9)) expect(cache.has(h)).toBe(true);
    expect(cache.has(handles[0]!)).toBe(false);
    expect(cache.has(-1)).toBe(false);
  });

  it("is off at size 0", () => {
    const cache = new ValueCache(0);
    expect(cache.add(bytes(1, 1), 0, 1)).toBe(-1);
    expect(cache.has(-1)).toBe(false);
  });

  it("copies ranges of any size into fresh arrays", () => {
    const source = Uint8Array.from({ length: 20_000 }, (_, i) => i & 0xff);
    for (const [start, end] of [
      [0, 0],
      [3, 10],
      [0, 20_000],
      [100, 9000],
    ] as const) {
      const out = copyOut(source, start, end);
      expect([...out]).toEqual([...source.subarray(start, end)]);
      out.fill(0);
      expect(source[start + 1]).toBe((start + 1) & 0xff);
    }
  });
});
