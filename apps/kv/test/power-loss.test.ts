import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { getBackend } from "@rafkit/syscall-state";
import { type CrashRecorder, crashRecorder, type TearSize } from "@rafkit/syscall-state/testing";
import { describe, expect, it } from "vitest";
import { open, type Store } from "../src";
import type { SyncMode } from "../src/options";
import { HEADER_SIZE } from "../src/record";
import { directoryThrough } from "../src/store-dir";
import { dataFiles, flipByte, recordOffsets } from "./helpers";

/**
 * Power loss, not just process death: each workload runs once on a real store whose every write, fsync, rename,
 * unlink and directory fsync goes through `@rafkit/syscall-state/testing`'s crash recorder; then, at crash points
 * after each acknowledged step and in between (during compactions, rotations and closes), the states a power cut
 * may leave (docs/CRASH-MODEL.md of syscall-state) are materialised and opened writable, without repair. A failure
 * names the workload, seed, crash point and units kept: `replay(label)` below is the same code path.
 */

const KEYS = ["a", "b", "c", "d", "e", "f"];
/** Crash states are materialised (and fsynced by the store) in memory where there is one: thousands of them. */
const BASE = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
const scratch = (prefix: string) => fs.realpathSync(fs.mkdtempSync(path.join(BASE, prefix)));
/** States per crash point: every subset up to this many optional units, else this many seeded samples. */
const EXHAUSTIVE = 5;
const SAMPLES = 14;
/** Crash points tried between two acknowledged steps (besides the steps themselves). */
const BETWEEN = 2;

/** A small seeded generator (mulberry32). */
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

/** A value that names its key and write, of a size that makes some records span several 512 B and 4 KiB pieces. */
function valueFor(key: string, n: number, next: () => number): string {
  const size = next() < 0.2 ? 4000 + Math.floor(next() * 6000) : Math.floor(next() * 900);
  return `${key}|${n}|${String.fromCharCode(97 + (n % 26)).repeat(size)}`;
}

/** What a crash at a recorded operation index must show for each key: the values it may answer (null: absent). */
interface Checkpoint {
  /** Index in the recording (a `mark`'s, or any other). */
  readonly at: number;
  /** Each key's acknowledged value (null: deleted or never written). */
  readonly acked: ReadonlyMap<string, string | null>;
  /** Values issued but not yet acknowledged at `at`, which a state may or may not hold. */
  readonly maybe: ReadonlyMap<string, ReadonlySet<string | null>>;
  readonly what: string;
}

interface Recording {
  readonly recorder: CrashRecorder;
  readonly checkpoints: Checkpoint[];
}

/** Runs one seeded workload on a recorded store and returns the crash points to check. */
async function record(sync: SyncMode, seed: number): Promise<Recording> {
  const root = scratch("rafkv-power-");
  const recorder = crashRecorder(root, getBackend());
  const directory = directoryThrough(recorder.backend, recorder.directories);
  const options = { sync, maxFileSize: 24 * 1024, directory };
  const next = random(seed);
  const acked = new Map<string, string | null>(KEYS.map((k) => [k, null]));
  const issued: { at: number; key: string; value: string | null }[] = [];
  const marks: { at: number; acked: Map<string, string | null>; what: string }[] = [
    { at: recorder.mark("start"), acked: new Map(acked), what: "start" },
  ];
  let db: Store = await open(root, options);
  let n = 0;
  const put = (key: string) => {
    const value = valueFor(key, n++, next);
    issued.push({ at: recorder.ops.length, key, value });
    return db.put(key, value).then(() => acked.set(key, value));
  };
  const del = (key: string) => {
    issued.push({ at: recorder.ops.length, key, value: null });
    return db.delete(key).then(() => acked.set(key, null));
  };
  const pick = () => KEYS[Math.floor(next() * KEYS.length)]!;
  const steps = 36;
  for (let step = 0; step < steps; step++) {
    const r = next();
    let what: string;
    if (step === Math.floor(steps / 2) || (r < 0.06 && step > 4)) {
      what = "compact";
      // A compaction with writes going on meanwhile, in both modes.
      await Promise.all([db.compact(), put(pick()), put(pick())]);
    } else if (r < 0.12) {
      what = "reopen";
      await db.close();
      db = await open(root, options);
    } else if (r < 0.3) {
      what = "delete";
      await del(pick());
    } else if (sync === "batch") {
      what = "batch of puts";
      const group = 1 + Math.floor(next() * 5);
      await Promise.all(Array.from({ length: group }, () => put(pick())));
    } else {
      what = "put";
      await put(pick());
    }
    marks.push({ at: recorder.mark(`step ${step}: ${what}`), acked: new Map(acked), what });
  }
  await db.close();
  marks.push({ at: recorder.mark("closed"), acked: new Map(acked), what: "closed" });

  const checkpoints: Checkpoint[] = [];
  for (let i = 0; i < marks.length; i++) {
    const mark = marks[i]!;
    checkpoints.push({ at: mark.at, acked: mark.acked, maybe: new Map(), what: mark.what });
    const following = marks[i + 1];
    if (following === undefined) continue;
    // Crash points inside the next step: what was acknowledged at this mark, or anything issued since.
    for (let k = 1; k <= BETWEEN; k++) {
      const at = mark.at + Math.floor(((following.at - mark.at) * k) / (BETWEEN + 1));
      if (at <= mark.at || at >= following.at) continue;
      const maybe = new Map<string, Set<string | null>>();
      for (const w of issued) {
        if (w.at < mark.at || w.at >= at) continue;
        const set = maybe.get(w.key) ?? new Set();
        set.add(w.value);
        maybe.set(w.key, set);
      }
      checkpoints.push({ at, acked: mark.acked, maybe, what: `during ${following.what}` });
    }
  }
  return { recorder, checkpoints };
}

