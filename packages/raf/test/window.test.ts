import { describe, expect, test } from "vitest";
import { complete } from "../src/window/complete";
import { planRead } from "../src/window/read-planning";
import { IO } from "../src/window/request";
import { Window } from "../src/window/window";
import { planFlush, planRoom } from "../src/window/write-planning";

describe("Window, unbuffered", () => {
  test("each request hands the driver an exact-length view at offset 0, the same one every time (no per-call subarray)", () => {
    const w = new Window(-1, "x", 0, { readOnly: false, writeThrough: false });
    const seen = new Map<number, Uint8Array>();
    for (let round = 0; round < 3; round++) {
      for (const width of [1, 2, 4, 8]) {
        w.begin();
        expect(planRead(w, width)).toBe(IO);
        expect([
          w.request.offset,
          w.request.length,
          w.request.buffer.length,
          w.request.buffer.byteOffset,
        ]).toEqual([0, width, width, 0]);
        expect(w.request.buffer.buffer).toBe(w.buf.buffer);
        if (round === 0) seen.set(width, w.request.buffer);
        else expect(w.request.buffer).toBe(seen.get(width));
        complete(w, width);
        w.consume(width);
      }
    }
    // A write: its flush uses the same views.
    w.beginWrite();
    expect(planRoom(w, 4)).not.toBe(IO);
    w.buf.set([1, 2, 3, 4], w.progress.readyIndex);
    expect(w.commit(w.progress.readyIndex, 4)).toBe(true);
    expect(planFlush(w)).toBe(IO);
    expect(w.request.buffer).toBe(seen.get(4));
    expect([...w.request.buffer]).toEqual([1, 2, 3, 4]);
  });

  test("buffered windows pass the whole buffer with an offset, as before", () => {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    w.begin();
    expect(planRead(w, 4)).toBe(IO);
    expect(w.request.buffer).toBe(w.buf);
    expect(w.request.length).toBe(64);
  });
});

describe("Window, write runs", () => {
  test("unflushedBytes counts the open run; the run settles into valid and the dirty range", () => {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    expect(w.unflushedBytes()).toBe(0);
    expect(w.runIndex(4)).toBe(0); // opens a run at 0 in an empty window
    w.rawPointer = 4;
    expect(w.runIndex(4)).toBe(4);
    w.rawPointer = 8;
    expect(w.valid).toBe(0); // lowered while the run is open
    expect(w.dirty).toBe(true);
    expect(w.unflushedBytes()).toBe(8);
    expect([w.valid, w.dirtyFrom, w.dirtyTo, w.runEnd]).toEqual([8, 0, 8, -1]);
  });
});
