import { statSync } from "node:fs";
import { type FileLock, LockUnsupportedError, type RandomAccessFile } from "@rafkit/raf";
import { KvLockedError } from "./errors";
import { LOCK_FILE } from "./file-names";
import { openNoFollow } from "./no-follow";
import type { StoreDir } from "./store-dir";

/**
 * Stores open in this process, by {@link storeKey}: locks between two opens of one process are not reliable
 * everywhere (none at all on raf's `node` backend).
 */
const openHere = new Map<string, "read" | "write" | number>();

/**
 * The store directory's device and inode: its real path is not enough where a file system ignores case (Windows,
 * macOS by default), so `C:\db` and `C:\DB` were two stores and opened two writers. The path where the file
 * system reports no inode (0).
 */
function storeKey(dir: string): string {
  const s = statSync(dir, { bigint: true, throwIfNoEntry: false });
  return s === undefined || s.ino === 0n ? dir : `${s.dev}:${s.ino}`;
}

/**
 * The store's lock: raf's advisory lock (`tryLock`) on all of `DIR/LOCK`, exclusive for a writer and shared for
 * read-only opens. The writer records its pid in the file so that a refused opener can name it (Linux OFD locks,
 * which raf uses there, report no pid).
 */
export class StoreLock {
  readonly path: string;
  /**
   * False when the backend has no file locks (raf's `node` backend: `LockUnsupportedError`); then only opens in
   * this process are excluded.
   */
  readonly osLocked: boolean;
  #file: RandomAccessFile | null;
  #lock: FileLock | null;
  #key: string;
  #shared: boolean;

  private constructor(
    path: string,
    file: RandomAccessFile,
    lock: FileLock | null,
    key: string,
    shared: boolean,
  ) {
    this.path = path;
    this.#file = file;
    this.#lock = lock;
    this.#key = key;
    this.#shared = shared;
    this.osLocked = lock !== null;
  }

  /** Takes the lock of the store in `store`, or throws {@link KvLockedError}. */
  static acquire(store: StoreDir, shared: boolean): StoreLock {
    const dir = store.path;
    const path = store.file(LOCK_FILE);
    store.refuseLink(LOCK_FILE);
    const key = storeKey(dir);
    const here = openHere.get(key);
    if (here !== undefined && (!shared || here === "write")) {
      throw new KvLockedError(
        `store ${dir} is already open ${here === "write" ? "for writing" : "read-only"} in this process (pid ${process.pid})`,
        dir,
        process.pid,
      );
    }
    let file: RandomAccessFile;
    try {
      file = openNoFollow(path, "rw");
    } catch (error) {
      if (!shared || (error as { code?: unknown }).code === "ELOOP") throw error;
      file = openNoFollow(path, "r"); // a read-only directory
    }
    let lock: FileLock | null;
    try {
      const taken = tryLock(file, shared);
      if (taken === undefined) throw lockedError(store, shared, file);
      lock = taken;
      if (!shared) {
        const pid = new TextEncoder().encode(`${process.pid}\n`);
        file.setLength(0);
        file.writeAt(0, pid);
      }
    } catch (error) {
      file.close();
      throw error;
    }
    openHere.set(key, shared ? ((openHere.get(key) as number | undefined) ?? 0) + 1 : "write");
    return new StoreLock(path, file, lock, key, shared);
  }

  /** Releases the lock (closing the file releases the OS lock too; releasing first makes it explicit). */
  release(): void {
    const file = this.#file;
    if (file === null) return;
    this.#file = null;
    try {
      // The pid only names the holder to a refused opener: a failure to clear it (EIO) is no failure of the close.
      if (!this.#shared) clearPid(file);
      this.#lock?.release();
    } finally {
      file.close();
      const here = openHere.get(this.#key);
      if (typeof here === "number" && here > 1) openHere.set(this.#key, here - 1);
      else openHere.delete(this.#key);
    }
  }
}

function clearPid(file: RandomAccessFile): void {
  try {
    file.setLength(0);
  } catch {
    // See StoreLock.release.
  }
}

/** raf's `tryLock` on the whole file: the lock, `undefined` when another holder conflicts, `null` without OS locks. */
function tryLock(file: RandomAccessFile, shared: boolean): FileLock | null | undefined {
  try {
    return file.tryLock({ shared }) ?? undefined;
  } catch (error) {
    if (error instanceof LockUnsupportedError) return null;
    throw error;
  }
}

function lockedError(store: StoreDir, shared: boolean, file: RandomAccessFile): KvLockedError {
  const dir = store.path;
  // A writer that cannot take the lock exclusively, but could share it, is blocked by readers only.
  if (!shared) {
    const probe = file.tryLock({ shared: true });
    if (probe !== null) {
      probe.release();
      return new KvLockedError(
        `store ${dir} is locked: another process has it open read-only`,
        dir,
      );
    }
  }
  const pid = readPid(store);
  const holder = pid === undefined ? "another process" : `process ${pid}`;
  return new KvLockedError(`store ${dir} is locked for writing by ${holder}`, dir, pid);
}

function readPid(store: StoreDir): number | undefined {
  try {
    const pid = Number.parseInt(Buffer.from(store.read(LOCK_FILE)).toString("latin1"), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
