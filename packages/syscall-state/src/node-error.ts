/** The error classes Node's own argument and range errors use. */
type ErrorClass = new (message: string) => Error;

/**
 * An error shaped as Node's own: `new Class(message)` with its `code` set (`ERR_INVALID_ARG_TYPE`,
 * `ERR_OUT_OF_RANGE`, ...). The one place syscall-state builds such errors. @internal
 */
export function nodeError<E extends ErrorClass>(
  Class: E,
  code: string,
  message: string,
): InstanceType<E> & { code: string } {
  const error = new Class(message) as InstanceType<E> & { code: string };
  error.code = code;
  return error;
}

/** The `TypeError` every backend throws for a mode that is not `r`, `rw`, `rws` or `rwd`. @internal */
export function unknownMode(mode: unknown): TypeError {
  return nodeError(
    TypeError,
    "ERR_INVALID_ARG_VALUE",
    `Unknown mode '${String(mode)}'; valid modes are r, rw, rws, rwd`,
  );
}
