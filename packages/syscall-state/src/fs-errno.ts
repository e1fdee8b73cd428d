import { constants } from "node:os";
import { errnoOf } from "./errno";

/**
 * Node's fs errors carry the negative errno already. Deno's node:fs gives some (write, fsync, ftruncate, close)
 * only the errno name as `code`, so a `code` the platform names in `os.constants.errno` counts too. Anything else
 * (a bad argument: `ERR_INVALID_ARG_TYPE`, ...) is rethrown.
 */
export function negativeErrno(error: unknown): number {
  const { errno, code } = (error ?? {}) as { errno?: unknown; code?: unknown };
  if (typeof errno === "number" && errno < 0) return errno;
  if (
    typeof code === "string" &&
    /^E[A-Z0-9]+$/.test(code) &&
    Object.hasOwn(constants.errno, code)
  ) {
    return -errnoOf(code);
  }
  throw error;
}
