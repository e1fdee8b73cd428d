import type { DataInputApi } from "./data-input";
import type { DataOutputApi } from "./data-output";
import type { FileApi } from "./file";
import type { PositionalApi } from "./positional";
import type { Flavor } from "./result";

export type { DataInputApi } from "./data-input";
export type { DataOutputApi } from "./data-output";
export type { FileApi } from "./file";
export type { Position, PositionalApi } from "./positional";
export type { Flavor, LockOf, Result } from "./result";

/**
 * The whole API of `RandomAccessFile` (`R = "sync"`) and `AsyncRandomAccessFile` (`R = "async"`), declared
 * once with its docs: both classes implement it, so the compiler keeps them in step. Each method's result
 * is {@link Result}: the value (sync) or a Promise of it (async); a failure throws (sync) or rejects (async)
 * with the same error. Async operations on one instance take effect in call order, awaited or not.
 */
export interface RandomAccessFileApi<R extends Flavor>
  extends DataInputApi<R>,
    DataOutputApi<R>,
    PositionalApi<R>,
    FileApi<R> {}
