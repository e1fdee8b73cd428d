import * as fs from "node:fs";
import { ADVICE } from "./advice";
import type { FileMode } from "./backend";
import { errnoOf } from "./errno";
import { negativeErrno } from "./fs-errno";
import { unknownMode } from "./node-error";
import type { Primitives } from "./primitives";
import { sizeFromStats } from "./stat-size";
import { forgotten, isPipe, opened, openedAsync, pipeMark } from "./win32/node-on-windows";

const ENOTSUP = -errnoOf("ENOTSUP");
const EINVAL = -errnoOf("EINVAL");
const EFBIG = -errnoOf("EFBIG");
const ESPIPE = -errnoOf("ESPIPE");
const EPERM = -errnoOf("EPERM");
const WINDOWS = process.platform === "win32";
const { O_RDONLY, O_RDWR, O_CREAT } = fs.constants;
// Node on Windows defines neither constant, yet libuv takes its own there (UV_FS_O_SYNC, UV_FS_O_DSYNC): both open
// the handle FILE_FLAG_WRITE_THROUGH. Without them rws and rwd would open as rw.
const O_SYNC = fs.constants.O_SYNC ?? 0x08000000;
const O_DSYNC = fs.constants.O_DSYNC ?? 0x04000000;

/** `open(2)` flags for a RandomAccessFile mode; libuv adds O_CLOEXEC on every open. */
function flagsOf(mode: FileMode): number {
  switch (mode) {
    case "r":
      return O_RDONLY;
    case "rw":
      return O_RDWR | O_CREAT;
    case "rws":
      return O_RDWR | O_CREAT | O_SYNC;
    case "rwd":
      return O_RDWR | O_CREAT | O_DSYNC;
    default: {
      throw unknownMode(mode);
    }
  }
}

const EBADF = -errnoOf("EBADF");

/** node:fs throws a RangeError for a negative fd where the kernel says EBADF; answer as the kernel would. */
function badFd(fd: number): boolean {
  return !(Number.isInteger(fd) && fd >= 0 && fd <= 0x7fffffff);
}

function guard(call: () => number, fd?: number): number {
  if (fd !== undefined && badFd(fd)) return EBADF;
  try {
    return call();
  } catch (error) {
    return negativeErrno(error);
  }
}

function guardVoid(call: () => void, fd: number): number {
  return guard(() => {
    call();
    return 0;
  }, fd);
}

/** Runs a callback-style fs call, resolving to its result or `-errno`. */
/**
 * A length the runtime's `node:fs` refuses before the kernel sees it (Bun's, past 2^52 - 1, with a `RangeError`):
 * a file this backend cannot grow that far, `-EFBIG`. Anything else goes on.
 */
function refusedLength(error: unknown): number {
  if ((error as { code?: unknown } | null)?.code === "ERR_OUT_OF_RANGE") return EFBIG;
  throw error;
}

function viaCallback<T>(
  start: (callback: (error: NodeJS.ErrnoException | null, value: T) => void) => void,
  map: (value: T) => number,
  fd?: number,
): Promise<number> {
  if (fd !== undefined && badFd(fd)) return Promise.resolve(EBADF);
  return new Promise((resolve, reject) => {
    start((error, value) => {
      if (error === null) resolve(map(value));
      else {
        try {
          resolve(negativeErrno(error));
        } catch (other) {
          reject(other);
        }
      }
    });
  });
}

/**
 * The most Linux moves in one read(2)/write(2) (2 GiB - 4 KiB). node:fs refuses a length of 2 GiB or
 * more, and takes 4 GiB for 0 (a false end of file): a transfer asks for at most this, and comes back
 * short, as the native call would.
 */
const MAX_TRANSFER = 0x7ffff000;
const most = (length: number): number => Math.min(length, MAX_TRANSFER);

const zero = (): number => 0;
const identity = (n: number): number => n;

/**
 * `fs.readSync`/`fs.read` answer a zero length with 0 and make no system call, so a closed fd, a
 * directory or a FIFO would "succeed". One empty buffer through `readv` is libuv's plain
 * `pread(fd, NULL, 0, position)`: the kernel's own answer, as the native backend gets it.
 */
const NOTHING = [new Uint8Array(0)];

/** `posix_fadvise` looks the fd up, then refuses a FIFO (`-ESPIPE`); the advice itself may be ignored. */
function ignoredAdvice(stats: fs.Stats): number {
  return stats.isFIFO() ? ESPIPE : 0;
}
const unsupported = (): number => ENOTSUP;

