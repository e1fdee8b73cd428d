/**
 * The errno numbers and descriptions a browser build answers with: Linux's numbers (what Node reports on
 * Linux) and libuv's descriptions, so an error thrown in a page reads as the same error thrown by Node.
 * Only the codes a backend can produce, or a caller may ask for by name, are here.
 */
export const BROWSER_ERRNO: Readonly<Record<string, readonly [number, string]>> = {
  EPERM: [1, "operation not permitted"],
  ENOENT: [2, "no such file or directory"],
  EINTR: [4, "interrupted system call"],
  EIO: [5, "i/o error"],
  EBADF: [9, "bad file descriptor"],
  EAGAIN: [11, "resource temporarily unavailable"],
  ENOMEM: [12, "not enough memory"],
  EACCES: [13, "permission denied"],
  EBUSY: [16, "resource busy or locked"],
  EEXIST: [17, "file already exists"],
  ENOTDIR: [20, "not a directory"],
  EISDIR: [21, "illegal operation on a directory"],
  EINVAL: [22, "invalid argument"],
  EMFILE: [24, "too many open files"],
  EFBIG: [27, "file too large"],
  ENOSPC: [28, "no space left on device"],
  ESPIPE: [29, "invalid seek"],
  EROFS: [30, "read-only file system"],
  EDEADLK: [35, "resource deadlock avoided"],
  ENAMETOOLONG: [36, "name too long"],
  ENOLCK: [37, "no locks available"],
  ENOSYS: [38, "function not implemented"],
  EOVERFLOW: [75, "value too large for defined data type"],
  ENOTSUP: [95, "operation not supported on socket"],
  EOPNOTSUPP: [95, "operation not supported on socket"],
};
