import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KvError, open } from "../src";
import { DataFile } from "../src/data-file";
import { scanDataFile } from "../src/scan";
import { tempDir } from "./helpers";

// A corruption fuzzer: fast-check mutates the files of a store (bit flips, truncations, zeroed and appended ranges,
// deleted files, foreign files, files copied over others, ids at the edges of the numbering) and checks that the
// store keeps three promises:
//  1. no untyped error, from open or from any operation;
//  2. no value that was never written for that key;
//  3. no loss of records the mutation did not touch: a key whose newest record lies in a data file the mutation
//     left alone (with its hint and the marker) answers exactly that value, or the store refuses with a typed error.
// Bounded: FUZZ_RUNS runs (default 150), and at most FUZZ_SECONDS (default 40) of them.

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 40);

interface Model {
  /** Every value ever written per key. */
  readonly written: Map<string, Set<string>>;
  /** Each key's acknowledged value (null: deleted), and the data file its newest record is in. */
  readonly final: Map<string, { value: string | null; file: string }>;
}

/** A store of several sealed files, hints, deletes and one committed compaction, and its model. */
async function baseStore(): Promise<{ dir: string; files: Map<string, Buffer>; model: Model }> {
  const dir = tempDir();
  const written = new Map<string, Set<string>>();
  const note = (k: string, v: string) => {
    if (!written.has(k)) written.set(k, new Set());
    written.get(k)!.add(v);
  };
  let db = await open(dir, { maxFileSize: 600 });
  for (let i = 0; i < 60; i++) {
    const k = `k${i % 23}.`;
    const v = `v${i}-${"x".repeat(i % 7)}`;
    await db.put(k, v);
    note(k, v);
  }
  await db.compact();
  for (let i = 60; i < 100; i++) {
    const k = `k${i % 29}.`;
    if (i % 5 === 0) await db.delete(k);
    else {
      const v = `v${i}`;
      await db.put(k, v);
      note(k, v);
    }
  }
  await db.close();
  // Where each key's newest record is, as a fresh open sees it.
  db = await open(dir, { readOnly: true });
  const final = new Map<string, { value: string | null; file: string }>();
  for (const k of written.keys())
    final.set(k, { value: (await db.getString(k)) ?? null, file: "" });
  await db.close();
  // The data file of each key's newest record (or tombstone): the largest timestamp wins, whatever the file's id
  // (a compaction's outputs are numbered above the active file that takes the newer writes).
  const newest = new Map<string, number>();
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".data"))) {
    const file = DataFile.open(path.join(dir, name), "r");
    try {
      scanDataFile(file, 0, (header, id) => {
        const key = Buffer.from(id, "latin1").toString();
        if (header.timestamp > (newest.get(key) ?? -1)) {
          newest.set(key, header.timestamp);
          final.get(key)!.file = name;
        }
      });
    } finally {
      file.close();
    }
  }
  const files = new Map<string, Buffer>();
  for (const name of fs.readdirSync(dir)) {
    if (name === "LOCK") continue;
    files.set(name, fs.readFileSync(path.join(dir, name)));
  }
  return { dir, files, model: { written, final } };
}

type Mutation =
  | { kind: "flip"; file: number; at: number; bit: number }
  | { kind: "truncate"; file: number; at: number }
  | { kind: "zero"; file: number; at: number; length: number }
  | { kind: "append"; file: number; bytes: Uint8Array }
  | { kind: "delete"; file: number }
  | { kind: "copy"; file: number; over: number }
  | { kind: "foreign"; id: string; bytes: Uint8Array; from: number | null };

const EDGE_IDS = [
  "0000000000",
  "0000000099",
  "2147483647",
  "2147483648",
  "4294967296",
  "9999999999",
];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip"), file: fc.nat(), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({ kind: fc.constant("truncate"), file: fc.nat(), at: fc.nat() }),
  fc.record({
    kind: fc.constant("zero"),
    file: fc.nat(),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 600 }),
  }),
  fc.record({
    kind: fc.constant("append"),
    file: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
  }),
  fc.record({ kind: fc.constant("delete"), file: fc.nat() }),
  fc.record({ kind: fc.constant("copy"), file: fc.nat(), over: fc.nat() }),
  fc.record({
    kind: fc.constant("foreign"),
    id: fc.oneof(fc.constantFrom(...EDGE_IDS), fc.constantFrom("MERGED", "DAMAGED", "x.tmp")),
    bytes: fc.uint8Array({ maxLength: 200 }),
    from: fc.option(fc.nat(), { nil: null }),
  }),
);

