import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Backend, FileMode } from "../backend";
import { ComposedBackend } from "../compose-backend";
import { PRIMITIVES, type Primitives } from "../primitives";
import {
  type CrashBaseline,
  type CrashOp,
  type CrashState,
  type CrashStateOptions,
  countCrashStates,
  crashStatesOf,
} from "./crash-model";

/**
 * The directory operations of code under test, done for real and recorded. Code whose renames, unlinks
 * and directory fsyncs go through an injectable object passes this one; paths are absolute or relative
 * to the working directory, and those outside the recorder's root are done but not recorded.
 */
export interface RecordingDirectoryOps {
  rename(from: string, to: string): void;
  unlink(path: string): void;
  mkdir(path: string): void;
  /** Opens the directory, `fsync`s it and closes it. */
  syncDirectory(path: string): void;
  renameAsync(from: string, to: string): Promise<void>;
  unlinkAsync(path: string): Promise<void>;
  mkdirAsync(path: string): Promise<void>;
  syncDirectoryAsync(path: string): Promise<void>;
}

/** A recording of what code did to the files under one directory, and the states a power cut could leave. */
export interface CrashRecorder {
  /** The directory recorded, absolute. */
  readonly root: string;
  /** `inner` with every write, truncate, fsync, fdatasync and file creation under `root` recorded. */
  readonly backend: Backend;
  /** The recorded directory operations (see {@link RecordingDirectoryOps}). */
  readonly directories: RecordingDirectoryOps;
  /** Everything recorded so far, in the order the OS completed it. */
  readonly ops: readonly CrashOp[];
  /** Names the current point and returns it: the `at` of {@link CrashRecorder.crashStates}. */
  mark(label?: string): number;
  /** The states a power cut at `options.at` (default: now) may leave: see docs/CRASH-MODEL.md. */
  crashStates(options?: CrashStateOptions): Generator<CrashState>;
  /** How many states {@link CrashRecorder.crashStates} yields for `options`. */
  countCrashStates(options?: CrashStateOptions): number;
}

function snapshot(root: string): CrashBaseline & { next: number } {
  const files = new Map<string, number>();
  const contents = new Map<number, Uint8Array>();
  const directories = new Set<string>([""]);
  let next = 1;
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        directories.add(path);
        walk(path);
      } else if (entry.isFile()) {
        files.set(path, next);
        contents.set(next++, new Uint8Array(readFileSync(join(root, path))));
      }
    }
  };
  walk("");
  return { files, contents, directories, next };
}

/**
 * Records what `inner` and {@link CrashRecorder.directories} do to the files under `root`, to produce
 * the states a power cut could leave (unsynced writes lost, reordered or torn; namespace changes lost
 * until their directory is synced), as ALICE, LazyFS and SQLite's crash-test VFS do.
 *
 * What `root` holds when the recorder is made is taken as durable. Calls go through `inner`'s one-shot
 * primitives (composed as `faultBackend` composes them), so retries and full-transfer loops record the
 * system calls that really happened; a call is recorded when it succeeds. A file opened `rws`/`rwd`
 * (`O_SYNC`/`O_DSYNC`) has each write durable when it returns.
 *
 * @example
 * const rec = crashRecorder(dir, nodeBackend());
 * const f = new RandomAccessFile(join(dir, "a.bin"), "rw", { backend: rec.backend });
 * f.writeInt(1); f.sync();
 * rec.directories.syncDirectory(dir); // a new file's name is durable once its directory is synced
 * const synced = rec.mark("synced");
 * for (const state of rec.crashStates({ at: synced })) assert(state.files.get("a.bin")?.length === 4);
 */
