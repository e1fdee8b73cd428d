import * as fs from "node:fs";
import type { FileMode } from "../backend";
import { errnoOf } from "../errno";
import { negativeErrno } from "../fs-errno";

// The node backend's Windows adjustments (node-primitives.ts calls them everywhere; they act on Windows only),
// apart so that a Linux coverage run leaves out what only Wine runs.

const WINDOWS = process.platform === "win32";
const EISDIR = -errnoOf("EISDIR");
const S_IFMT = 0o170000;
const S_IFIFO = 0o010000;
/**
 * Windows: the descriptors of pipes open here, whose positional calls answer as pread(2) on a FIFO. Each entry is
 * an object of its own, so that an async close removes only the entry it saw (see `forgotten`).
 */
const pipes = new Map<number, object>();
export const isPipe = (fd: number): boolean => pipes.size !== 0 && pipes.has(fd);
/** What marks `fd` now, for {@link forgotten} after an async close. */
export const pipeMark = (fd: number): object | undefined => pipes.get(fd);

/**
 * Windows, after an open: libuv opens a directory for writing too (it asks with backup semantics), refused here
 * as POSIX and the native backend refuse it (`-EISDIR`; `r` keeps it, a read then says `-EISDIR`); and a pipe is
 * read and written in order whatever the position, where pread(2) refuses a FIFO (`-ESPIPE`): it is noted.
 */
export function opened(fd: number, mode: FileMode): number {
  if (!WINDOWS || fd < 0) return fd;
  let stats: fs.Stats;
  try {
    stats = fs.fstatSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    return negativeErrno(error);
  }
  return checked(fd, mode, stats, () => fs.closeSync(fd));
}

/** {@link opened} for `openAsync`: its fstat and close off the main thread. */
export async function openedAsync(fd: number, mode: FileMode): Promise<number> {
  if (!WINDOWS || fd < 0) return fd;
  const close = () => new Promise<void>((resolve) => fs.close(fd, () => resolve()));
  const [error, stats] = await new Promise<[NodeJS.ErrnoException | null, fs.Stats]>((resolve) =>
    fs.fstat(fd, (e, st) => resolve([e, st])),
  );
  if (error !== null) {
    await close();
    return negativeErrno(error);
  }
  const r = checked(fd, mode, stats, () => undefined);
  if (r === EISDIR) await close();
  return r;
}

/** What {@link opened} concludes from the new descriptor's stats; `close` runs when it refuses it. */
function checked(fd: number, mode: FileMode, stats: fs.Stats, close: () => void): number {
  if (stats.isDirectory() && mode !== "r") {
    close();
    return EISDIR;
  }
  // A number closed some other way comes back for another file: what it is now counts. Node's `isFIFO()` is false
  // there (its S_IFIFO constant is POSIX-only), though libuv reports a pipe's mode as the C runtime's _S_IFIFO.
  if ((stats.mode & S_IFMT) === S_IFIFO) pipes.set(fd, {});
  else pipes.delete(fd);
  return fd;
}

/**
 * Closed: a pipe's number is free for any file. Its mark goes unless another open took the number meanwhile (an
 * async close's continuation runs after the OS freed it): `seen` is the mark before the close.
 */
export const forgotten = (
  fd: number,
  r: number,
  seen: object | undefined = pipes.get(fd),
): number => {
  if (r === 0 && pipes.get(fd) === seen) pipes.delete(fd);
  return r;
};
