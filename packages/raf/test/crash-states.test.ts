import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ModifiedUtf8 } from "@rafkit/bits";
import { getBackend, isNativeAvailable } from "@rafkit/syscall-state";
import { type CrashRecorder, type CrashState, crashRecorder } from "@rafkit/syscall-state/testing";
import { afterAll, describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

// Power cuts, not process deaths: every workload runs against a crash recorder, and every state a power
// cut could leave (unsynced writes lost, reordered, torn at 512 B or 4 KiB) is checked. After `sync()` or
// `datasync()` the synced bytes must be in every later state until the program itself changes them; in
// `rws`/`rwd` every write must be in every state from the moment its call returns. The file exists and is
// durable before each workload: raf syncs the file, not its directory, as Java's RandomAccessFile does.

const tmp = tempDir();
const backends = isNativeAvailable() ? (["node", "native"] as const) : (["node"] as const);

/** mulberry32: the same workloads on every machine. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Op =
  | { kind: "seek"; pos: number }
  | { kind: "write"; bytes: Uint8Array }
  | { kind: "writeInt"; v: number }
  | { kind: "writeUTF"; s: string }
  | { kind: "writeLongAt"; pos: number; v: bigint }
  | { kind: "setLength"; length: number }
  | { kind: "sync" | "datasync" };

/** A workload of `n` operations; `syncs` adds sync/datasync/setLength (the `rw` workloads). */
function workload(seed: number, n: number, syncs: boolean): Op[] {
  const next = random(seed);
  const int = (max: number) => Math.floor(next() * max);
  const ops: Op[] = [];
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.2) ops.push({ kind: "seek", pos: int(10_000) });
    else if (r < 0.4) {
      const bytes = new Uint8Array(1 + int(next() < 0.3 ? 9000 : 40));
      for (let k = 0; k < bytes.length; k++) bytes[k] = 1 + int(255);
      ops.push({ kind: "write", bytes });
    } else if (r < 0.55) ops.push({ kind: "writeInt", v: int(2 ** 32) | 0 || 1 });
    else if (r < 0.65) ops.push({ kind: "writeUTF", s: `s${int(1e6)}é` });
    else if (r < 0.75)
      ops.push({ kind: "writeLongAt", pos: int(12_000), v: BigInt(1 + int(2 ** 40)) });
    else if (!syncs) ops.push({ kind: "writeInt", v: int(1000) + 1 });
    else if (r < 0.8) ops.push({ kind: "setLength", length: int(12_000) });
    else ops.push({ kind: next() < 0.5 ? "sync" : "datasync" });
  }
  if (syncs) ops.push({ kind: "sync" });
  return ops;
}

