import { constants } from "node:os";
import { getSystemErrorMap, getSystemErrorName } from "node:util";
import { nodeError } from "./node-error";

/** Node's own numbers by name: libuv's `UV_E*` codes, as `err.errno` of Node's fs errors carries them. */
let libuvNumbers: Map<string, number> | undefined;

/**
 * The positive errno number of `name` on this platform, as Node's own fs errors carry it negated in
 * `errno`: `errnoOf("ENOENT") === 2` on Linux and macOS, 4058 on Windows (libuv's `UV_ENOENT`, where
 * `os.constants.errno.ENOENT` is the C runtime's 2). Names libuv does not number (EDEADLK, ENOLCK, ...)
 * come from `os.constants.errno`. Throws a `TypeError` with code `ERR_UNKNOWN_ERRNO_NAME` for a name the
 * platform lacks.
 */
export function errnoOf(name: string): number {
  if (libuvNumbers === undefined) {
    libuvNumbers = new Map();
    for (const [result, [known]] of getSystemErrorMap()) libuvNumbers.set(known, -result);
  }
  const table = constants.errno as Record<string, number | undefined>;
  const own = table[name];
  const value = typeof own === "number" ? (libuvNumbers.get(name) ?? own) : undefined;
  if (value === undefined) {
    throw nodeError(
      TypeError,
      "ERR_UNKNOWN_ERRNO_NAME",
      `Unknown errno name '${name}' on ${process.platform}; valid names are those of os.constants.errno (EINTR, EAGAIN, EIO, ENOSPC, EBADF, ...)`,
    );
  }
  return value;
}

/**
 * The name of a negative result (`errnoName(-2) === "ENOENT"` on Linux), from `util.getSystemErrorName`;
 * `"UNKNOWN"` for a number the platform does not name.
 */
export function errnoName(result: number): string {
  return describeErrno(result)[0];
}

/**
 * `[name, description]` of a negative result, as Node's own fs errors print them (libuv's map). Numbers
 * libuv does not describe (EDEADLK, ENOLCK, ...) still get their name from `os.constants.errno`, with
 * the description "unknown error"; numbers nobody names are `["UNKNOWN", "unknown error"]`.
 */
export function describeErrno(result: number): readonly [string, string] {
  const entry = getSystemErrorMap().get(result);
  if (entry !== undefined) return entry;
  // Node's getSystemErrorName takes negative 32-bit integers only: -2.5 or -Infinity would throw.
  // Deno's answers undefined for a number its map lacks (EDQUOT, ESTALE, EOVERFLOW, ...).
  const name: string | undefined =
    Number.isInteger(result) && result < 0 && result >= -(2 ** 31)
      ? getSystemErrorName(result)
      : "UNKNOWN";
  if (typeof name === "string" && !name.startsWith("Unknown")) return [name, "unknown error"];
  for (const [known, value] of Object.entries(constants.errno)) {
    if (value === -result) return [known, "unknown error"];
  }
  return ["UNKNOWN", "unknown error"];
}
