import { errnoOf } from "../errno";

/**
 * Win32 error codes (winerror.h) by the errno name Node reports for them: libuv's
 * `uv_translate_sys_error` (src/win/error.c), as Node 22's libuv maps them. Differences from that
 * table are listed in the README's Windows section; everything unlisted is `UNKNOWN`, as in libuv, but for
 * ERROR_NO_UNICODE_TRANSLATION (1113), libuv's `ECHARSET`, a name `os.constants.errno` lacks (`UNKNOWN` here).
 */
const WIN32_TO_NAME: Readonly<Record<number, string>> = {
  1: "EISDIR", // ERROR_INVALID_FUNCTION: what a read of a directory handle answers
  2: "ENOENT", // ERROR_FILE_NOT_FOUND
  3: "ENOENT", // ERROR_PATH_NOT_FOUND
  4: "EMFILE", // ERROR_TOO_MANY_OPEN_FILES
  5: "EPERM", // ERROR_ACCESS_DENIED (newer libuv: EACCES)
  6: "EBADF", // ERROR_INVALID_HANDLE
  8: "ENOMEM", // ERROR_NOT_ENOUGH_MEMORY
  13: "EINVAL", // ERROR_INVALID_DATA
  14: "ENOMEM", // ERROR_OUTOFMEMORY
  15: "ENOENT", // ERROR_INVALID_DRIVE
  17: "EXDEV", // ERROR_NOT_SAME_DEVICE
  19: "EROFS", // ERROR_WRITE_PROTECT
  23: "EIO", // ERROR_CRC
  31: "EIO", // ERROR_GEN_FAILURE
  32: "EBUSY", // ERROR_SHARING_VIOLATION
  33: "EBUSY", // ERROR_LOCK_VIOLATION (a lock request that meets a holder is EAGAIN, see the backend)
  39: "ENOSPC", // ERROR_HANDLE_DISK_FULL
  50: "ENOTSUP", // ERROR_NOT_SUPPORTED
  64: "ECONNRESET", // ERROR_NETNAME_DELETED
  80: "EEXIST", // ERROR_FILE_EXISTS
  82: "ENOSPC", // ERROR_CANNOT_MAKE
  87: "EINVAL", // ERROR_INVALID_PARAMETER
  110: "EIO", // ERROR_OPEN_FAILED
  111: "EFAULT", // ERROR_BUFFER_OVERFLOW
  112: "ENOSPC", // ERROR_DISK_FULL
  121: "ETIMEDOUT", // ERROR_SEM_TIMEOUT
  122: "EINVAL", // ERROR_INSUFFICIENT_BUFFER
  123: "ENOENT", // ERROR_INVALID_NAME
  126: "ENOENT", // ERROR_MOD_NOT_FOUND
  145: "ENOTEMPTY", // ERROR_DIR_NOT_EMPTY
  156: "EIO", // ERROR_SIGNAL_REFUSED
  161: "ENOENT", // ERROR_BAD_PATHNAME
  183: "EEXIST", // ERROR_ALREADY_EXISTS
  205: "EIO", // ERROR_NO_SIGNAL_SENT
  206: "ENAMETOOLONG", // ERROR_FILENAME_EXCED_RANGE
  230: "EPIPE", // ERROR_BAD_PIPE
  231: "EBUSY", // ERROR_PIPE_BUSY
  232: "EPIPE", // ERROR_NO_DATA
  233: "EPIPE", // ERROR_PIPE_NOT_CONNECTED
  267: "ENOENT", // ERROR_DIRECTORY
  277: "ENOSPC", // ERROR_EA_TABLE_FULL
  740: "EACCES", // ERROR_ELEVATION_REQUIRED
  995: "ECANCELED", // ERROR_OPERATION_ABORTED
  998: "EACCES", // ERROR_NOACCESS
  1004: "EBADF", // ERROR_INVALID_FLAGS
  1100: "ENOSPC", // ERROR_END_OF_MEDIA
  1101: "EIO", // ERROR_FILEMARK_DETECTED
  1102: "EIO", // ERROR_BEGINNING_OF_MEDIA
  1103: "EIO", // ERROR_SETMARK_DETECTED
  1104: "EIO", // ERROR_NO_DATA_DETECTED
  1106: "EIO", // ERROR_INVALID_BLOCK_LENGTH
  1111: "EIO", // ERROR_BUS_RESET
  1117: "EIO", // ERROR_IO_DEVICE
  1129: "EIO", // ERROR_EOM_OVERFLOW
  1165: "EIO", // ERROR_DEVICE_REQUIRES_CLEANING
  1166: "EIO", // ERROR_DEVICE_DOOR_OPEN
  1225: "ECONNREFUSED", // ERROR_CONNECTION_REFUSED
  1314: "EPERM", // ERROR_PRIVILEGE_NOT_HELD
  1393: "EIO", // ERROR_DISK_CORRUPT
  1464: "EINVAL", // ERROR_SYMLINK_NOT_SUPPORTED
  1920: "EACCES", // ERROR_CANT_ACCESS_FILE
  1921: "ELOOP", // ERROR_CANT_RESOLVE_FILENAME
  4392: "ENOENT", // ERROR_INVALID_REPARSE_DATA
  10004: "ECANCELED", // WSAEINTR
  10009: "EBADF", // WSAEBADF (libuv: UNKNOWN)
  10013: "EACCES", // WSAEACCES
  10014: "EFAULT", // WSAEFAULT
  10022: "EINVAL", // WSAEINVAL
  10024: "EMFILE", // WSAEMFILE
  10035: "EAGAIN", // WSAEWOULDBLOCK
  10038: "ENOTSOCK", // WSAENOTSOCK
  10048: "EADDRINUSE", // WSAEADDRINUSE
  10054: "ECONNRESET", // WSAECONNRESET
  10057: "ENOTCONN", // WSAENOTCONN
  10060: "ETIMEDOUT", // WSAETIMEDOUT
  10061: "ECONNREFUSED", // WSAECONNREFUSED
};

/** Win32 codes the backend tests for by name. */
export const ERROR_ACCESS_DENIED = 5;
export const ERROR_HANDLE_EOF = 38;
export const ERROR_BROKEN_PIPE = 109;
export const ERROR_LOCK_VIOLATION = 33;
export const ERROR_NOT_LOCKED = 158;
export const ERROR_FILE_EXISTS = 80;

let table: Map<number, number> | undefined;

/**
 * `-errno` (Node's number, see `errnoOf`) for a Win32 error code, or libuv's `UNKNOWN` (-4094 on
 * Windows) for a code libuv does not translate either. @internal
 */
export function errnoFromWin32(code: number): number {
  if (table === undefined) {
    table = new Map();
    for (const [win32, name] of Object.entries(WIN32_TO_NAME)) {
      table.set(Number(win32), -errnoOf(name));
    }
  }
  return table.get(code) ?? UNKNOWN;
}

/** libuv's UV_UNKNOWN: Node names it "UNKNOWN" ("unknown error"). */
const UNKNOWN = -4094;
