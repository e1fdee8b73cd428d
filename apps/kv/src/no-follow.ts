import * as fs from "node:fs";
import { RandomAccessFile } from "@rafkit/raf";
import {
  type Backend,
  errnoOf,
  type SystemCallError,
  systemCallError,
} from "@rafkit/syscall-state";

// Opening a store file without following a symbolic link. raf's open takes no O_NOFOLLOW (a backend's `open` takes
// only a mode), so the store checks instead: `lstat` before the open, then the opened descriptor's device and inode
// (`fstat`) against what is at the path, which closes the window in which a link could be swapped in between.

/** Device and inode of a file, whether the path itself is a symbolic link (`lstat`), and what else it is. */
interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly link: boolean;
  /** Not a regular file nor a link: "directory", "FIFO", "socket", "device"; undefined for a regular file. */
  readonly special?: string;
}

/**
 * The error a planted link gets: `ELOOP`, `syscall` "open", as `open` with `O_NOFOLLOW` gives it. `why` says what
 * was found.
 */
export function linkError(path: string, why = "is a symbolic link"): SystemCallError {
  const error = systemCallError(-errnoOf("ELOOP"), "open", path);
  error.message = `${path} ${why}, which rafkv does not follow (it makes none itself): ELOOP, open '${path}'`;
  return error;
}

/**
 * The error a directory, FIFO, socket or device where a store file belongs gets, before any open: opening a FIFO
 * would wait for a writer forever. `EISDIR` for a directory (as a writing open answers), else `EINVAL`.
 */
export function specialFileError(path: string, kind: string): SystemCallError {
  const code = kind === "directory" ? "EISDIR" : "EINVAL";
  const error = systemCallError(-errnoOf(code), "open", path);
  error.message = `${path} is a ${kind}, not a regular file, which rafkv does not open: ${code}, open '${path}'`;
  return error;
}

/** Opens of a path the store's renames replaced twice around one open, before the mismatch counts as a link. */
const REPLACED_RETRIES = 3;

/**
 * Opens `path` with raf (`bufferSize: 0`, through `backend`, or raf's default), refusing a symbolic link, also one
 * swapped in between the `lstat` and the open: the opened descriptor must be the file the path names, without a
 * link, just before the open or just after it (either: the store's own atomic renames may replace a file at any
 * moment, a marker or a hint). A mismatch closes the file before anything is read or written through it. When
 * neither is a link, a writer's renames replaced the file twice around the open (a compaction in a loop): the
 * open is retried a few times before that, too, counts as a link. Where the descriptor cannot be `fstat`ed
 * (Windows, whose backend's fds are handles), only the `lstat` check applies. Creating (`"rw"` on a missing file)
 * through a link swapped in meanwhile creates the link's target, empty, before the refusal: nothing is written
 * to it.
 */
export function openNoFollow(path: string, mode: "r" | "rw", backend?: Backend): RandomAccessFile {
  const options = backend === undefined ? { bufferSize: 0 } : { bufferSize: 0, backend };
  for (let attempt = 1; ; attempt++) {
    const before = pathIdentity(path);
    if (before?.link) throw linkError(path);
    if (before?.special !== undefined) throw specialFileError(path, before.special);
    const file = new RandomAccessFile(path, mode, options);
    let replaced = false;
    try {
      const opened = descriptorIdentity(file.fd);
      if (opened !== null && !same(before, opened)) {
        const after = pathIdentity(path);
        if (!same(after, opened)) {
          if (after?.link || attempt === REPLACED_RETRIES)
            throw linkError(path, "was replaced (by a symbolic link?) while rafkv opened it");
          replaced = true;
        }
      }
    } catch (error) {
      file.close();
      throw error;
    }
    if (!replaced) return file;
    file.close();
  }
}

function same(atPath: Identity | undefined, opened: Identity): boolean {
  return (
    atPath !== undefined && !atPath.link && atPath.dev === opened.dev && atPath.ino === opened.ino
  );
}

function pathIdentity(path: string): Identity | undefined {
  const s = fs.lstatSync(path, { bigint: true, throwIfNoEntry: false });
  if (s === undefined) return undefined;
  const link = s.isSymbolicLink();
  if (link || s.isFile()) return { dev: s.dev, ino: s.ino, link };
  const special = s.isDirectory()
    ? "directory"
    : s.isFIFO()
      ? "FIFO"
      : s.isSocket()
        ? "socket"
        : "device";
  return { dev: s.dev, ino: s.ino, link, special };
}

/** `fstat` of an OS descriptor; null where the OS or runtime cannot say (a Windows handle, say). */
function descriptorIdentity(fd: number): Identity | null {
  if (process.platform === "win32") return null;
  for (const stat of [
    () => fs.fstatSync(fd, { bigint: true }),
    // A runtime whose node:fs knows only its own descriptors: on Linux /proc/self/fd/N still names the file.
    () => fs.statSync(`/proc/self/fd/${fd}`, { bigint: true }),
  ]) {
    try {
      const s = stat();
      return { dev: s.dev, ino: s.ino, link: false };
    } catch {
      // next
    }
  }
  return null;
}
