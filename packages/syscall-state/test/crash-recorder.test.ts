import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Backend } from "../src/backend";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { type CrashState, crashRecorder } from "../src/testing";
import { tempDir } from "./helpers";

const base = tempDir("crash");
let counter = 0;
/** A fresh directory to record, holding `files` (taken as durable). */
function fresh(files: Record<string, string> = {}): string {
  const dir = join(base, `r${counter++}`);
  mkdirSync(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) =>
  b === undefined ? undefined : new TextDecoder().decode(b);
const contents = (states: Iterable<CrashState>, path: string) =>
  new Set([...states].map((s) => text(s.files.get(path))));

const backends: [string, Backend][] = [["node", nodeBackend()]];
if (isNativeAvailable()) backends.push(["native", nativeBackend()]);

describe.each(backends)("crash recorder (%s backend)", (_, inner) => {
  test("unsynced writes are lost in every subset; synced ones never", () => {
    const dir = fresh({ "a.txt": "" });
    const rec = crashRecorder(dir, inner);
    const fd = rec.backend.open(join(dir, "a.txt"), "rw");
    rec.backend.pwriteFully(fd, bytes("AA"), 0, 2, 0);
    rec.backend.sync(fd);
    const synced = rec.mark("synced");
    rec.backend.pwriteFully(fd, bytes("BB"), 0, 2, 2);
    rec.backend.pwriteFully(fd, bytes("CC"), 0, 2, 4);
    rec.backend.close(fd);
    expect(contents(rec.crashStates({ at: synced }), "a.txt")).toEqual(new Set(["AA"]));
    // Two unsynced writes: 4 states. "CC" without "BB" is the reordered one, with a zero-filled gap.
    expect(rec.countCrashStates()).toBe(4);
    expect(contents(rec.crashStates(), "a.txt")).toEqual(
      new Set(["AA", "AABB", "AA\0\0CC", "AABBCC"]),
    );
    // The real file has what the code wrote; the recorder changed nothing.
    expect(readFileSync(join(dir, "a.txt"), "latin1")).toBe("AABBCC");
  });

  test("a write is recorded as the bytes written then, even from a Buffer the caller reuses", () => {
    const dir = fresh({ "b.bin": "" });
    const rec = crashRecorder(dir, inner);
    const fd = rec.backend.open(join(dir, "b.bin"), "rw");
    const buffer = Buffer.from("AAAA");
    rec.backend.pwriteFully(fd, buffer, 0, 4, 0);
    buffer.write("BBBB"); // an append buffer refilled after its flush
    rec.backend.close(fd);
    expect(contents(rec.crashStates(), "b.bin")).toEqual(new Set(["", "AAAA"]));
  });

  test("an unsynced write tears at 512-byte or 4 KiB boundaries, or not at all", () => {
    const dir = fresh({ "t.bin": "" });
    const rec = crashRecorder(dir, inner);
    const fd = rec.backend.open(join(dir, "t.bin"), "rw");
    const data = new Uint8Array(8192 + 100).fill(7);
    rec.backend.pwriteFully(fd, data, 0, data.length, 100); // bytes 100 to 8392
    rec.backend.close(fd);
    expect(rec.countCrashStates({ tear: "none" })).toBe(2);
    expect(rec.countCrashStates({ tear: 4096 })).toBe(2 ** 3); // [100, 4096), [4096, 8192), [8192, 8392)
    expect(rec.countCrashStates({ tear: 512 })).toBe(2 + 256); // 17 pieces: sampled
    const lengths = new Set(
      [...rec.crashStates({ tear: 4096 })].map((s) => s.files.get("t.bin")!.length),
    );
    expect(lengths).toEqual(new Set([0, 4096, 8192, 8392]));
    for (const state of rec.crashStates({ tear: 512, samples: 64 })) {
      const b = state.files.get("t.bin")!;
      // Every 512-byte piece is all there or all zero: a torn write never tears inside a sector.
      for (let s = 0; s < b.length; s += 512) {
        const piece = b.subarray(Math.max(s, 100), Math.min(b.length, s + 512));
        expect(new Set(piece).size).toBeLessThanOrEqual(1);
      }
    }
  });

  test("rws/rwd writes are durable when they return; truncate waits for a sync", () => {
    const dir = fresh({ "s.bin": "0123456789" });
    const rec = crashRecorder(dir, inner);
    const fd = rec.backend.open(join(dir, "s.bin"), "rwd");
    rec.backend.pwriteFully(fd, bytes("ab"), 0, 2, 0);
    rec.backend.truncate(fd, 4);
    rec.backend.close(fd);
    expect(contents(rec.crashStates(), "s.bin")).toEqual(new Set(["ab23456789", "ab23"]));
  });

  test("a sampled recording is reproducible from its seed and stays within its budget", () => {
    const dir = fresh({ "m.bin": "" });
    const rec = crashRecorder(dir, inner);
    const fd = rec.backend.open(join(dir, "m.bin"), "rw");
    for (let i = 0; i < 40; i++) rec.backend.pwriteFully(fd, bytes(`${i % 10}`), 0, 1, i);
    rec.backend.close(fd);
    const labels = (seed: number) =>
      [...rec.crashStates({ seed, samples: 50 })].map((s) => s.label);
    expect(labels(5)).toEqual(labels(5));
    expect(labels(5)).not.toEqual(labels(6));
    expect(labels(5)).toHaveLength(52);
    const all = [...rec.crashStates({ samples: 50 })].map((s) => text(s.files.get("m.bin")));
    expect(all).toContain(""); // nothing persisted
    expect(all).toContain("0123456789".repeat(4)); // everything
  });
});

describe("namespace operations", () => {
  test("a rename or unlink is not durable until its directory is synced", () => {
    const dir = fresh({ "old.txt": "v1", "gone.txt": "x" });
    const rec = crashRecorder(dir, nodeBackend());
    const fd = rec.backend.open(join(dir, "new.tmp"), "rw");
    rec.backend.pwriteFully(fd, bytes("v2"), 0, 2, 0);
    rec.backend.sync(fd);
    rec.backend.close(fd);
    rec.directories.rename(join(dir, "new.tmp"), join(dir, "old.txt"));
    rec.directories.unlink(join(dir, "gone.txt"));
    const before = rec.mark();
    rec.directories.syncDirectory(dir);
    const names = (s: CrashState) => [...s.files].map(([p, b]) => `${p}=${text(b)}`).join(" ");
    const unsynced = new Set([...rec.crashStates({ at: before })].map(names));
    expect(unsynced).toContain("gone.txt=x old.txt=v1"); // nothing of it durable
    expect(unsynced).toContain("old.txt=v2"); // all of it
    expect(unsynced).toContain("gone.txt=x new.tmp=v2 old.txt=v1"); // created, not renamed
    // Create, rename and unlink each kept or lost: 8 subsets, 6 distinct (a rename of a lost create is moot).
    expect(rec.countCrashStates({ at: before })).toBe(8);
    expect(unsynced.size).toBe(6);
    expect(new Set([...rec.crashStates()].map(names))).toEqual(new Set(["old.txt=v2"]));
  });

  test("the async directory operations record the same, and mkdir makes a directory durable once synced", async () => {
    const dir = fresh();
    const rec = crashRecorder(dir, nodeBackend());
    await rec.directories.mkdirAsync(join(dir, "sub"));
    const fd = await rec.backend.openAsync(join(dir, "sub", "f"), "rw");
    await rec.backend.pwriteFullyAsync(fd, bytes("z"), 0, 1, 0);
    await rec.backend.datasyncAsync(fd);
    await rec.backend.truncateAsync(fd, 1);
    await rec.backend.syncAsync(fd);
    await rec.backend.closeAsync(fd);
    await rec.directories.syncDirectoryAsync(join(dir, "sub"));
    await rec.directories.syncDirectoryAsync(dir);
    await rec.directories.renameAsync(join(dir, "sub", "f"), join(dir, "g"));
    await rec.directories.unlinkAsync(join(dir, "g"));
    const synced = rec.ops.findIndex((op) => op.kind === "rename");
    const states = [...rec.crashStates({ at: synced })];
    expect(states.map((s) => [...s.files.keys()])).toEqual([["sub/f"]]);
    expect(states[0]!.directories).toEqual(new Set(["", "sub"]));
    // A file in a directory whose mkdir was lost is lost with it.
    const early = [...rec.crashStates({ at: 3 })].map((s) => [...s.files.keys()].join());
    expect(new Set(early)).toEqual(new Set(["", "sub/f"]));
  });

  test("a state materialises into a real directory that real code can open", () => {
    const dir = fresh({ "keep.txt": "kept" });
    const rec = crashRecorder(dir, nodeBackend());
    rec.directories.mkdir(join(dir, "d"));
    rec.directories.syncDirectory(dir);
    const fd = rec.backend.open(join(dir, "d", "x"), "rw");
    rec.backend.pwriteFully(fd, bytes("hi"), 0, 2, 0);
    rec.backend.sync(fd);
    rec.backend.close(fd);
    rec.directories.syncDirectory(join(dir, "d"));
    const [state] = [...rec.crashStates()];
    const out = state!.materialise();
    try {
      expect(readFileSync(join(out, "keep.txt"), "utf8")).toBe("kept");
      expect(readFileSync(join(out, "d", "x"), "utf8")).toBe("hi");
    } finally {
      rmSync(out, { recursive: true });
    }
  });

  test("files outside the root pass through unrecorded; a crash point must be in the recording", () => {
    const dir = fresh();
    const outside = fresh();
    const rec = crashRecorder(dir, nodeBackend());
    const fd = rec.backend.open(join(outside, "o"), "rw");
    rec.backend.pwriteFully(fd, bytes("o"), 0, 1, 0);
    rec.backend.close(fd);
    rec.directories.rename(join(outside, "o"), join(outside, "p"));
    rec.directories.syncDirectory(outside);
    expect(rec.ops).toEqual([]);
    expect(() => [...rec.crashStates({ at: 1 })]).toThrow(RangeError);
  });

  test("a file made behind the recorder's back counts as created, its content unsynced", () => {
    const dir = fresh();
    const rec = crashRecorder(dir, nodeBackend());
    writeFileSync(join(dir, "sneaky"), "s");
    const fd = rec.backend.open(join(dir, "sneaky"), "r");
    rec.backend.close(fd);
    expect(rec.ops.map((op) => op.kind)).toEqual(["create", "write"]);
  });

  test.each(backends)(
    "a subdirectory opened to be synced is no file of the recording (%s backend)",
    (_, inner) => {
      const dir = fresh();
      mkdirSync(join(dir, "sub"));
      const rec = crashRecorder(dir, inner);
      const fd = rec.backend.open(join(dir, "sub"), "r");
      expect(fd).toBeGreaterThanOrEqual(0);
      expect(rec.backend.sync(fd)).toBe(0);
      expect(rec.backend.close(fd)).toBe(0);
      expect(rec.ops).toEqual([]);
    },
  );
});

describe.skipIf(!isNativeAvailable() || process.platform !== "linux")("allocate", () => {
  test("blocks reserved past the end make the file that long in every state, once synced", () => {
    const dir = fresh({ "a.bin": "abc" });
    const rec = crashRecorder(dir, nativeBackend());
    const fd = rec.backend.open(join(dir, "a.bin"), "rw");
    expect(rec.backend.allocate(fd, 0, 4096)).toBe(0);
    expect(rec.backend.allocate(fd, 0, 100)).toBe(0); // within the file: nothing to record
    expect(rec.backend.sync(fd)).toBe(0);
    rec.backend.close(fd);
    expect(rec.ops.map((op) => op.kind)).toEqual(["truncate", "sync"]);
    const sizes = new Set([...rec.crashStates()].map((st) => st.files.get("a.bin")?.length));
    expect(sizes).toEqual(new Set([4096]));
  });
});
