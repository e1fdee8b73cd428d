import * as fs from "node:fs";
import * as path from "node:path";
import { type Backend, getBackend } from "@rafkit/syscall-state";
import { DataFile, readWholeFile, syncDirectory } from "./data-file";
import { linkError, openNoFollow } from "./no-follow";

/** What {@link DirectoryOps.stat} tells about a path. */
export interface FileStat {
  readonly size: number;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly isSymbolicLink: boolean;
}

/**
 * Every file operation of a store: the one seam through which the store touches its directory, so that a test can
 * pass another implementation (fault injection, a crash-state simulator) in {@link OpenOptions.directory}. Paths
 * are absolute. {@link realDirectory} is the default.
 */
export interface DirectoryOps {
  /** The names in a directory (`readdir`). */
  list(dir: string): string[];
  /** `stat` (`follow`, the default) or `lstat`; undefined when nothing is there. */
  stat(path: string, follow?: boolean): FileStat | undefined;
  /** `mkdir` of one directory; an existing one is no error. */
  makeDirectory(path: string): void;
  /** `realpath`. */
  realPath(path: string): string;
  /** `rename`, replacing `to`. */
  rename(from: string, to: string): void;
  /** `unlink`; a missing file is no error. */
  remove(path: string): void;
  /** `rmdir` of an empty directory, to undo a failed backup's; without it, that directory stays (empty). */
  removeDirectory?(path: string): void;
  /** fsyncs a directory: its creations, renames and unlinks survive a power loss. */
  syncDirectory(dir: string): void;
  /** A whole (small) file's bytes. */
  readFile(path: string): Uint8Array;
  /** Writes `bytes` to `path` (created or cut to empty first) and fsyncs it. */
  writeFileSynced(path: string, bytes: Uint8Array): void;
  /** Opens a data file for reading ("r") or appending and reading ("rw", created when missing). */
  openData(path: string, mode: "r" | "rw"): DataFile;
}

