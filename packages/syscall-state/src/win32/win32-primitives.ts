import { type AdaptedSystemCall, adaptSystemCall, type NativeFunction } from "../adapter";
import { addressOf } from "../address";
import { ADVICE } from "../advice";
import type { Backend, FileMode, LockRequest } from "../backend";
import { ComposedBackend } from "../compose-backend";
import { AddressedBuffer } from "../direct-buffer";
import { errnoOf } from "../errno";
import { MAX_POLL_MS, sleep } from "../lock-poll";
import { unknownMode } from "../node-error";
import type { Primitives } from "../primitives";
import { viewOf } from "../typed-array";
import { type NativeKernel32, nativeKernel32 } from "./kernel32";
import {
  ERROR_ACCESS_DENIED,
  ERROR_BROKEN_PIPE,
  ERROR_FILE_EXISTS,
  ERROR_HANDLE_EOF,
  ERROR_LOCK_VIOLATION,
  ERROR_NOT_LOCKED,
  errnoFromWin32,
} from "./win32-errors";
import { win32Path } from "./win32-path";

const EAGAIN = -errnoOf("EAGAIN");
const EBADF = -errnoOf("EBADF");
const EISDIR = -errnoOf("EISDIR");
const ENOTSUP = -errnoOf("ENOTSUP");
const EOVERFLOW = -errnoOf("EOVERFLOW");
const ESPIPE = -errnoOf("ESPIPE");
const EINVAL = -errnoOf("EINVAL");

const GENERIC_READ = 0x80000000;
const GENERIC_WRITE = 0x40000000;
/** Other handles may read, write, delete and rename the file, as NIO's FileChannel lets them. */
const FILE_SHARE_ALL = 0x1 | 0x2 | 0x4;
const OPEN_EXISTING = 3;
const OPEN_ALWAYS = 4;
const FILE_ATTRIBUTE_NORMAL = 0x80;
const FILE_ATTRIBUTE_DIRECTORY = 0x10;
const INVALID_FILE_ATTRIBUTES = 0xffffffff;
const FILE_FLAG_WRITE_THROUGH = 0x80000000;
/** Lets `r` open a directory (as libuv does), so that a read answers EISDIR, as on POSIX. */
const FILE_FLAG_BACKUP_SEMANTICS = 0x02000000;
const FILE_STANDARD_INFO = 1;
const FILE_END_OF_FILE_INFO = 6;
const FILE_ID_INFO = 18;
const FILE_TYPE_PIPE = 3;
const FILE_TYPE_CHAR = 2;
const LOCKFILE_FAIL_IMMEDIATELY = 0x1;
const LOCKFILE_EXCLUSIVE_LOCK = 0x2;
/** The most one ReadFile/WriteFile moves here, as Linux caps read(2): the composed loops go on. */
const MAX_TRANSFER = 0x7ffff000;
const TWO_32 = 4294967296;

/**
 * Locks are advisory, as on POSIX, the way SQLite builds them from Windows' mandatory ones: byte
 * `p` of the file is locked as byte `2**62 + p`, far past any data, so a lock never blocks a read or
 * write through another handle. "To the end, however it grows" is everything up to `2**63`.
 */
const LOCK_BASE = 1n << 62n;
const LOCK_END = 1n << 63n;

/** An OVERLAPPED (32 bytes on 64-bit Windows) naming `offset` as two DWORDs, exact to 2**53. */
function overlapped(into: Uint32Array, offset: number): Uint32Array {
  into.fill(0);
  into[4] = offset % TWO_32;
  into[5] = Math.floor(offset / TWO_32);
  return into;
}

function overlappedAt(into: Uint32Array, offset: bigint): Uint32Array {
  into.fill(0);
  into[4] = Number(offset & 0xffffffffn);
  into[5] = Number(offset >> 32n);
  return into;
}

interface LockRange {
  readonly start: bigint;
  readonly length: bigint;
}

function lockRange(position: number, length: number): LockRange {
  const start = LOCK_BASE + BigInt(position);
  return { start, length: length === 0 ? LOCK_END - start : BigInt(length) };
}

const low = (n: bigint): number => Number(n & 0xffffffffn);
const high = (n: bigint): number => Number(n >> 32n);

function flagsOf(mode: FileMode): { access: number; disposition: number; flags: number } {
  // Backup semantics for `r` only: a writable open of a directory must fail (EISDIR, as on POSIX).
  const through = FILE_ATTRIBUTE_NORMAL | FILE_FLAG_WRITE_THROUGH;
  const rw = GENERIC_READ | GENERIC_WRITE;
  switch (mode) {
    case "r":
      return {
        access: GENERIC_READ,
        disposition: OPEN_EXISTING,
        flags: FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS,
      };
    case "rw":
      return { access: rw, disposition: OPEN_ALWAYS, flags: FILE_ATTRIBUTE_NORMAL };
    // The JDK opens both with FILE_FLAG_WRITE_THROUGH: Windows has no data-only write-through.
    case "rws":
    case "rwd":
      return { access: rw, disposition: OPEN_ALWAYS, flags: through };
    default:
      throw unknownMode(mode);
  }
}