/**
 * `-ENOTSUP` for an fd the kernel knows, else its `-errno` (`-EBADF`): the kernel looks the fd up before
 * anything else. The checks after that (the fd's access mode, the file's type, the range) are the
 * missing call's own, and are not guessed at.
 */
function notSupported(fd: number): number {
  return guard(() => {
    fs.fstatSync(fd);
    return ENOTSUP;
  }, fd);
}

/** Windows refuses to flush a read-only handle (EPERM, access denied), which has nothing to flush: the JDK's 0. */
const synced = (r: number): number => (WINDOWS && r === EPERM ? 0 : r);

/**
 * The `node:fs` one-shot calls. Locks and `allocate` are `-ENOTSUP` (node:fs has neither);
 * `fadvise` is accepted and ignored (0), since advice may always be ignored. All three still look the
 * fd up with one `fstat`, so a closed fd is `-EBADF` on every call, as on the native backend.
 */
export function nodePrimitives(): Primitives {
  return {
    name: "node",
    open: (path, mode) =>
      opened(
        guard(() => fs.openSync(path, flagsOf(mode), 0o666)),
        mode,
      ),
    close: (fd) =>
      forgotten(
        fd,
        guardVoid(() => fs.closeSync(fd), fd),
      ),
    pread: (fd, buffer, offset, length, position) =>
      isPipe(fd)
        ? ESPIPE
        : guard(
            () =>
              length === 0
                ? fs.readvSync(fd, NOTHING, position)
                : fs.readSync(fd, buffer, offset, most(length), position),
            fd,
          ),
    pwrite: (fd, buffer, offset, length, position) =>
      isPipe(fd)
        ? ESPIPE
        : guard(() => fs.writeSync(fd, buffer, offset, most(length), position), fd),
    size: (fd) => guard(() => sizeFromStats(fs.fstatSync(fd)), fd),
    truncate(fd, length) {
      try {
        return guardVoid(() => fs.ftruncateSync(fd, length), fd);
      } catch (error) {
        return refusedLength(error);
      }
    },
    sync: (fd) => synced(guardVoid(() => fs.fsyncSync(fd), fd)),
    datasync: (fd) => synced(guardVoid(() => fs.fdatasyncSync(fd), fd)),
    lock: notSupported,
    unlock: notSupported,
    fadvise: (fd, _position, _length, advice) =>
      ADVICE.has(advice) ? guard(() => ignoredAdvice(fs.fstatSync(fd)), fd) : EINVAL,
    allocate: notSupported,
    openAsync: (path, mode) => {
      const flags = flagsOf(mode);
      return viaCallback<number>((cb) => fs.open(path, flags, 0o666, cb), identity).then((fd) =>
        openedAsync(fd, mode),
      );
    },
    closeAsync: (fd) => {
      const seen = pipeMark(fd);
      return viaCallback<void>((cb) => fs.close(fd, (e) => cb(e, undefined)), zero, fd).then((r) =>
        forgotten(fd, r, seen),
      );
    },
    preadAsync: (fd, buffer, offset, length, position) =>
      isPipe(fd)
        ? Promise.resolve(ESPIPE)
        : viaCallback<number>(
            (cb) =>
              length === 0
                ? fs.readv(fd, NOTHING, position, cb)
                : fs.read(fd, buffer, offset, most(length), position, cb),
            identity,
            fd,
          ),
    pwriteAsync: (fd, buffer, offset, length, position) =>
      isPipe(fd)
        ? Promise.resolve(ESPIPE)
        : viaCallback<number>(
            (cb) => fs.write(fd, buffer, offset, most(length), position, cb),
            identity,
            fd,
          ),
    sizeAsync: (fd) => viaCallback<fs.Stats>((cb) => fs.fstat(fd, cb), sizeFromStats, fd),
    truncateAsync: (fd, length) =>
      viaCallback<void>((cb) => fs.ftruncate(fd, length, (e) => cb(e, undefined)), zero, fd).catch(
        refusedLength,
      ),
    syncAsync: (fd) =>
      viaCallback<void>((cb) => fs.fsync(fd, (e) => cb(e, undefined)), zero, fd).then(synced),
    datasyncAsync: (fd) =>
      viaCallback<void>((cb) => fs.fdatasync(fd, (e) => cb(e, undefined)), zero, fd).then(synced),
    lockAsync: (fd) => viaCallback<fs.Stats>((cb) => fs.fstat(fd, cb), unsupported, fd),
  };
}
