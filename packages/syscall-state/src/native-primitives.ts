import * as fs from "node:fs";
import { type AdaptedSystemCall, adaptSystemCall, type NativeFunction } from "./adapter";
import { addressOf } from "./address";
import { ADVICE } from "./advice";
import type { AbortSignalLike, FileMode, LockRequest } from "./backend";
import { AddressedBuffer } from "./direct-buffer";
import { errnoOf } from "./errno";
import type { NativeLibc } from "./libc";
import { MAX_POLL_MS, sleep } from "./lock-poll";
import { unknownMode } from "./node-error";
import type { Primitives } from "./primitives";
import { sizeFromStats } from "./stat-size";
import { viewOf } from "./typed-array";

const EINVAL = -errnoOf("EINVAL");
const EAGAIN = -errnoOf("EAGAIN");
const EACCES = -errnoOf("EACCES");
const EBADF = -errnoOf("EBADF");
const EINTR = -errnoOf("EINTR");
const ENOTSUP = -errnoOf("ENOTSUP");
const EOVERFLOW = -errnoOf("EOVERFLOW");
const ESPIPE = -errnoOf("ESPIPE");

/**
 * koffi hands back 2**53 itself as a number (a bigint only past it), and the adapter passes numbers on:
 * a size of exactly 2**53 bytes is no safe integer, so `-EOVERFLOW` too. Only `lseek` can get there.
 */
const exact = (r: number): number => (r <= Number.MAX_SAFE_INTEGER ? r : EOVERFLOW);

/**
 * `fstat(2)` of a native descriptor through `node:fs`. Deno's `node:fs` does not know descriptors it did not
 * open (`EBADF`); on Linux, `/proc/self/fd/N` names the same open file (renamed or unlinked too).
 */
function fstatOf(fd: number): fs.Stats {
  try {
    return fs.fstatSync(fd);
  } catch (error) {
    if (process.platform !== "linux") throw error;
    try {
      return fs.statSync(`/proc/self/fd/${fd}`);
    } catch {
      throw error; // a descriptor that is not open: the first answer (EBADF)
    }
  }
}

/** node:fs's error as `-errno`; `fallback` for anything that carries none. */
function errnoFrom(error: unknown, fallback: number): number {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === "number" && errno < 0 ? errno : fallback;
}
const SEEK_SET = 0;
/** 0666: the kernel applies the umask, as for every open(2) with O_CREAT. */
const CREATE_MODE = 0o666;

/**
 * The koffi one-shot calls: every failing call returns `-errno`, read through the adapter right after
 * the call (sync) or in koffi's completion callback (async, where koffi hands over the pool thread's
 * errno). Locks are Linux OFD locks where the kernel has them, else classic fcntl locks.
 */