/**
 * The kernel32 one-shot calls. Every failure is `-GetLastError()` from the adapter, read right after
 * the call (sync) or first thing in koffi's completion callback (async: koffi hands over the pool
 * thread's last-error value), then translated to Node's `-errno` as libuv translates it.
 */
export function win32Primitives(k: NativeKernel32): Primitives {
  const adapt = (fn: NativeFunction, failure: "negative" | "zero" = "zero"): AdaptedSystemCall =>
    adaptSystemCall(fn, "GetLastError", failure);
  const createFile = adapt(k.CreateFileW, "negative");
  const closeHandle = adapt(k.CloseHandle);
  const readFile = adapt(k.ReadFile);
  const writeFile = adapt(k.WriteFile);
  const readFileAddress = adapt(k.ReadFileAddress);
  const writeFileAddress = adapt(k.WriteFileAddress);
  const getInfo = adapt(k.GetFileInformationByHandleEx);
  const setInfo = adapt(k.SetFileInformationByHandle);
  const flush = adapt(k.FlushFileBuffers);
  const lockFile = adapt(k.LockFileEx);
  const unlockFile = adapt(k.UnlockFileEx);
  const fileType = adapt(k.GetFileType);

  /** Win32's `-code` as Node's `-errno`; successes pass through. */
  const errno = (r: number): number => (r < 0 ? errnoFromWin32(-r) : r);

  // The open handles of pipes. Windows reads and writes a pipe in order whatever the OVERLAPPED offset says, where
  // pread(2) refuses a FIFO (ESPIPE): their positional calls answer that, and their size is a FIFO's 0.
  // Each entry is an object of its own, so that an async close removes only the entry it saw (see `closed`).
  const pipes = new Map<number, object>();
  const noted = (fd: number): number => {
    if (fd < 0) return fd;
    // A new handle holds no locks: records left under its number (by a close whose continuation has not run yet)
    // are another handle's.
    held.delete(fd);
    // A number closed some other way comes back for another file: what it is now counts.
    if ((k.GetFileType(fd) as number) === FILE_TYPE_PIPE) pipes.set(fd, {});
    else pipes.delete(fd);
    return fd;
  };
  const isPipe = (fd: number): boolean => pipes.size !== 0 && pipes.has(fd);

  /** A directory refused for writing answers EISDIR, as libuv and POSIX do (Win32 says access denied). */
  const opened = (path: string, mode: FileMode, r: number): number => {
    if (r >= 0) return r;
    if (mode !== "r" && (-r === ERROR_ACCESS_DENIED || -r === ERROR_FILE_EXISTS)) {
      const attributes = k.GetFileAttributesW(win32Path(path)) as number;
      if (attributes !== INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) !== 0) {
        return EISDIR;
      }
    }
    return errnoFromWin32(-r);
  };
  const openArgs = (path: string, mode: FileMode): unknown[] => {
    const { access, disposition, flags } = flagsOf(mode);
    return [win32Path(path), access, FILE_SHARE_ALL, null, disposition, flags, 0];
  };

  // Sync calls run one at a time on this thread, so they share one OVERLAPPED and one count.
  const ov = new Uint32Array(8);
  const done = new Uint32Array(1);
  /** A read past the end is ERROR_HANDLE_EOF (a pipe's end ERROR_BROKEN_PIPE): 0 bytes, as pread says. */
  const readResult = (r: number, count: Uint32Array): number => {
    if (r > 0) return count[0]!;
    if (-r === ERROR_HANDLE_EOF || -r === ERROR_BROKEN_PIPE) return 0;
    // libuv too answers a read of a write-only handle (access denied) with EBADF, as POSIX does.
    return -r === ERROR_ACCESS_DENIED ? EBADF : errno(r);
  };
  const writeResult = (r: number, count: Uint32Array): number => {
    if (r > 0) return count[0]!;
    return -r === ERROR_ACCESS_DENIED ? EBADF : errno(r);
  };

  // FILE_STANDARD_INFO: AllocationSize, EndOfFile (int64 at 8), NumberOfLinks, DeletePending, Directory (byte 21).
  const info = new Uint8Array(24);
  const sizeResult = (r: number, bytes: Uint8Array): number => {
    if (r <= 0) return errno(r);
    if (bytes[21] !== 0) return EISDIR;
    const size = new DataView(bytes.buffer, bytes.byteOffset, 24).getBigInt64(8, true);
    return size > BigInt(Number.MAX_SAFE_INTEGER) ? EOVERFLOW : Number(size);
  };
  const endOfFile = (length: number): Uint8Array => {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigInt64(0, BigInt(length), true);
    return bytes;
  };
  /** The JDK's handleSync: a read-only handle cannot be flushed (access denied), and has nothing to flush. */
  const syncResult = (r: number): number => (r > 0 ? 0 : -r === ERROR_ACCESS_DENIED ? 0 : errno(r));

  // Each handle's granted locks, so that unlock(fd, 0, 0) releases all of them as on POSIX: Windows
  // unlocks only a range exactly as it was locked.
  const held = new Map<number, LockRange[]>();
  const lockFlags = (request: LockRequest, wait: boolean): number =>
    (request.shared ? 0 : LOCKFILE_EXCLUSIVE_LOCK) | (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);
  const lockOnce = (fd: number, request: LockRequest, wait: boolean): number => {
    const range = lockRange(request.position, request.length);
    const r = lockFile(
      fd,
      lockFlags(request, wait),
      0,
      low(range.length),
      high(range.length),
      overlappedAt(ov, range.start),
    );
    if (r > 0) {
      const list = held.get(fd);
      if (list === undefined) held.set(fd, [range]);
      else list.push(range);
      return 0;
    }
    return -r === ERROR_LOCK_VIOLATION ? EAGAIN : errno(r);
  };
  const unlock = (fd: number, position: number, length: number): number => {
    const range = lockRange(position, length);
    const end = range.start + range.length;
    const list = held.get(fd) ?? [];
    const covered = list.filter((l) => l.start >= range.start && l.start + l.length <= end);
    if (covered.length === 0) {
      // Nothing of ours there: still ask Windows, so a bad handle answers EBADF.
      const r = unlockFile(
        fd,
        0,
        low(range.length),
        high(range.length),
        overlappedAt(ov, range.start),
      );
      return r > 0 || -r === ERROR_NOT_LOCKED ? 0 : errno(r);
    }
    for (const l of covered) {
      const r = unlockFile(fd, 0, low(l.length), high(l.length), overlappedAt(ov, l.start));
      if (r <= 0 && -r !== ERROR_NOT_LOCKED) return errno(r);
      list.splice(list.indexOf(l), 1);
    }
    return 0;
  };
  const lockAsync = async (fd: number, request: LockRequest): Promise<number> => {
    for (let delay = 1; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
      request.signal?.throwIfAborted();
      const r = lockOnce(fd, request, false);
      if (!request.wait || r !== EAGAIN) return r;
      await sleep(delay, request.signal);
    }
  };
  /** The handle's file type, or its `-errno` when Windows does not know the handle. */
  const typeOf = (fd: number): number => errno(fileType(fd));
  const isStream = (type: number): boolean => type === FILE_TYPE_PIPE || type === FILE_TYPE_CHAR;
  /**
   * After `fd` was closed: its lock records and pipe mark go, unless they are no longer the ones seen before the
   * close (`seen`): once the OS has closed an async close's handle, a sync open on this thread may get the same
   * number before the close's continuation runs, and its records must stay.
   */
  const closed = (fd: number, r: number, seen: Seen = seenOf(fd)): number => {
    if (r > 0) {
      if (held.get(fd) === seen.locks) held.delete(fd);
      if (pipes.get(fd) === seen.pipe) pipes.delete(fd);
      return 0;
    }
    return errno(r);
  };
  type Seen = { locks: LockRange[] | undefined; pipe: object | undefined };
  const seenOf = (fd: number): Seen => ({ locks: held.get(fd), pipe: pipes.get(fd) });

  /**
   * A direct buffer: the bytes, then the call's count and OVERLAPPED, in one memory at one address, so
   * that ReadFile and WriteFile take three addresses and koffi inspects no typed array.
   */
  const allocateDirect = (capacity: number): AddressedBuffer | undefined => {
    const countFrom = Math.ceil(capacity / 8) * 8;
    const memory = new SharedArrayBuffer(countFrom + 8 + 32);
    const address = addressOf(memory);
    if (address === undefined) return undefined;
    const count = new Uint32Array(memory, countFrom, 1);
    const ovOf = new Uint32Array(memory, countFrom + 8, 8);
    const countAt = address + countFrom;
    const ovAt = countAt + 8;
    return new AddressedBuffer(
      memory,
      capacity,
      address,
      (fd, at, length, position) => {
        if (isPipe(fd)) return ESPIPE;
        overlapped(ovOf, position);
        return readResult(readFileAddress(fd, at, length, countAt, ovAt), count);
      },
      (fd, at, length, position) => {
        if (isPipe(fd)) return ESPIPE;
        overlapped(ovOf, position);
        return writeResult(writeFileAddress(fd, at, length, countAt, ovAt), count);
      },
    );
  };

  // FILE_ID_INFO: the volume's serial number (8 bytes), then the file's 128-bit id. FAT and exFAT have no such
  // ids (ERROR_INVALID_PARAMETER): there BY_HANDLE_FILE_INFORMATION's serial number (at 28) and 64-bit index (44).
  const id = new Uint8Array(52);
  const hex = (bytes: Uint8Array): string => {
    let text = "";
    for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
    return text;
  };
  const identity = (fd: number): string | undefined => {
    if (getInfo(fd, FILE_ID_INFO, id, 24) > 0) return hex(id.subarray(0, 24));
    if ((k.GetFileInformationByHandle(fd, id) as number) === 0) return undefined;
    return `${hex(id.subarray(28, 32))}:${hex(id.subarray(44, 52))}`;
  };

  return {
    name: "native",
    allocateDirect,
    identity,
    open: (path, mode) => noted(opened(path, mode, createFile(...openArgs(path, mode)))),
    close: (fd) => closed(fd, closeHandle(fd)),
    pread: (fd, buffer, offset, length, position) => {
      if (isPipe(fd)) return ESPIPE;
      const n = Math.min(length, MAX_TRANSFER);
      return readResult(
        readFile(fd, viewOf(buffer, offset, n), n, done, overlapped(ov, position)),
        done,
      );
    },
    pwrite: (fd, buffer, offset, length, position) => {
      if (isPipe(fd)) return ESPIPE;
      const n = Math.min(length, MAX_TRANSFER);
      return writeResult(
        writeFile(fd, viewOf(buffer, offset, n), n, done, overlapped(ov, position)),
        done,
      );
    },
    size: (fd) => (isPipe(fd) ? 0 : sizeResult(getInfo(fd, FILE_STANDARD_INFO, info, 24), info)),
    truncate: (fd, length) => {
      const r = setInfo(fd, FILE_END_OF_FILE_INFO, endOfFile(length), 8);
      return r > 0 ? 0 : -r === ERROR_ACCESS_DENIED ? EINVAL : errno(r);
    },
    sync: (fd) => syncResult(flush(fd)),
    datasync: (fd) => syncResult(flush(fd)),
    lock: (fd, request) => lockOnce(fd, request, request.wait),
    unlock,
    // Windows takes no advice: known advice is accepted and ignored once the handle is known good.
    fadvise: (fd, _position, _length, advice) => {
      if (!ADVICE.has(advice)) return EINVAL;
      const type = typeOf(fd);
      return type < 0 ? type : isStream(type) ? ESPIPE : 0;
    },
    allocate: (fd) => {
      const type = typeOf(fd);
      return type < 0 ? type : ENOTSUP;
    },
    openAsync: async (path, mode) =>
      noted(opened(path, mode, await createFile.async(...openArgs(path, mode)))),
    closeAsync: async (fd) => {
      const seen = seenOf(fd);
      return closed(fd, await closeHandle.async(fd), seen);
    },
    preadAsync: async (fd, buffer, offset, length, position) => {
      if (isPipe(fd)) return ESPIPE;
      const n = Math.min(length, MAX_TRANSFER);
      const count = new Uint32Array(1);
      const at = overlapped(new Uint32Array(8), position);
      return readResult(await readFile.async(fd, viewOf(buffer, offset, n), n, count, at), count);
    },
    pwriteAsync: async (fd, buffer, offset, length, position) => {
      if (isPipe(fd)) return ESPIPE;
      const n = Math.min(length, MAX_TRANSFER);
      const count = new Uint32Array(1);
      const at = overlapped(new Uint32Array(8), position);
      return writeResult(await writeFile.async(fd, viewOf(buffer, offset, n), n, count, at), count);
    },
    sizeAsync: async (fd) => {
      if (isPipe(fd)) return 0;
      const bytes = new Uint8Array(24);
      return sizeResult(await getInfo.async(fd, FILE_STANDARD_INFO, bytes, 24), bytes);
    },
    truncateAsync: async (fd, length) => {
      const r = await setInfo.async(fd, FILE_END_OF_FILE_INFO, endOfFile(length), 8);
      return r > 0 ? 0 : -r === ERROR_ACCESS_DENIED ? EINVAL : errno(r);
    },
    syncAsync: async (fd) => syncResult(await flush.async(fd)),
    datasyncAsync: async (fd) => syncResult(await flush.async(fd)),
    lockAsync,
  };
}

/** The advice names `posix_fadvise` knows; Windows takes none, so known advice is accepted and ignored. */

/**
 * The native backend on Windows: kernel32 handles for fds, `GetLastError` for errno. No fadvise or
 * block reservation there. Throws a `NativeUnavailableError` where kernel32 or koffi do not load. @internal
 */
export function win32Backend(): Backend {
  return new ComposedBackend(win32Primitives(nativeKernel32()), {
    locks: true,
    allocate: false,
    fadvise: false,
  });
}
