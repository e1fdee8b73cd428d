/**
 * The read cache: recently written or read values, copied one after another into a ring buffer (first in, first
 * out). A value is identified by its handle, a position in a virtual address space that only grows, in periods of a
 * power of two at least the ring's size (the ring position is the handle's low bits: a mask, not a division). A
 * handle is valid while nothing newer has been written over it: one comparison with the lowest valid handle. So a
 * hit costs no bookkeeping, and the cached bytes live in one block of memory rather than one object per value, which
 * keeps more of the hot values in the CPU caches and gives the garbage collector nothing to trace.
 *
 * The price of first in, first out: a value replaced by a write keeps its bytes until the ring comes round (it is
 * not found any more, since the key directory forgets its handle), and a value still in use is dropped when the ring
 * comes round to it, and read from disk (and cached again) on its next get. Moving values that are read near the end
 * of the ring back to its head (an approximation of least-recently-used) was tried, and its copying cost more than
 * it saved (see BENCHMARKS.md, "Code choices").
 *
 * The ring is private: {@link ValueCache.copyOut} hands out copies only, so nothing a caller does to a returned value
 * can change what the cache holds.
 */
export class ValueCache {
  readonly #ring: Uint8Array;
  readonly #size: number;
  /** The period of the virtual address space: a power of two, at least `#size`. */
  readonly #period: number;
  /** Larger values are not cached, so that one of them cannot flush the whole ring. */
  readonly #largest: number;
  /** Where the next value goes (virtual). */
  #head = 0;
  /** Handles below this one may have been written over. */
  #low = 0;

  /** A cache of `size` bytes (0: off; at most 1 GiB). */
  constructor(size: number) {
    this.#size = Math.min(MAX_SIZE, Math.max(0, Math.floor(size)));
    this.#period = 2 ** Math.ceil(Math.log2(Math.max(this.#size, 8)));
    this.#ring = new Uint8Array(this.#size);
    this.#largest = Math.floor(this.#size / 8);
  }

  /**
   * Copies `bytes[start, end)` into the ring and returns its handle, or -1 when the value is not cached (too large,
   * or the cache is off).
   */
  add(bytes: Uint8Array, start: number, end: number): number {
    const n = end - start;
    if (n > this.#largest || this.#size === 0) return -1;
    const handle = this.#place(n);
    this.#ring.set(
      start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end),
      handle & (this.#period - 1),
    );
    return handle;
  }

  /** Reserves `n` bytes at the head and returns their handle. */
  #place(n: number): number {
    let handle = this.#head;
    const at = handle & (this.#period - 1);
    // Values never wrap: the rest of the period is skipped.
    if (at + n > this.#size) handle += this.#period - at;
    // 8-byte aligned, for the copies.
    this.#head = handle + ((n + 7) & ~7);
    // Whatever starts a period or more before the head may be under the bytes just written.
    const low = this.#head - this.#period;
    if (low > this.#low) this.#low = low;
    return handle;
  }

  /** True when the value of `handle` is still in the ring (false for -1). */
  has(handle: number): boolean {
    return handle >= this.#low;
  }

  /** A fresh copy of the `length` bytes cached under `handle` (which {@link ValueCache.has}). */
  copyOut(handle: number, length: number): Uint8Array {
    // `&` takes the low 32 bits of the handle exactly (handles stay below 2^53), and the period is at most 2^30.
    const at = handle & (this.#period - 1);
    return copyOut(this.#ring, at, at + length);
  }
}

/** The largest cache: its period must fit in the 31 bits a mask keeps. */
const MAX_SIZE = 2 ** 30;

/** Returned values are carved out of blocks of this size, as Node's `Buffer.allocUnsafe` does with its pool. */
const POOL = 64 * 1024;
let pool = newPool();
let poolBytes = new Uint8Array(pool);
let poolUsed = 0;

/**
 * A copy of `bytes[start, end)` in a new `Uint8Array`. Small copies share a 64 KiB `ArrayBuffer` with other copies
 * handed out before (like `Buffer.allocUnsafe`'s pool), which is cheaper than a typed array with its own small
 * buffer (see BENCHMARKS.md, "Code choices"). The pool holds only copies already given away; nothing is ever read
 * back from it.
 */
export function copyOut(bytes: Uint8Array, start: number, end: number): Uint8Array {
  const n = end - start;
  const source = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  if (n > POOL >>> 3) {
    const out = new Uint8Array(n);
    out.set(source);
    return out;
  }
  if (poolUsed + n > POOL) {
    pool = newPool();
    poolBytes = new Uint8Array(pool);
    poolUsed = 0;
  }
  const at = poolUsed;
  poolBytes.set(source, at);
  const copy = new Uint8Array(pool, at, n);
  // Only once the copy exists: a bad length left the shared pool's mark broken for every later read.
  poolUsed = (at + n + 7) & ~7;
  return copy;
}

/**
 * Uninitialised memory, like `Buffer.allocUnsafe`'s pool (zeroing 64 KiB costs more than the copies carved out of
 * it): the bytes not yet handed out are old process memory, as in that pool, never memory the cache is using.
 */
function newPool(): ArrayBuffer {
  return Buffer.allocUnsafeSlow(POOL).buffer as ArrayBuffer;
}
