// The windows' memory, reused from one file to the next: a fresh window's ArrayBuffer costs an allocation,
// its zeroing and later a collection of external memory, on every open (BENCHMARKS.md, "Window memory").

/** The most bytes kept for reuse; each thread (worker) has its own pool. */
export const MAX_POOLED_BYTES = 256 * 1024;

/** Free buffers by byte length, last given first taken (the most likely to be in cache). */
const free = new Map<number, ArrayBuffer[]>();
let pooledBytes = 0;

/** A zeroed `ArrayBuffer` of `byteLength` bytes: one a closed window gave back, or a new one. */
export function takeBuffer(byteLength: number): ArrayBuffer {
  const reused = free.get(byteLength)?.pop();
  if (reused === undefined) return new ArrayBuffer(byteLength);
  pooledBytes -= byteLength;
  return reused;
}

/**
 * Keeps `buffer` for the next {@link takeBuffer} of its size, zeroed, while the pool holds less than
 * {@link MAX_POOLED_BYTES}. The caller must never touch it again. A detached buffer (length 0) is dropped.
 */
export function giveBuffer(buffer: ArrayBuffer): void {
  const n = buffer.byteLength;
  if (n === 0 || pooledBytes + n > MAX_POOLED_BYTES) return;
  new Uint8Array(buffer).fill(0);
  let list = free.get(n);
  if (list === undefined) free.set(n, (list = []));
  list.push(buffer);
  pooledBytes += n;
}

/** Bytes the pool holds now (for tests). @internal */
export function pooledByteCount(): number {
  return pooledBytes;
}
