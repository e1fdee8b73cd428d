/** Whether every byte of an array is below 0x80. */
export type AsciiCheck = (bytes: Uint8Array) => boolean;

/**
 * Whether every byte of `bytes` is ASCII, in JavaScript: the high bits of the 4-byte words of the
 * aligned middle OR'd together, the unaligned ends byte by byte. For runtimes without Node's check.
 * @internal
 */
export function isAsciiPortable(bytes: Uint8Array): boolean {
  const n = bytes.length;
  let i = 0;
  let bits = 0;
  const head = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < head; i++) bits |= bytes[i]!;
  const words = (n - i) >>> 2;
  if (words > 0) {
    const w = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) bits |= w[k]!;
    i += words * 4;
  }
  for (; i < n; i++) bits |= bytes[i]!;
  return (bits & 0x80808080) === 0;
}

/**
 * Node's SIMD `buffer.isAscii` where the runtime has it (Node 20.16 and later, and runtimes that
 * mirror `process.getBuiltinModule`), found at run time in `scope` (the global object): a static
 * `import "node:buffer"` would follow this package into every browser bundle.
 * @internal
 */
export function nodeIsAscii(scope: unknown): AsciiCheck | undefined {
  const proc = (scope as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof proc?.getBuiltinModule !== "function") return undefined;
  try {
    const check = (proc.getBuiltinModule("node:buffer") as { isAscii?: unknown } | undefined)
      ?.isAscii;
    return typeof check === "function" ? (check as AsciiCheck) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fastest ASCII check this runtime offers: Node's native one, else {@link isAsciiPortable}.
 * @internal
 */
export const isAscii: AsciiCheck = /* @__PURE__ */ nodeIsAscii(globalThis) ?? isAsciiPortable;
