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

describe("Window, cursors", () => {
  test("a write run opens at the slow path's commit; the hot path extends it; it settles into valid and the dirty range", () => {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    expect(w.unflushedBytes()).toBe(0);
    expect(w.runIndex(4)).toBe(-1); // no run: the slow path opens one
    w.beginWrite();
    expect(planRoom(w, 4)).not.toBe(IO);
    expect(w.commit(w.progress.readyIndex, 4)).toBe(false);
    expect([w.attached, w.pointer, w.runIndex(4)]).toEqual([true, 4, 4]);
    w.cursor = 8;
    expect(w.pointer).toBe(8);
    expect(w.dirty).toBe(true);
    expect(w.unflushedBytes()).toBe(8);
    expect([w.attached, w.rawPointer, w.valid, w.dirtyFrom, w.dirtyTo]).toEqual([
      false,
      8,
      8,
      0,
      8,
    ]);
  });

  test("a read cursor attaches after a slow-path read and detaches when the pointer moves", () => {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    w.holdFirst(16);
    expect([w.attached, w.takeRead(4), w.takeRead(8), w.pointer]).toEqual([true, 0, 4, 12]);
    expect(w.takeRead(8)).toBe(-1); // past valid: the slow path's
    expect(w.runIndex(1)).toBe(-1); // a write at a read cursor takes the slow path
    w.pointer = 2;
    expect([w.attached, w.rawPointer, w.takeRead(1)]).toEqual([false, 2, -1]);
  });

  test("unbuffered windows never attach a cursor", () => {
    const w = new Window(-1, "x", 0, { readOnly: false, writeThrough: false });
    w.holdFirst(8);
    w.attachRead();
    expect([w.attached, w.takeRead(1)]).toEqual([false, -1]);
  });
});