/** What the program means the file to hold: the bytes of every write, as the JDK would put them. */
class Model {
  bytes = new Uint8Array(0);
  pointer = 0;
  put(pos: number, data: Uint8Array): void {
    if (pos + data.length > this.bytes.length) {
      const grown = new Uint8Array(pos + data.length);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes.set(data, pos);
  }
  setLength(length: number): void {
    const out = new Uint8Array(length);
    out.set(this.bytes.subarray(0, length));
    this.bytes = out;
    this.pointer = Math.min(this.pointer, length);
  }
}

/** The bytes an op writes and where, or undefined for an op that writes none. */
function written(op: Op, pointer: number): { pos: number; data: Uint8Array } | undefined {
  const data = (n: number, fill: (v: DataView) => void) => {
    const b = new Uint8Array(n);
    fill(new DataView(b.buffer));
    return b;
  };
  switch (op.kind) {
    case "write":
      return { pos: pointer, data: op.bytes };
    case "writeInt":
      return { pos: pointer, data: data(4, (v) => v.setInt32(0, op.v)) };
    case "writeUTF": {
      const b = new Uint8Array(ModifiedUtf8.encodedLength(op.s) + 2);
      ModifiedUtf8.writeUTF(op.s, b, 0);
      return { pos: pointer, data: b };
    }
    case "writeLongAt":
      return { pos: op.pos, data: data(8, (v) => v.setBigInt64(0, op.v)) };
    default:
      return undefined;
  }
}

interface File {
  seek(pos: number): unknown;
  write(b: Uint8Array): unknown;
  writeInt(v: number): unknown;
  writeUTF(s: string): unknown;
  writeLongAt(pos: number, v: bigint): unknown;
  setLength(length: number): unknown;
  sync(): unknown;
  datasync(): unknown;
  close(): unknown;
}

async function apply(f: File, op: Op): Promise<void> {
  switch (op.kind) {
    case "seek":
      return void (await f.seek(op.pos));
    case "write":
      return void (await f.write(op.bytes));
    case "writeInt":
      return void (await f.writeInt(op.v));
    case "writeUTF":
      return void (await f.writeUTF(op.s));
    case "writeLongAt":
      return void (await f.writeLongAt(op.pos, op.v));
    case "setLength":
      return void (await f.setLength(op.length));
    default:
      return void (await f[op.kind]());
  }
}

/** A durable point: the content that must survive, and which bytes the program changed since. */
interface Durable {
  readonly at: number;
  readonly content: Uint8Array;
  readonly touched: Set<number>;
  cutBelow: number;
}

let checked = 0;
const TEARS = [512, 4096, "none"] as const;

/** Every state of a crash at `at` keeps `durable`'s bytes wherever the program has not changed them since. */
function checkSurvives(rec: CrashRecorder, durable: Durable, at: number, name: string): void {
  for (const tear of TEARS) {
    for (const state of rec.crashStates({ at, tear, exhaustiveUpTo: 8, samples: 24, seed: at })) {
      const got = state.files.get(name);
      expect(got, state.label).toBeDefined();
      const kept = Math.min(durable.content.length, durable.cutBelow);
      for (let i = 0; i < kept; i++) {
        if (!durable.touched.has(i) && got![i] !== durable.content[i]) {
          expect.fail(`byte ${i} is ${got![i]}, synced as ${durable.content[i]}: ${state.label}`);
        }
      }
      checked++;
    }
  }
}

/** A crash state opened by raf itself, from a real directory: it reads back exactly `expected`. */
function readBack(state: CrashState, name: string, expected: Uint8Array): void {
  const dir = state.materialise();
  try {
    const f = new RandomAccessFile(join(dir, name), "r");
    const b = new Uint8Array(Number(f.length()));
    f.readFully(b);
    f.close();
    expect(Buffer.from(b).equals(Buffer.from(expected)), state.label).toBe(true);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

async function run(
  kind: (typeof backends)[number],
  async: boolean,
  mode: "rw" | "rws" | "rwd",
  bufferSize: number,
  seed: number,
): Promise<void> {
  const dir = tmp(`crash-${seed}`);
  mkdirSync(dir);
  const name = "data.bin";
  const initial = new Uint8Array(3000).map((_, i) => (i * 7) & 0xff);
  writeFileSync(join(dir, name), initial);
  const rec = crashRecorder(dir, getBackend(kind));
  const options = { bufferSize, backend: rec.backend };
  const path = join(dir, name);
  const f: File = async
    ? await AsyncRandomAccessFile.open(path, mode, options)
    : new RandomAccessFile(path, mode, options);
  const model = new Model();
  model.bytes = initial.slice();
  let durable: Durable = { at: 0, content: initial, touched: new Set(), cutBelow: Infinity };
  for (const op of workload(seed, 30, mode === "rw")) {
    const w = written(op, model.pointer);
    await apply(f, op);
    if (w !== undefined) {
      model.put(w.pos, w.data);
      if (op.kind !== "writeLongAt") model.pointer = w.pos + w.data.length;
      for (let i = w.pos; i < w.pos + w.data.length; i++) durable.touched.add(i);
    } else if (op.kind === "seek") model.pointer = op.pos;
    else if (op.kind === "setLength") {
      model.setLength(op.length);
      durable.cutBelow = Math.min(durable.cutBelow, op.length);
    }
    const at = rec.mark(op.kind);
    if (op.kind === "sync" || op.kind === "datasync" || (mode !== "rw" && w !== undefined)) {
      // Durable now: the program's whole content, in every state of a crash from here on.
      durable = { at, content: model.bytes.slice(), touched: new Set(), cutBelow: Infinity };
      const states = [...rec.crashStates({ at })];
      for (const state of states) {
        expect(
          Buffer.from(state.files.get(name)!).equals(Buffer.from(model.bytes)),
          state.label,
        ).toBe(true);
      }
      readBack(states[states.length - 1]!, name, model.bytes);
      checked += states.length;
    } else {
      checkSurvives(rec, durable, at, name);
    }
  }
  await f.close();
}

afterAll(() => {
  // The CI budget: thousands of crash states, checked within a few minutes.
  expect(checked).toBeGreaterThan(2000);
});

describe.each(backends)("crash states (%s backend)", (kind) => {
  for (const async of [false, true]) {
    const cls = async ? "AsyncRandomAccessFile" : "RandomAccessFile";
    test.each([0, 7, 8192])(
      `${cls} rw: after sync() the data is in every crash state (bufferSize %i)`,
      async (bufferSize) => {
        for (let seed = 1; seed <= 3; seed++)
          await run(kind, async, "rw", bufferSize, seed * 31 + bufferSize);
      },
    );
    test.each(["rws", "rwd"] as const)(
      `${cls} %s: each write is in every crash state once it returns`,
      async (mode) => {
        for (const bufferSize of [0, 7, 8192])
          await run(kind, async, mode, bufferSize, bufferSize + 5);
      },
    );
  }
});