/** Opens a crash state writable, without repair, and returns what is wrong with it (empty when nothing). */
async function check(
  dir: string,
  sync: SyncMode,
  point: Checkpoint,
  seen: { kept: number },
): Promise<string[]> {
  let db: Store;
  try {
    db = await open(dir, { sync, maxFileSize: 24 * 1024 });
  } catch (error) {
    return [`open failed: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  try {
    if (db.readOnly) problems.push(`opened read-only: ${db.stats().readOnlyReason}`);
    for (const issue of db.recovery) {
      if (issue.kind === "corrupt") problems.push(`reported as corrupt: ${JSON.stringify(issue)}`);
      // Nothing cut or moved without a trace: its bytes are in lost+found, where the issue says.
      if (issue.action !== "truncated" && issue.action !== "moved") continue;
      const kept = issue.keptAs === undefined ? undefined : path.join(dir, issue.keptAs);
      if (kept === undefined || fs.statSync(kept, { throwIfNoEntry: false })?.size !== issue.bytes)
        problems.push(`cut without its bytes kept: ${JSON.stringify(issue)}`);
      else seen.kept++;
    }
    const show = (v: string | null | undefined) =>
      v === null || v === undefined ? String(v) : v.slice(0, 12);
    for (const key of KEYS) {
      let got: string | null;
      try {
        got = (await db.getString(key)) ?? null;
      } catch (error) {
        problems.push(`get ${key}: ${(error as Error).message}`);
        continue;
      }
      const want = point.acked.get(key) ?? null;
      if (got !== want && !(point.maybe.get(key)?.has(got) ?? false)) {
        problems.push(`key ${key}: got ${show(got)}, acknowledged ${show(want)}`);
      }
    }
    for await (const key of db.keys()) {
      const k = Buffer.from(key).toString();
      if (!KEYS.includes(k)) problems.push(`key ${k} was never written`);
    }
    if (!db.readOnly) await db.put("after-crash", "x"); // writable, really
  } finally {
    await db.close();
  }
  return problems;
}

async function run(sync: SyncMode, seed: number) {
  const { recorder, checkpoints } = await record(sync, seed);
  const failures: string[] = [];
  const seen = { kept: 0 };
  let states = 0;
  for (const [i, point] of checkpoints.entries()) {
    const tear: TearSize = i % 2 === 0 ? 4096 : 512;
    const options = {
      at: point.at,
      tear,
      exhaustiveUpTo: EXHAUSTIVE,
      samples: SAMPLES,
      seed: seed * 1000 + i,
    };
    for (const state of recorder.crashStates(options)) {
      states++;
      const dir = state.materialise(scratch("rafkv-crash-state-"));
      try {
        const problems = await check(dir, sync, point, seen);
        if (problems.length > 0) {
          failures.push(
            `sync ${sync} seed ${seed} ${point.what} (seed ${options.seed}), ${state.label}: ${problems.join("; ")} [files: ${[...state.files.keys()].join(" ")}]`,
          );
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  fs.rmSync(recorder.root, { recursive: true, force: true });
  return { states, checkpoints: checkpoints.length, failures, kept: seen.kept };
}

describe("power loss", () => {
  for (const sync of ["always", "batch"] as const) {
    for (const seed of [1, 2, 3]) {
      it(`sync ${sync}, seed ${seed}: every crash state opens writable with every acknowledged write`, async () => {
        const { states, checkpoints, failures, kept } = await run(sync, seed);
        console.log(
          `power loss, sync ${sync} seed ${seed}: ${states} states at ${checkpoints} crash points, ${failures.length} failed, ${kept} cuts kept in lost+found`,
        );
        expect(states).toBeGreaterThan(200);
        expect(kept).toBeGreaterThan(0); // torn tails happen, and were kept
        if (process.env.KV_POWER_DUMP)
          fs.appendFileSync(process.env.KV_POWER_DUMP, `${failures.join("\n")}\n`);
        expect(failures.slice(0, 5)).toEqual([]);
      }, 300_000);
    }
  }
});

describe("power loss is not damage, and damage is not power loss", () => {
  it("a bit flip in fsynced records is still reported as corruption under batch, valid records after it or not", async () => {
    const dir = scratch("rafkv-power-damage-");
    const db = await open(dir, { sync: "batch" });
    for (let group = 0; group < 4; group++) {
      await Promise.all([0, 1, 2].map((i) => db.put(`k${group}-${i}`, `value-${group}-${i}`)));
    }
    await db.close();
    for (const h of fs.readdirSync(dir)) if (h.endsWith(".hint")) fs.rmSync(path.join(dir, h));
    const file = path.join(dir, dataFiles(dir)[0]!);
    const offsets = recordOffsets(file);
    // In the first group (a later sync point attests it) and in the last (the sync point sealing put after it).
    for (const victim of [1, offsets.length - 1]) {
      flipByte(file, offsets[victim]! + HEADER_SIZE + 4);
      const damaged = await open(dir);
      expect(damaged.readOnly).toBe(true);
      expect(damaged.recovery).toEqual([
        expect.objectContaining({ kind: "corrupt", offset: offsets[victim] }),
      ]);
      await damaged.close();
      flipByte(file, offsets[victim]! + HEADER_SIZE + 4); // undone
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a later unsynced group that survived an earlier lost one is a clean end: cut, not reported", async () => {
    const dir = scratch("rafkv-power-tail-");
    const recorder = crashRecorder(dir, getBackend());
    const directory = directoryThrough(recorder.backend, recorder.directories);
    const db = await open(dir, { sync: "never", directory });
    await db.put("synced", "yes");
    await db.close(); // sealed and fsynced
    const writer = await open(dir, { sync: "never", directory });
    await writer.put("k1", "x".repeat(5000)); // handed to the OS at the end of the turn, never fsynced
    await new Promise((r) => setTimeout(r, 5));
    await writer.put("k2", "y".repeat(5000));
    await new Promise((r) => setTimeout(r, 5));
    const at = recorder.mark("unsynced");
    let reordered = 0;
    for (const state of recorder.crashStates({ at, tear: 4096, exhaustiveUpTo: 8 })) {
      const copy = state.materialise(scratch("rafkv-crash-state-"));
      const reopened = await open(copy);
      expect(reopened.readOnly, state.label).toBe(false);
      expect(
        reopened.recovery.filter((r) => r.kind === "corrupt"),
        state.label,
      ).toEqual([]);
      expect(await reopened.getString("synced")).toBe("yes");
      const k1 = await reopened.getString("k1");
      const k2 = await reopened.getString("k2");
      if (k1 === undefined && k2 !== undefined) reordered++;
      expect([undefined, "x".repeat(5000)]).toContain(k1);
      expect([undefined, "y".repeat(5000)]).toContain(k2);
      await reopened.close();
      fs.rmSync(copy, { recursive: true, force: true });
    }
    // The state this is about: k2's write kept, k1's lost. k2 is cut with the tail (nothing after a lost write
    // can have been acknowledged), so it is never the one left.
    expect(reordered).toBe(0);
    await writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