export function crashRecorder(root: string, inner: Backend): CrashRecorder {
  const absRoot = resolve(root);
  const baseline = snapshot(absRoot);
  let nextInode = baseline.next;
  const ops: CrashOp[] = [];
  const names = new Map(baseline.files); // the live namespace, as the code under test sees it
  const fds = new Map<number, { inode: number; synchronous: boolean }>();

  /** `path` relative to the root with `/` separators, or undefined when outside it. */
  const inRoot = (path: string): string | undefined => {
    const rel = relative(absRoot, resolve(path));
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
    return rel.split(sep).join("/");
  };

  /** Before an open: what the recorder knows of the path. After a successful one: track the fd. */
  const beforeOpen = (path: string) => {
    const rel = inRoot(path);
    return { rel, known: rel !== undefined && names.has(rel), existed: existsSync(path) };
  };
  /** A directory opened to be synced (`syncDirectory`) is not a file of the namespace: its entries are. */
  const isDirectory = (path: string) =>
    statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  const afterOpen = (
    fd: number,
    path: string,
    mode: FileMode,
    seen: ReturnType<typeof beforeOpen>,
  ) => {
    if (fd < 0 || seen.rel === undefined) return fd;
    let inode = names.get(seen.rel);
    if (inode === undefined && isDirectory(path)) return fd;
    if (inode === undefined) {
      // A file the recorder has not seen made: new to the namespace, its content (if any) unsynced.
      inode = nextInode++;
      names.set(seen.rel, inode);
      ops.push({ kind: "create", path: seen.rel, inode });
      const content = seen.existed ? new Uint8Array(readFileSync(path)) : new Uint8Array(0);
      if (content.length > 0) {
        ops.push({ kind: "write", inode, offset: 0, data: content, synchronous: false });
      }
    }
    fds.set(fd, { inode, synchronous: mode === "rws" || mode === "rwd" });
    return fd;
  };
  const wrote = (fd: number, b: Uint8Array, o: number, pos: number, r: number) => {
    const file = fds.get(fd);
    if (r > 0 && file !== undefined) {
      // A copy: `Buffer#slice` is a view, and the caller may reuse its buffer (an append buffer) after the write.
      const data = Uint8Array.prototype.slice.call(b, o, o + r);
      ops.push({
        kind: "write",
        inode: file.inode,
        offset: pos,
        data,
        synchronous: file.synchronous,
      });
    }
    return r;
  };
  const truncated = (fd: number, length: number, r: number) => {
    const file = fds.get(fd);
    if (r === 0 && file !== undefined) ops.push({ kind: "truncate", inode: file.inode, length });
    return r;
  };
  const synced = (fd: number, r: number) => {
    const file = fds.get(fd);
    if (r === 0 && file !== undefined) ops.push({ kind: "sync", inode: file.inode });
    return r;
  };
  /** Reserving blocks past the end makes the file that long (zeros), as a truncate that grows it would. */
  const allocated = (fd: number, end: number, sizeBefore: number, r: number) => {
    const file = fds.get(fd);
    if (r === 0 && file !== undefined && end > sizeBefore) {
      ops.push({ kind: "truncate", inode: file.inode, length: end });
    }
    return r;
  };
  const closed = (fd: number, r: number) => {
    if (r === 0) fds.delete(fd);
    return r;
  };

  const p: Primitives =
    (inner as Partial<Record<typeof PRIMITIVES, Primitives>>)[PRIMITIVES] ?? inner;
  const recording: Primitives = {
    ...bound(p),
    name: `crash-recorder(${inner.name})`,
    open: (path, mode) => {
      const seen = beforeOpen(path);
      return afterOpen(p.open(path, mode), path, mode, seen);
    },
    openAsync: async (path, mode) => {
      const seen = beforeOpen(path);
      return afterOpen(await p.openAsync(path, mode), path, mode, seen);
    },
    close: (fd) => closed(fd, p.close(fd)),
    closeAsync: async (fd) => closed(fd, await p.closeAsync(fd)),
    pwrite: (fd, b, o, l, pos) => wrote(fd, b, o, pos, p.pwrite(fd, b, o, l, pos)),
    pwriteAsync: async (fd, b, o, l, pos) =>
      wrote(fd, b, o, pos, await p.pwriteAsync(fd, b, o, l, pos)),
    truncate: (fd, length) => truncated(fd, length, p.truncate(fd, length)),
    truncateAsync: async (fd, length) => truncated(fd, length, await p.truncateAsync(fd, length)),
    sync: (fd) => synced(fd, p.sync(fd)),
    syncAsync: async (fd) => synced(fd, await p.syncAsync(fd)),
    datasync: (fd) => synced(fd, p.datasync(fd)),
    datasyncAsync: async (fd) => synced(fd, await p.datasyncAsync(fd)),
    allocate: (fd, position, length) => {
      const before = p.size(fd);
      return allocated(fd, position + length, before, p.allocate(fd, position, length));
    },
  };
  const backend = new ComposedBackend(
    recording,
    inner.features ?? { locks: true, allocate: true, fadvise: true },
  );

  const renamed = (from: string, to: string) => {
    const [a, b] = [inRoot(from), inRoot(to)];
    if (a === undefined || b === undefined) return;
    const inode = names.get(a);
    names.delete(a);
    if (inode !== undefined) names.set(b, inode);
    ops.push({ kind: "rename", from: a, to: b });
  };
  const unlinked = (path: string) => {
    const rel = inRoot(path);
    if (rel === undefined) return;
    names.delete(rel);
    ops.push({ kind: "unlink", path: rel });
  };
  const madeDirectory = (path: string) => {
    const rel = inRoot(path);
    if (rel !== undefined) ops.push({ kind: "mkdir", path: rel });
  };
  const syncedDirectory = (path: string) => {
    const rel = resolve(path) === absRoot ? "" : inRoot(path);
    if (rel !== undefined) ops.push({ kind: "syncDirectory", path: rel });
  };
  const directories: RecordingDirectoryOps = {
    rename: (from, to) => {
      renameSync(from, to);
      renamed(from, to);
    },
    unlink: (path) => {
      unlinkSync(path);
      unlinked(path);
    },
    mkdir: (path) => {
      mkdirSync(path);
      madeDirectory(path);
    },
    syncDirectory: (path) => {
      const fd = openSync(path, "r");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      syncedDirectory(path);
    },
    renameAsync: async (from, to) => {
      await rename(from, to);
      renamed(from, to);
    },
    unlinkAsync: async (path) => {
      await unlink(path);
      unlinked(path);
    },
    mkdirAsync: async (path) => {
      await mkdir(path);
      madeDirectory(path);
    },
    syncDirectoryAsync: async (path) => {
      const handle = await open(path, "r");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      syncedDirectory(path);
    },
  };

  return {
    root: absRoot,
    backend,
    directories,
    ops,
    mark: (label = `mark ${ops.length}`) => {
      ops.push({ kind: "mark", label });
      return ops.length;
    },
    crashStates: (options = {}) => crashStatesOf(baseline, ops, options),
    countCrashStates: (options = {}) => countCrashStates(ops, options),
  };
}

/** `p`'s methods bound to it, as plain properties (a backend's methods may live on its prototype). */
function bound(p: Primitives): Primitives {
  const out: Record<string, unknown> = { name: p.name };
  for (const key of [
    "open",
    "close",
    "pread",
    "pwrite",
    "size",
    "truncate",
    "sync",
    "datasync",
    "lock",
    "unlock",
    "fadvise",
    "allocate",
    "openAsync",
    "closeAsync",
    "preadAsync",
    "pwriteAsync",
    "sizeAsync",
    "truncateAsync",
    "syncAsync",
    "datasyncAsync",
    "lockAsync",
  ] as const) {
    const f = p[key] as (...args: unknown[]) => unknown;
    out[key] = (...args: unknown[]) => f.apply(p, args);
  }
  return out as unknown as Primitives;
}