/** Applies `mutations` to a copy of the store's files in a fresh directory; returns it and the names touched. */
function mutate(
  files: Map<string, Buffer>,
  mutations: readonly Mutation[],
): { dir: string; touched: Set<string> } {
  const dir = tempDir();
  const current = new Map([...files].map(([n, b]) => [n, Buffer.from(b)] as const));
  const touched = new Set<string>();
  const names = () => [...current.keys()].sort();
  const pick = (i: number) => names()[i % names().length]!;
  for (const m of mutations) {
    if (current.size === 0) break;
    if (m.kind === "foreign") {
      const ext = m.id.length === 10 ? (m.from !== null && m.from % 2 ? ".hint" : ".data") : "";
      const name = `${m.id}${ext}`;
      const bytes = m.from === null ? Buffer.from(m.bytes) : current.get(pick(m.from))!;
      current.set(name, Buffer.from(bytes));
      touched.add(name);
      continue;
    }
    const name = pick(m.file);
    const bytes = current.get(name)!;
    touched.add(name);
    if (m.kind === "flip") {
      if (bytes.length > 0) bytes[m.at % bytes.length]! ^= 1 << m.bit;
    } else if (m.kind === "truncate") {
      current.set(name, bytes.subarray(0, m.at % (bytes.length + 1)));
    } else if (m.kind === "zero") {
      const at = bytes.length === 0 ? 0 : m.at % bytes.length;
      bytes.fill(0, at, Math.min(bytes.length, at + m.length));
    } else if (m.kind === "append") {
      current.set(name, Buffer.concat([bytes, m.bytes]));
    } else if (m.kind === "delete") {
      current.delete(name);
    } else {
      const over = pick(m.over);
      current.set(over, Buffer.from(bytes));
      touched.add(over);
    }
  }
  for (const [name, bytes] of current) fs.writeFileSync(path.join(dir, name), bytes);
  return { dir, touched };
}

/** Promise 1: an error a caller can act on (rafkv's, or a Node-shaped system call error). */
function typed(error: unknown): boolean {
  if (error instanceof KvError) return true;
  const e = error as { code?: unknown; syscall?: unknown } | null;
  return typeof e?.code === "string" && typeof e.syscall === "string";
}

async function attempt<T>(f: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await f() };
  } catch (error) {
    expect(typed(error), `untyped error: ${(error as Error)?.stack ?? String(error)}`).toBe(true);
    return { error };
  }
}

/** The three promises for one mutated store, opened `readOnly` or writable. */
async function check(dir: string, touched: Set<string>, model: Model, readOnly: boolean) {
  const opened = await attempt(() => open(dir, { readOnly }));
  if (!("value" in opened)) return;
  const db = opened.value;
  try {
    const markerTouched = touched.has("MERGED");
    for (const [key, values] of model.written) {
      const got = await attempt(() => db.getString(key));
      if (!("value" in got)) {
        expect((got.error as KvError).code).toBe("ERR_KV_CORRUPT");
        continue;
      }
      // Promise 2.
      if (got.value !== undefined)
        expect(values.has(got.value), `${key} = ${got.value}`).toBe(true);
      // Promise 3.
      const { value, file } = model.final.get(key)!;
      const hint = file.replace(/\.data$/, ".hint");
      if (file !== "" && !markerTouched && !touched.has(file) && !touched.has(hint)) {
        expect(got.value ?? null, `${key}, newest in ${file}`).toBe(value);
      }
    }
    await attempt(async () => {
      for await (const [k] of db.entries()) expect(k.length).toBeGreaterThan(0);
    });
    await attempt(() => db.verify());
    if (!db.readOnly) {
      // Writes after the damage must survive a reopen (the numbering of new files included).
      const put = await attempt(() => db.put("fresh", "value"));
      await attempt(() => db.close());
      if ("value" in put) {
        const again = await attempt(() => open(dir, { readOnly: true }));
        if ("value" in again) {
          const fresh = await attempt(() => again.value.getString("fresh"));
          if ("value" in fresh) expect(fresh.value).toBe("value");
          await again.value.close();
        }
      }
    }
  } finally {
    await attempt(() => db.close());
  }
}

describe("a corruption fuzzer over the store's files", () => {
  it("finds no untyped error, no value never written, and no loss of records the mutation did not touch", {
    timeout: (SECONDS + 60) * 1000,
  }, async () => {
    const { files, model } = await baseStore();
    expect(files.size).toBeGreaterThan(4);
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (mutations, readOnly) => {
          const { dir, touched } = mutate(files, mutations);
          try {
            await check(dir, touched, model, readOnly);
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false },
    );
  });
});
