import { describe, expect, test } from "vitest";
import { complete } from "../src/window/complete";
import { planRead } from "../src/window/read-planning";
import { IO } from "../src/window/request";
import { CLEAN, Window } from "../src/window/window";
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

describe("Window, the dirty range's view", () => {
  test("dirtyBytes is buf[dirtyFrom, dirtyTo) as a view of its own, the same one while the range is the same", () => {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    const dirty = (from: number, to: number) => {
      w.buf.fill(from, from, to);
      w.mark(from, to);
    };
    dirty(4, 12);
    const v = w.dirtyBytes();
    expect([v.byteOffset, v.length, v.buffer]).toEqual([4, 8, w.buf.buffer]);
    expect([...v]).toEqual(new Array(8).fill(4));
    expect(w.dirtyBytes()).toBe(v);
    w.flushed(8);
    expect(w.dirty).toBe(false);
    dirty(4, 12);
    expect(w.dirtyBytes()).toBe(v);
    // Another range (the same length elsewhere, or another length at the same place): a new view.
    w.flushed(8);
    dirty(0, 8);
    const u = w.dirtyBytes();
    expect([u.byteOffset, u.length]).toEqual([0, 8]);
    w.flushed(8);
    dirty(0, 9);
    expect(w.dirtyBytes().length).toBe(9);
  });

  test("flushed(r) moves the range's start over r bytes, and cleans the window after the last", () => {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    w.mark(2, 10);
    w.flushed(3);
    expect([w.dirtyFrom, w.dirtyTo, w.dirty]).toEqual([5, 10, true]);
    w.flushed(5);
    expect([w.dirtyFrom, w.dirtyTo, w.dirty]).toEqual([CLEAN, 0, false]);
  });

  test("a released window keeps no view of the memory it gave back", () => {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    w.mark(0, 8);
    const v = w.dirtyBytes();
    w.flushed(8);
    w.markClosed();
    w.release();
    w.mark(0, 8);
    expect(w.dirtyBytes()).not.toBe(v);
    expect(w.dirtyBytes().buffer).toBe(w.buf.buffer);
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

describe("Window, seek", () => {
  /** A window of 64 bytes holding 32 file bytes from position 0, clean. */
  function held(): Window {
    const w = new Window(-1, "x", 64, { readOnly: false, writeThrough: false });
    w.holdFirst(32);
    return w;
  }

  /** Writes `n` bytes at the pointer through the slow path (as a primitive's first write does). */
  function writeSlow(w: Window, n: number): void {
    w.beginWrite();
    expect(planRoom(w, n)).not.toBe(IO);
    w.commit(w.progress.readyIndex, n);
  }

  test("after reads, seek attaches a read cursor again over the window's bytes", () => {
    const w = held();
    expect(w.takeRead(4)).toBe(0);
    w.seek(8);
    expect([w.attached, w.takeRead(4), w.pointer]).toEqual([true, 8, 12]);
    expect(w.runIndex(1)).toBe(-1); // still a read cursor: a write takes the slow path
    w.seek(40); // beyond the window's bytes: nothing to attach to
    expect([w.attached, w.pointer, w.takeRead(1)]).toEqual([false, 40, -1]);
  });

  test("after writes, seek opens an empty write run where a write could start one, and it marks nothing", () => {
    const w = held();
    w.seek(0);
    writeSlow(w, 4);
    w.cursor = 8; // the hot path wrote 4 more
    w.seek(4); // inside the dirty range [0, 8)
    expect([w.attached, w.pointer, w.runIndex(2), w.takeRead(1)]).toEqual([true, 4, 4, -1]);
    expect([w.unflushedBytes(), w.dirtyFrom, w.dirtyTo, w.valid]).toEqual([8, 0, 8, 32]);
    w.seek(8); // the run settled above; the dirty range ends here, so a write at 8 joins it
    w.cursor = 12;
    expect([w.unflushedBytes(), w.dirtyFrom, w.dirtyTo]).toEqual([12, 0, 12]);
  });

  test("seek opens no write run across a gap from the dirty range: the flush would write back bytes only read", () => {
    const w = held();
    w.seek(0);
    writeSlow(w, 4); // dirty [0, 4)
    w.seek(16);
    expect([w.attached, w.runIndex(4)]).toEqual([false, -1]);
    expect([w.dirtyFrom, w.dirtyTo]).toEqual([0, 4]);
  });

  test("no write run past the window's bytes, in a write-through window, or unbuffered", () => {
    const w = held();
    w.seek(0);
    writeSlow(w, 4);
    w.seek(33); // past valid (32)
    expect(w.attached).toBe(false);
    const rws = new Window(-1, "x", 64, { readOnly: false, writeThrough: true });
    rws.holdFirst(32);
    writeSlow(rws, 4);
    rws.seek(0);
    expect(rws.runIndex(1)).toBe(-1);
    const unbuffered = new Window(-1, "x", 0, { readOnly: false, writeThrough: false });
    unbuffered.seek(0);
    expect(unbuffered.attached).toBe(false);
  });
});