/** The real filesystem, through `node:fs` and `@rafkit/raf`. */
export const realDirectory: DirectoryOps = {
  list: (dir) => fs.readdirSync(dir),
  stat(p, follow = true) {
    let s: fs.Stats | undefined;
    try {
      s = follow
        ? fs.statSync(p, { throwIfNoEntry: false })
        : fs.lstatSync(p, { throwIfNoEntry: false });
    } catch (error) {
      // A file where a folder of the path should be: nothing is there (Node 20's `throwIfNoEntry` covers ENOENT alone).
      if ((error as { code?: unknown }).code === "ENOTDIR") return undefined;
      throw error;
    }
    if (s === undefined) return undefined;
    return {
      size: s.size,
      isFile: s.isFile(),
      isDirectory: s.isDirectory(),
      isSymbolicLink: s.isSymbolicLink(),
    };
  },
  makeDirectory(p) {
    try {
      fs.mkdirSync(p);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  },
  realPath: (p) => fs.realpathSync(p),
  rename: (from, to) => fs.renameSync(from, to),
  remove: (p) => fs.rmSync(p, { force: true }),
  removeDirectory: (p) => fs.rmdirSync(p),
  syncDirectory,
  readFile: readWholeFile,
  writeFileSynced: (p, bytes) => writeFileSynced(p, bytes, getBackend()),
  openData: (p, mode) => DataFile.open(p, mode),
};

/** Writes `bytes` to `path` (created or cut to empty first) through `backend`, and fsyncs it. */
function writeFileSynced(p: string, bytes: Uint8Array, backend: Backend): void {
  const file = openNoFollow(p, "rw", backend);
  try {
    file.setLength(0);
    file.writeAt(0, bytes);
    file.sync();
  } finally {
    file.close();
  }
}

/** The namespace operations {@link directoryThrough} sends elsewhere: a crash recorder's `directories` has them. */
export interface NamespaceOps {
  rename(from: string, to: string): void;
  unlink(path: string): void;
  mkdir(path: string): void;
  syncDirectory(path: string): void;
}

/**
 * For tests (crash simulation): a {@link DirectoryOps} whose file contents go through `backend` and whose renames,
 * unlinks, mkdirs and directory fsyncs go through `names`, for instance `@rafkit/syscall-state/testing`'s
 * `crashRecorder(dir, inner)`: `directoryThrough(rec.backend, rec.directories)`. Listing, stat and realpath stay real.
 */
export function directoryThrough(backend: Backend, names: NamespaceOps): DirectoryOps {
  return {
    ...realDirectory,
    makeDirectory(p) {
      if (fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() !== true) names.mkdir(p);
    },
    rename: (from, to) => names.rename(from, to),
    remove(p) {
      if (fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined) names.unlink(p);
    },
    syncDirectory: (dir) => names.syncDirectory(dir),
    readFile: (p) => readWholeFile(p, backend),
    writeFileSynced: (p, bytes) => writeFileSynced(p, bytes, backend),
    openData: (p, mode) => DataFile.open(p, mode, backend),
  };
}

/** The folder of a store directory where files that are not the store's are moved, rather than cut or deleted. */
export const LOST_FOUND = "lost+found";

/** A store directory: its real path and the operations on its files, by name. */
export class StoreDir {
  /** The directory (a real path). */
  readonly path: string;
  readonly ops: DirectoryOps;

  constructor(dir: string, ops: DirectoryOps) {
    this.path = dir;
    this.ops = ops;
  }

  /** The path of the file `name` in the directory. */
  file(name: string): string {
    return path.join(this.path, name);
  }

  list(): string[] {
    return this.ops.list(this.path);
  }

  exists(name: string): boolean {
    return this.ops.stat(this.file(name)) !== undefined;
  }

  /** `lstat` of `name`: undefined when nothing is there, not even a dangling link. */
  lstat(name: string): FileStat | undefined {
    return this.ops.stat(this.file(name), false);
  }

  read(name: string): Uint8Array {
    this.refuseLink(name);
    return this.ops.readFile(this.file(name));
  }

  /** The file's bytes, or null when there is none. */
  readIfAny(name: string): Uint8Array | null {
    try {
      return this.read(name);
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return null;
      throw error;
    }
  }

  remove(name: string): void {
    this.ops.remove(this.file(name));
  }

  rename(from: string, to: string): void {
    this.ops.rename(this.file(from), this.file(to));
  }

  /** fsyncs the directory. */
  sync(): void {
    this.ops.syncDirectory(this.path);
  }

  open(name: string, mode: "r" | "rw"): DataFile {
    this.refuseLink(name);
    return this.ops.openData(this.file(name), mode);
  }

  /**
   * Throws `ELOOP` (as `O_NOFOLLOW` would) when `name` is a symbolic link: the store makes none, and one planted
   * in its directory could point its reads, truncates and writes at any file. This is the check a
   * {@link DirectoryOps} of a test gets too; the real opens check again on the opened descriptor
   * (`no-follow.ts`), so that a link swapped in after this `lstat` is refused as well.
   */
  refuseLink(name: string): void {
    if (this.lstat(name)?.isSymbolicLink === true) throw linkError(this.file(name));
  }

  /** Moves `name` into {@link LOST_FOUND} (made when missing), under a name not taken there; returns its new path. */
  moveAside(name: string): string {
    const folder = this.lostFound();
    let target = path.join(folder, name);
    for (let n = 1; this.ops.stat(target, false) !== undefined; n++) {
      target = path.join(folder, `${name}.${n}`);
    }
    this.ops.rename(this.file(name), target);
    this.ops.syncDirectory(folder);
    this.sync();
    return target;
  }

  /**
   * The path of {@link LOST_FOUND}, made (and the directory fsynced) when missing. A link planted in its place is
   * refused (`ELOOP`): files renamed or copied into it would land wherever it points.
   */
  lostFound(): string {
    const folder = this.file(LOST_FOUND);
    this.refuseLink(LOST_FOUND);
    if (this.ops.stat(folder, false) === undefined) {
      this.ops.makeDirectory(folder);
      this.sync();
    }
    return folder;
  }

  /** Replaces `name` atomically with `bytes`: write a temp file, fsync, rename, fsync the directory. */
  writeAtomic(name: string, bytes: Uint8Array): void {
    const tmp = `${name}.tmp`;
    this.refuseLink(tmp);
    this.ops.writeFileSynced(this.file(tmp), bytes);
    this.rename(tmp, name);
    this.sync();
  }
}
