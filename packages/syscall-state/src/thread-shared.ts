import fs from "node:fs";

/**
 * The object under `key` that every copy of this package loaded in the thread shares, made by `make` for the
 * first: the ESM and the CJS build, and copies in other realms of the thread (a vm context, as vitest's vm pools
 * load a package per test file). It hangs off Node's `fs` module object, which every realm of a thread (and only of
 * that thread) gets; `Symbol.for` keys are the same in every realm. Where `fs` cannot take it, `globalThis` does.
 */
export function threadShared<T extends object>(key: symbol, make: () => T): T {
  const scope = fs as unknown as Record<symbol, T | undefined>;
  const found = scope[key];
  if (found !== undefined) return found;
  const made = make();
  try {
    // Not enumerable: code that copies or walks `fs` (mocks, wrappers) should not meet it.
    Object.defineProperty(scope, key, { value: made });
    return made;
  } catch {
    const global = globalThis as unknown as Record<symbol, T | undefined>;
    return (global[key] ??= made);
  }
}
