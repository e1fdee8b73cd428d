import { constants } from "node:os";
import { getSystemErrorMap, getSystemErrorName } from "node:util";

/**
 * The positive errno number of `name` on this platform (`errnoOf("ENOENT") === 2` on Linux), from
 * `os.constants.errno`. Throws a `TypeError` with code `ERR_UNKNOWN_ERRNO_NAME` for a name the platform lacks.
 */
export function errnoOf(name: string): number {
  const table = constants.errno as Record<string, number | undefined>;
  const value = table[name];
  if (typeof value !== "number") {
    const error = new TypeError(
      `Unknown errno name '${name}' on ${process.platform}; valid names are those of os.constants.errno (EINTR, EAGAIN, EIO, ENOSPC, EBADF, ...)`,
    );
    (error as TypeError & { code: string }).code = "ERR_UNKNOWN_ERRNO_NAME";
    throw error;
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
  const name = result < 0 ? getSystemErrorName(result) : "UNKNOWN";
  if (!name.startsWith("Unknown")) return [name, "unknown error"];
  for (const [known, value] of Object.entries(constants.errno)) {
    if (value === -result) return [known, "unknown error"];
  }
  return ["UNKNOWN", "unknown error"];
}
