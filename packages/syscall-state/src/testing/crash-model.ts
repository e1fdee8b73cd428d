import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * One recorded operation. Files are inodes (numbers), so a rename moves a name, not the data; paths are
 * relative to the recorder's root, with `/` separators (`""` is the root itself).
 */
export type CrashOp =
  /** A `pwrite` that the OS accepted; `synchronous` for a descriptor opened `O_SYNC`/`O_DSYNC` (`rws`/`rwd`). */
  | {
      readonly kind: "write";
      readonly inode: number;
      readonly offset: number;
      readonly data: Uint8Array;
      readonly synchronous: boolean;
    }
  | { readonly kind: "truncate"; readonly inode: number; readonly length: number }
  /** `fsync` or `fdatasync` of a file: both make its data and size durable. */
  | { readonly kind: "sync"; readonly inode: number }
  /** A new directory entry for a new, empty inode (an `open` that created the file). */
  | { readonly kind: "create"; readonly path: string; readonly inode: number }
  | { readonly kind: "mkdir"; readonly path: string }
  | { readonly kind: "rename"; readonly from: string; readonly to: string }
  | { readonly kind: "unlink"; readonly path: string }
  /** `fsync` of a directory: the entries created, renamed or removed in it so far become durable. */
  | { readonly kind: "syncDirectory"; readonly path: string }
  /** A point the caller named, to crash at. */
  | { readonly kind: "mark"; readonly label: string };

/** The durable starting state: every file and directory under the root when recording began. */
export interface CrashBaseline {
  readonly files: ReadonlyMap<string, number>;
  readonly contents: ReadonlyMap<number, Uint8Array>;
  readonly directories: ReadonlySet<string>;
}

/** Where unsynced writes may tear: at 512-byte or 4 KiB file-offset boundaries, or never (whole writes). */
export type TearSize = 512 | 4096 | "none";

/** What {@link crashStatesOf} enumerates. */
export interface CrashStateOptions {
  /** The crash comes after this many recorded operations (a `mark`'s index). Default: all of them. */
  readonly at?: number;
  /** Default 4096. */
  readonly tear?: TearSize;
  /** Up to this many optional units every subset is produced (2^n states); beyond, samples. Default 12. */
  readonly exhaustiveUpTo?: number;
  /** States drawn when sampling, besides "nothing persisted" and "everything persisted". Default 256. */
  readonly samples?: number;
  /** Seed of the sampling (a state's `label` names it, to reproduce). Default 1. */
  readonly seed?: number;
}

/** One state a power cut may leave. */
export interface CrashState {
  /** What was kept, to reproduce a failure: the crash point, the tear size and the units kept. */
  readonly label: string;
  /** Every file, by path relative to the root, with its content. */
  readonly files: ReadonlyMap<string, Uint8Array>;
  /** Every directory, by path relative to the root (`""` is the root). */
  readonly directories: ReadonlySet<string>;
  /** Writes the state under `dir` (default: a fresh temporary directory) and returns that directory. */
  materialise(dir?: string): string;
}

