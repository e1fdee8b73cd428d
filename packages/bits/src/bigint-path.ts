/** `process.versions.v8`'s major version, or `Infinity` where there is no V8 (JavaScriptCore, a browser without `process`). */
function v8Major(): number {
  const v8 = (globalThis as { process?: { versions?: { v8?: unknown } } }).process?.versions?.v8;
  return typeof v8 === "string" ? Number.parseInt(v8, 10) : Number.POSITIVE_INFINITY;
}

/**
 * Whether the 64-bit bigint accessors go through two 32-bit words and the scratch word instead of `DataView`'s own
 * `getBigInt64`/`setBigInt64`. Only V8 before 13 (Node 20 and 22) calls those out of line, several times slower
 * than the words; V8 13+ (Node 24, 26, Deno) and JavaScriptCore (Bun) compile them inline (BENCHMARKS.md). Read
 * once, when the codecs are built. @internal
 */
export const BIGINT_VIA_WORDS: boolean = v8Major() < 13;
