import type { FileMode } from "@rafkit/syscall-state";

/** The modes `java.io.RandomAccessFile` accepts, in Java's order. */
const MODES: readonly FileMode[] = ["r", "rw", "rws", "rwd"];

/**
 * Checks a mode string the way Java's constructor does, before any I/O. Throws a `TypeError` with
 * code `ERR_INVALID_ARG_VALUE` and Java's `IllegalArgumentException` message for anything else.
 */
export function parseMode(mode: unknown): FileMode {
  if (typeof mode === "string" && (MODES as readonly string[]).includes(mode)) {
    return mode as FileMode;
  }
  const error = new TypeError(
    `Illegal mode "${String(mode)}" must be one of "r", "rw", "rws", or "rwd"`,
  );
  (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_VALUE";
  throw error;
}
