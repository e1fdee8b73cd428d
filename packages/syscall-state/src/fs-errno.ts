import { constants } from "node:os";
import { errnoOf } from "./errno";

/**
 * Node's fs errors carry the negative errno already. Deno's node:fs gives some (write, fsync, ftruncate, close)
 * only the errno name as `code`, so a `code` the platform names in `os.constants.errno` counts too; and some
 * (`EFBIG`, `ESPIPE` from a write or a truncate) only Rust's message, "File too large (os error 27)", whose number
 * is the errno on a POSIX system. Anything else (a bad argument: `ERR_INVALID_ARG_TYPE`, ...) is rethrown.
 */
export function negativeErrno(error: unknown): number {
  const { errno, code, message } = (error ?? {}) as {
    errno?: unknown;
    code?: unknown;
    message?: unknown;
  };
  if (typeof errno === "number" && errno < 0) return errno;
  if (
    typeof code === "string" &&
    /^E[A-Z0-9]+$/.test(code) &&
    Object.hasOwn(constants.errno, code)
  ) {
    return -errnoOf(code);
  }
  const os = typeof message === "string" ? /\(os error (\d+)\)$/.exec(message) : null;
  // On Windows the number would be a Win32 error code, not an errno.
  if (os !== null && process.platform !== "win32" && Number(os[1]) > 0) return -Number(os[1]);
  throw error;
}
