import type { Backend } from "./backend";
import { ComposedBackend } from "./compose-backend";
import { nodePrimitives } from "./node-primitives";

let instance: Backend | undefined;

/**
 * The `node:fs` backend: no native code, always available, the same `-errno` results (Node's thrown
 * errors are converted, never rethrown). Locks and `allocate` return `-ENOTSUP`; `fadvise` returns 0.
 * Async twins use fs callbacks (libuv's pool). Returns the same instance every time.
 */
export function nodeBackend(): Backend {
  instance ??= new ComposedBackend(nodePrimitives(), {
    locks: false,
    allocate: false,
    fadvise: false,
  });
  return instance;
}