export function nativePrimitives(libc: NativeLibc): Primitives {
  const L = libc.layout;
  const fixed = L.variadicAbi === "fixed";
  const adapt = (fn: NativeFunction): AdaptedSystemCall => adaptSystemCall(fn, "errno");
  const open = adapt(libc.open);
  const close = adapt(libc.close);
  const pread = adapt(libc.pread);
  const pwrite = adapt(libc.pwrite);
  const preadAddress = adapt(libc.preadAddress);
  const pwriteAddress = adapt(libc.pwriteAddress);
  const lseek = adapt(libc.lseek);
  const ftruncate = adapt(libc.ftruncate);
  const fsync = adapt(libc.fsync);
  const fdatasync = libc.fdatasync === undefined ? fsync : adapt(libc.fdatasync);
  const fcntlLock = adapt(libc.fcntlLock);
  const fcntl = fixed ? adapt(libc.fcntl as unknown as NativeFunction) : undefined;
  const fallocate = libc.fallocate === undefined ? undefined : adapt(libc.fallocate);

  const flagsOf = (mode: FileMode): number => {
    switch (mode) {
      case "r":
        return L.O_RDONLY | L.O_CLOEXEC;
      case "rw":
        return L.O_RDWR | L.O_CREAT | L.O_CLOEXEC;
      case "rws":
        return L.O_RDWR | L.O_CREAT | L.O_SYNC | L.O_CLOEXEC;
      case "rwd":
        return L.O_RDWR | L.O_CREAT | L.O_DSYNC | L.O_CLOEXEC;
      default: {
        throw unknownMode(mode);
      }
    }
  };

  // macOS: F_FULLFSYNC, falling back to fsync where the file system refuses it (as SQLite and Go do).
  // Where fcntl is variadic, fcntlLock is that variadic binding: the argument's type goes before it.
  const fullfsync = (fd: number): number => {
    const r =
      fcntl === undefined
        ? fcntlLock(fd, L.F_FULLFSYNC, "intptr_t", 0)
        : fcntl(fd, L.F_FULLFSYNC, 0);
    return r >= 0 || r === EBADF || r === EINTR ? r : fsync(fd);
  };

  // OFD locks belong to the open file description: they conflict between fds of one process and
  // between threads, and closing another fd of the same file does not drop them.
  let ofd = L.F_OFD_SETLK !== undefined;
  const template: Record<string, number> = {};
  for (const field of Object.keys(L.flock)) template[field] = 0;
  const flock = (type: number, position: number, length: number): Record<string, number> => ({
    ...template,
    l_type: type,
    l_whence: SEEK_SET,
    l_start: position,
    l_len: length,
  });
  const command = (wait: boolean): number =>
    ofd ? (wait ? L.F_OFD_SETLKW! : L.F_OFD_SETLK!) : wait ? L.F_SETLKW : L.F_SETLK;
  const setLock = (fd: number, cmd: number, lock: Record<string, number>): number =>
    fixed ? fcntlLock(fd, cmd, lock) : fcntlLock(fd, cmd, libc.flockPointer, lock);
  /** Kernels before 3.15 answer EINVAL to OFD commands; a classic command that gets past EINVAL proves it. */
  const lockSync = (fd: number, wait: boolean, lock: Record<string, number>): number => {
    const r = setLock(fd, command(wait), lock);
    if (r !== EINVAL || !ofd) return r;
    const retried = setLock(fd, wait ? L.F_SETLKW : L.F_SETLK, lock);
    if (retried !== EINVAL) ofd = false;
    return retried;
  };
  /**
   * A waiting lock polls the non-blocking command on the main thread's timers (1 ms doubling to
   * 50 ms): a blocking F_SETLKW on the pool would hold a libuv thread for as long as the wait lasts
   * (starving fs work, hanging process.exit), and could not be cancelled.
   */
  const lockAsync = async (
    fd: number,
    wait: boolean,
    lock: Record<string, number>,
    signal: AbortSignalLike | undefined,
  ): Promise<number> => {
    for (let delay = 1; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
      signal?.throwIfAborted();
      const r = lockSync(fd, false, lock);
      if (!wait || (r !== EAGAIN && r !== EACCES)) return r;
      await sleep(delay, signal);
    }
  };
  const typeOf = (request: LockRequest): number => (request.shared ? L.F_RDLCK : L.F_WRLCK);

  // lseek(SEEK_END) gives no size for some files: a directory (ext4 answers LLONG_MAX, -EOVERFLOW from
  // the adapter; tmpfs EINVAL), a /proc file (EINVAL), a FIFO or socket (ESPIPE). Only on such an answer,
  // fstat(2) says what the file is, as the JDK and node:fs ask it: a directory has no size (EISDIR), the
  // others have the st_size they report (0 for those), and a size beyond 2**53 - 1 stays -EOVERFLOW.
  // Through node:fs: struct stat's layout differs per platform, and this path is rare.
  const unsized = (r: number): boolean => r === EOVERFLOW || r === EINVAL || r === ESPIPE;
  const sizeOf = (fd: number, r: number): number => {
    if (!unsized(r)) return r;
    try {
      return sizeFromStats(fstatOf(fd));
    } catch (error) {
      return errnoFrom(error, r);
    }
  };
  const sizeOfAsync = (fd: number, r: number): Promise<number> =>
    unsized(r)
      ? new Promise((resolve) =>
          fs.fstat(fd, (error, stats) => {
            if (error === null) resolve(sizeFromStats(stats));
            else if (process.platform !== "linux") resolve(errnoFrom(error, r));
            else {
              // By /proc where node:fs does not know the descriptor (see fstatOf).
              fs.stat(`/proc/self/fd/${fd}`, (again, viaProc) =>
                resolve(again === null ? sizeFromStats(viaProc) : errnoFrom(error, r)),
              );
            }
          }),
        )
      : Promise.resolve(r);

  const posixFadvise = libc.posix_fadvise;
  const fadviseValues = L.fadvise;

  return {
    name: "native",
    open: (path, mode) =>
      fixed
        ? open(path, flagsOf(mode), CREATE_MODE)
        : open(path, flagsOf(mode), "uint32_t", CREATE_MODE),
    close: (fd) => close(fd),
    pread: (fd, buffer, offset, length, position) =>
      pread(fd, viewOf(buffer, offset, length), length, position),
    pwrite: (fd, buffer, offset, length, position) =>
      pwrite(fd, viewOf(buffer, offset, length), length, position),
    allocateDirect: (capacity) => {
      const memory = new SharedArrayBuffer(capacity);
      const address = addressOf(memory);
      return address === undefined
        ? undefined
        : new AddressedBuffer(memory, capacity, address, preadAddress, pwriteAddress);
    },
    size: (fd) => {
      const r = lseek(fd, 0, L.SEEK_END);
      return r >= 0 ? exact(r) : sizeOf(fd, r);
    },
    truncate: (fd, length) => ftruncate(fd, length),
    sync: (fd) => (L.F_FULLFSYNC === undefined ? fsync(fd) : fullfsync(fd)),
    datasync: (fd) => (L.datasync === "fullfsync" ? fullfsync(fd) : fdatasync(fd)),
    lock: (fd, request) =>
      lockSync(fd, request.wait, flock(typeOf(request), request.position, request.length)),
    unlock: (fd, position, length) => lockSync(fd, false, flock(L.F_UNLCK, position, length)),
    fadvise: (fd, position, length, advice) => {
      // Its names only (not `toString` or `__proto__`), checked where advice is ignored too.
      if (!ADVICE.has(advice)) return EINVAL;
      if (posixFadvise === undefined || fadviseValues === undefined) return 0;
      const value = fadviseValues[advice];
      if (value === undefined) return EINVAL;
      // posix_fadvise returns the error number itself and leaves errno alone.
      const r = posixFadvise(fd, position, length, value) as number;
      return r > 0 ? -r : r;
    },
    allocate: (fd, position, length) => {
      if (fallocate === undefined) return ENOTSUP;
      if (L.allocate === "fallocate") return fallocate(fd, 0, position, length);
      const r = (libc.fallocate as NativeFunction)(fd, position, length) as number;
      return r > 0 ? -r : r;
    },
    openAsync: (path, mode) => {
      if (fixed) return open.async(path, flagsOf(mode), CREATE_MODE);
      // Variadic open cannot run on the pool; libuv's open is the same syscall (it adds O_CLOEXEC).
      return new Promise((resolve) =>
        fs.open(path, flagsOf(mode) & ~L.O_CLOEXEC, CREATE_MODE, (error, fd) =>
          resolve(error === null ? fd : (error.errno ?? EINVAL)),
        ),
      );
    },
    closeAsync: (fd) => close.async(fd),
    preadAsync: (fd, buffer, offset, length, position) =>
      pread.async(fd, viewOf(buffer, offset, length), length, position),
    pwriteAsync: (fd, buffer, offset, length, position) =>
      pwrite.async(fd, viewOf(buffer, offset, length), length, position),
    sizeAsync: async (fd) => {
      const r = await lseek.async(fd, 0, L.SEEK_END);
      return r >= 0 ? exact(r) : sizeOfAsync(fd, r);
    },
    truncateAsync: (fd, length) => ftruncate.async(fd, length),
    syncAsync: async (fd) => {
      if (L.F_FULLFSYNC === undefined) return fsync.async(fd);
      if (fcntl === undefined) return fullfsync(fd);
      const r = await fcntl.async(fd, L.F_FULLFSYNC, 0);
      return r >= 0 || r === EBADF || r === EINTR ? r : fsync.async(fd);
    },
    datasyncAsync: async (fd) => {
      if (L.datasync !== "fullfsync") return fdatasync.async(fd);
      if (fcntl === undefined) return fullfsync(fd);
      const r = await fcntl.async(fd, L.F_FULLFSYNC!, 0);
      return r >= 0 || r === EBADF || r === EINTR ? r : fsync.async(fd);
    },
    lockAsync: (fd, request) =>
      lockAsync(
        fd,
        request.wait,
        flock(typeOf(request), request.position, request.length),
        request.signal,
      ),
  };
}