/** A write, truncate or directory operation that a crash may or may not have made durable. */
interface Unit {
  readonly op: number;
  /** For a torn write: the byte range of `data` this unit covers. */
  readonly from: number;
  readonly to: number;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** The directories whose `fsync` makes a namespace operation durable. */
function directoriesOf(op: CrashOp): string[] {
  switch (op.kind) {
    case "create":
    case "mkdir":
    case "unlink":
      return [parentOf(op.path)];
    case "rename":
      return [parentOf(op.from), parentOf(op.to)];
    default:
      return [];
  }
}

/**
 * The units of a crash after `at` operations: every operation not yet durable. A write is durable once
 * its file is synced after it (or it was synchronous), a truncate once its file is synced, a namespace
 * operation once each directory it changes is synced after it. An unsynced write is cut into one unit
 * per `tear`-aligned piece of the file it covers.
 */
function unitsOf(ops: readonly CrashOp[], at: number, tear: TearSize): Unit[] {
  const syncedAfter = new Set<string>(); // "i:<inode>" and "d:<dir>" synced later than the op at hand
  const units: Unit[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const op = ops[i]!;
    switch (op.kind) {
      case "sync":
        syncedAfter.add(`i:${op.inode}`);
        break;
      case "syncDirectory":
        syncedAfter.add(`d:${op.path}`);
        break;
      case "write": {
        if (op.synchronous || syncedAfter.has(`i:${op.inode}`)) break;
        const pieces: Unit[] = [];
        const end = op.offset + op.data.length;
        for (let from = op.offset; from < end; ) {
          const to = tear === "none" ? end : Math.min(end, (Math.floor(from / tear) + 1) * tear);
          pieces.push({ op: i, from: from - op.offset, to: to - op.offset });
          from = to;
        }
        units.push(...pieces.reverse());
        break;
      }
      case "truncate":
        if (!syncedAfter.has(`i:${op.inode}`)) units.push({ op: i, from: 0, to: 0 });
        break;
      case "mark":
        break;
      default:
        if (!directoriesOf(op).every((d) => syncedAfter.has(`d:${d}`))) {
          units.push({ op: i, from: 0, to: 0 });
        }
    }
  }
  return units.reverse();
}

/** A file's content that grows like a file: writes past the end fill the gap with zeros. */
function writeAt(content: Uint8Array, offset: number, data: Uint8Array): Uint8Array {
  const end = offset + data.length;
  let out = content;
  if (end > content.length) {
    out = new Uint8Array(end);
    out.set(content);
  }
  out.set(data, offset);
  return out;
}

function truncated(content: Uint8Array, length: number): Uint8Array {
  if (length <= content.length) return content.slice(0, length);
  const out = new Uint8Array(length);
  out.set(content);
  return out;
}

/** Replays the first `at` operations onto the baseline, the durable ones and the `kept` units only. */
function replay(
  baseline: CrashBaseline,
  ops: readonly CrashOp[],
  at: number,
  units: readonly Unit[],
  kept: ReadonlySet<number>,
): { files: Map<string, Uint8Array>; directories: Set<string> } {
  const optional = new Map<number, Unit[]>(); // op index -> its kept units ([] when none kept)
  units.forEach((unit, i) => {
    const list = optional.get(unit.op) ?? [];
    if (kept.has(i)) list.push(unit);
    optional.set(unit.op, list);
  });
  const names = new Map(baseline.files);
  const contents = new Map(baseline.contents);
  const directories = new Set(baseline.directories);
  const owned = new Set<number>(); // inodes whose content this replay has copied
  for (let i = 0; i < at; i++) {
    const op = ops[i]!;
    const chosen = optional.get(i);
    if (chosen !== undefined && chosen.length === 0) continue; // not durable, not kept
    switch (op.kind) {
      case "write": {
        let content = contents.get(op.inode) ?? new Uint8Array(0);
        if (!owned.has(op.inode)) content = content.slice(); // the baseline is shared by every state
        owned.add(op.inode);
        if (chosen === undefined) content = writeAt(content, op.offset, op.data);
        for (const u of chosen ?? []) {
          content = writeAt(content, op.offset + u.from, op.data.subarray(u.from, u.to));
        }
        contents.set(op.inode, content);
        break;
      }
      case "truncate":
        contents.set(op.inode, truncated(contents.get(op.inode) ?? new Uint8Array(0), op.length));
        owned.add(op.inode);
        break;
      case "create":
        if (directories.has(parentOf(op.path))) names.set(op.path, op.inode);
        break;
      case "mkdir":
        if (directories.has(parentOf(op.path))) directories.add(op.path);
        break;
      case "rename": {
        const inode = names.get(op.from);
        if (inode !== undefined && directories.has(parentOf(op.to))) {
          names.delete(op.from);
          names.set(op.to, inode);
        }
        break;
      }
      case "unlink":
        names.delete(op.path);
        break;
      default:
        break;
    }
  }
  const files = new Map<string, Uint8Array>();
  for (const [path, inode] of [...names].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // A name whose directory did not survive is gone with it.
    let dir = parentOf(path);
    let reachable = directories.has(dir);
    while (reachable && dir !== "") reachable = directories.has((dir = parentOf(dir)));
    if (reachable) files.set(path, contents.get(inode) ?? new Uint8Array(0));
  }
  return { files, directories };
}

function materialise(
  files: ReadonlyMap<string, Uint8Array>,
  directories: ReadonlySet<string>,
  dir?: string,
): string {
  const into = dir ?? mkdtempSync(join(tmpdir(), "crash-state-"));
  for (const d of [...directories].sort())
    if (d !== "") mkdirSync(join(into, d), { recursive: true });
  for (const [path, content] of files) writeFileSync(join(into, path), content);
  return into;
}

/** A small seeded generator (mulberry32): the same seed, the same samples on every machine. */
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

/** The sets of units kept: every subset when there are few units, else seeded samples. */
function* choices(n: number, options: CrashStateOptions): Generator<Set<number>> {
  const all = [...Array(n).keys()];
  if (n <= (options.exhaustiveUpTo ?? 12)) {
    for (let mask = 0; mask < 2 ** n; mask++) {
      yield new Set(all.filter((i) => Math.floor(mask / 2 ** i) % 2 === 1));
    }
    return;
  }
  yield new Set();
  yield new Set(all);
  const next = random(options.seed ?? 1);
  for (let s = 0; s < (options.samples ?? 256); s++) {
    const p = next(); // a density per sample, so nearly-empty and nearly-full states come up too
    yield new Set(all.filter(() => next() < p));
  }
}

/** How many states {@link crashStatesOf} yields for these options. */
export function countCrashStates(ops: readonly CrashOp[], options: CrashStateOptions = {}): number {
  const n = unitsOf(ops, options.at ?? ops.length, options.tear ?? 4096).length;
  return n <= (options.exhaustiveUpTo ?? 12) ? 2 ** n : 2 + (options.samples ?? 256);
}

/**
 * The states a power cut after `options.at` operations may leave (see docs/CRASH-MODEL.md): durable
 * operations always, and each subset (or a seeded sample of subsets) of the rest, replayed in the order
 * they were issued.
 */
export function* crashStatesOf(
  baseline: CrashBaseline,
  ops: readonly CrashOp[],
  options: CrashStateOptions = {},
): Generator<CrashState> {
  const at = options.at ?? ops.length;
  if (!Number.isSafeInteger(at) || at < 0 || at > ops.length) {
    throw new RangeError(`Crash point ${at} is outside the recording (0 to ${ops.length})`);
  }
  const tear = options.tear ?? 4096;
  const units = unitsOf(ops, at, tear);
  for (const kept of choices(units.length, options)) {
    const { files, directories } = replay(baseline, ops, at, units, kept);
    const label = `crash after ${at} ops, tear ${tear}: kept units [${[...kept].join(",")}] of ${units.length}`;
    yield {
      label,
      files,
      directories,
      materialise: (dir?: string) => materialise(files, directories, dir),
    };
  }
}
