import { shareClassIdentity } from "./class-identity";
import { describeErrno } from "./errno";
import { nodeError } from "./node-error";

/**
 * An OS error shaped like Node's own fs errors: `code` (`"ENOENT"`), `errno` (negative, as Node's is),
 * `syscall`, `path` when known, and the message `ENOENT: no such file or directory, open '/x'`.
 */
export class SystemCallError extends Error {
  static {
    shareClassIdentity(this, "@rafkit/syscall-state.SystemCallError");
  }
  /** The errno name, e.g. `"ENOENT"`. */
  readonly code: string;
  /** The negative errno, e.g. `-2` for ENOENT on Linux (Node's convention). */
  readonly errno: number;
  /** The system call that failed, e.g. `"open"`, `"read"`. */
  readonly syscall: string;
  /** The path involved, when the caller knew it. */
  declare readonly path?: string;

  constructor(result: number, syscall: string, path?: string) {
    const [code, description] = describeErrno(result);
    const where = path === undefined ? syscall : `${syscall} '${path}'`;
    super(`${code}: ${description}, ${where}`);
    this.name = "SystemCallError";
    this.code = code;
    this.errno = result;
    this.syscall = syscall;
    if (path !== undefined) this.path = path;
  }
}

/**
 * Turns a backend's negative result into a Node-shaped error. Throws a `RangeError`
 * (`ERR_OUT_OF_RANGE`) when `result` is not a negative integer: that would be a bug in the caller.
 *
 * @example
 * const fd = backend.open("/x", "r");
 * if (fd < 0) throw systemCallError(fd, "open", "/x"); // ENOENT: no such file or directory, open '/x'
 */
export function systemCallError(result: number, syscall: string, path?: string): SystemCallError {
  if (!Number.isInteger(result) || result >= 0) {
    throw nodeError(
      RangeError,
      "ERR_OUT_OF_RANGE",
      `systemCallError expects a negative errno result, got ${String(result)}`,
    );
  }
  return new SystemCallError(result, syscall, path);
}
