import { getBackend, type SyncBackend, systemCallError } from "@rafkit/syscall-state";
import { readWholeFile } from "./data-file";
import { KvLockedError } from "./errors";
import { inDir, LOCK_FILE } from "./file-names";

const EAGAIN_CODES = new Set(["EAGAIN", "EACCES", "EWOULDBLOCK"]);
const ENOTSUP_CODES = new Set(["ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

/** Stores open in this process, by real path: locks between two opens of one process are not reliable everywhere. */
const openHere = new Map<string, "read" | "write" | number>();

/**
 * The store's lock: an advisory lock on `DIR/LOCK`, exclusive for a writer and shared for read-only opens.
 * The writer records its pid in the file so that a refused opener can name it.
 */
export class StoreLock {
  readonly path: string;
  /** False when the platform's backend has no file locks (then only opens in this process are excluded). */
  readonly osLocked: boolean;
  #backend: SyncBackend;
  #fd: number;
  #key: string;
  #shared: boolean;

  private constructor(
    path: string,
    backend: SyncBackend,
    fd: number,
    key: string,
    shared: boolean,
    osLocked: boolean,
  ) {
    this.path = path;
    this.#backend = backend;
    this.#fd = fd;
    this.#key = key;
    this.#shared = shared;
    this.osLocked = osLocked;
  }

  /** Takes the lock of the store in `dir` (a real path), or throws {@link KvLockedError}. */
  static acquire(dir: string, shared: boolean, backend: SyncBackend = getBackend()): StoreLock {
    const path = inDir(dir, LOCK_FILE);
    const here = openHere.get(dir);
    if (here !== undefined && (!shared || here === "write")) {
      throw new KvLockedError(
        `store ${dir} is already open ${here === "write" ? "for writing" : "read-only"} in this process (pid ${process.pid})`,
        dir,
        process.pid,
      );
    }
    let fd = backend.open(path, "rw");
    if (fd < 0 && shared) fd = backend.open(path, "r"); // a read-only directory
    if (fd < 0) throw systemCallError(fd, "open", path);
    const r = backend.lock(fd, { shared, wait: false, position: 0, length: 0 });
    let osLocked = true;
    if (r < 0) {
      const code = systemCallError(r, "fcntl", path).code;
      if (ENOTSUP_CODES.has(code)) {
        osLocked = false;
      } else {
        const error = EAGAIN_CODES.has(code)
          ? lockedError(dir, path, shared, backend, fd)
          : systemCallError(r, "fcntl", path);
        backend.close(fd);
        throw error;
      }
    }
    if (!shared) {
      const pid = new TextEncoder().encode(`${process.pid}\n`);
      backend.truncate(fd, 0);
      backend.pwriteFully(fd, pid, 0, pid.length, 0);
    }
    openHere.set(dir, shared ? ((openHere.get(dir) as number | undefined) ?? 0) + 1 : "write");
    return new StoreLock(path, backend, fd, dir, shared, osLocked);
  }

  /** Releases the lock (closing its descriptor releases the OS lock). */
  release(): void {
    if (this.#fd < 0) return;
    if (!this.#shared) this.#backend.truncate(this.#fd, 0);
    this.#backend.close(this.#fd);
    this.#fd = -1;
    const here = openHere.get(this.#key);
    if (typeof here === "number" && here > 1) openHere.set(this.#key, here - 1);
    else openHere.delete(this.#key);
  }
}

function lockedError(
  dir: string,
  path: string,
  shared: boolean,
  backend: SyncBackend,
  fd: number,
): KvLockedError {
  // A writer that cannot take the lock exclusively, but could share it, is blocked by readers only.
  if (!shared) {
    const probe = backend.lock(fd, { shared: true, wait: false, position: 0, length: 0 });
    if (probe === 0) {
      backend.unlock(fd, 0, 0);
      return new KvLockedError(
        `store ${dir} is locked: another process has it open read-only`,
        dir,
      );
    }
  }
  const pid = readPid(path);
  const holder = pid === undefined ? "another process" : `process ${pid}`;
  return new KvLockedError(`store ${dir} is locked for writing by ${holder}`, dir, pid);
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(Buffer.from(readWholeFile(path)).toString("latin1"), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
