import { describe, expect, it, vi } from "vitest";
import { tempDir } from "./helpers";

/** Value caches made, and how many more readMarker calls should see a marker that changed under the listing. */
const counts = vi.hoisted(() => ({ caches: 0, staleReads: 0, markerCalls: 0 }));

vi.mock("../src/value-cache", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/value-cache")>();
  class CountedCache extends real.ValueCache {
    constructor(size: number) {
      super(size);
      counts.caches++;
    }
  }
  return { ...real, ValueCache: CountedCache };
});

// Fault injection: the race a read-only open meets when a writer commits a compaction during its listing. A reader
// reads the marker before and after listing; the second read of the first attempts answers a newer marker.
vi.mock("../src/marker", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/marker")>();
  return {
    ...real,
    readMarker: (dir: import("../src/store-dir").StoreDir) => {
      const marker = real.readMarker(dir);
      counts.markerCalls++;
      if (counts.markerCalls % 2 === 0 && counts.staleReads > 0) {
        counts.staleReads--;
        return marker + 1;
      }
      return marker;
    },
  };
});

const { open } = await import("../src");

describe("a read-only open whose listing went stale", () => {
  it("retries with one value cache for all its attempts, and reads the same values", async () => {
    const dir = tempDir();
    const db = await open(dir);
    for (let i = 0; i < 50; i++) await db.put(`k${i}`, `value ${i}`);
    await db.delete("k7");
    await db.close();

    counts.caches = 0;
    counts.markerCalls = 0;
    counts.staleReads = 3; // three attempts see the marker change, the fourth loads
    const reader = await open(dir, { readOnly: true });
    expect(counts.staleReads).toBe(0); // the retry path was taken three times
    expect(counts.caches).toBe(1);
    for (let i = 0; i < 50; i++) {
      expect(await reader.getString(`k${i}`)).toBe(i === 7 ? undefined : `value ${i}`);
    }
    // Reads go through the cache: a second read of each key is served from it, unchanged.
    for (let i = 0; i < 50; i++) {
      expect(await reader.getString(`k${i}`)).toBe(i === 7 ? undefined : `value ${i}`);
    }
    expect(reader.stats().keys).toBe(49);
    await reader.close();
  });
});
