import { shareClassIdentity } from "./class-identity";

/** Stable error codes of the harness. */
export type BenchErrorCode =
  | "ERR_BENCH_BAD_OPTION"
  | "ERR_BENCH_BAD_PARAM"
  | "ERR_BENCH_BAD_SUITE"
  | "ERR_BENCH_NO_MATCH"
  | "ERR_BENCH_AMBIGUOUS"
  | "ERR_BENCH_FAILED"
  | "ERR_BENCH_FORK"
  | "ERR_BENCH_TIMEOUT"
  | "ERR_BENCH_BAD_JSON"
  | "ERR_BENCH_OUTPUT";

/**
 * An error raised by the harness, with a stable `code` for programs and a message for people. `instanceof` holds
 * across copies of the package (its ESM and CJS builds).
 */
export class BenchError extends Error {
  static {
    // An app that imports the harness while a tool requires it has two copies: `instanceof` holds across them.
    shareClassIdentity(this, "@rafkit/bench.BenchError");
  }
  /** The stable error code. */
  readonly code: BenchErrorCode;

  constructor(code: BenchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BenchError";
    this.code = code;
  }
}
