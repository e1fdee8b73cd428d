import { isAscii } from "./bytes";

/**
 * A slot is 32 bytes in two tables of 16: what a cache hit needs (the cache handle as a double, then the record's
 * size and file id as 32-bit integers over the same memory), and the rest (offset and timestamp). The hot table is
 * half the size, so more of it stays in the CPU caches.
 */
const INITIAL_SLOTS = 1024;

/**
 * The key directory: each live key → where its newest record lives (file id, offset, size), its timestamp, and its
 * value's read-cache handle.
 *
 * A `Map` from the key's id to a slot number (a small integer, stored in the map itself), and the slots' fields in
 * two tables, 32 bytes per key: no object per key. So a write allocates nothing that the garbage collector
 * would have to copy and promote, an update rewrites its slot in place (one map lookup, no insertion), and a cache hit
 * touches the map and 16 bytes of one slot.
 *
 * Ids made of ASCII chars only (the key bytes are all below 0x80) are kept in a map of their own, apart from the
 * others: a string key found there is ASCII itself, so its UTF-8 bytes are its chars, and it is its own id. So
 * {@link KeyDirectory.findAscii} answers a string key with one lookup, without checking or encoding its chars,
 * as long as no key has a byte above 0x7f.
 *
 * A record is identified by its slot and timestamp together: timestamps only grow, so a slot rewritten by a later
 * write, or freed and reused, never shows the timestamp it had before.
 */
export class KeyDirectory {
  /** Ids whose chars are all ASCII. */
  readonly #ascii = new Map<string, number>();
  /** The other ids (a key with a byte above 0x7f). */
  readonly #other = new Map<string, number>();
  /** Per slot: cache handle, then size and file id as integers in `#hotInts`. */
  #hot = new Float64Array(2 * INITIAL_SLOTS);
  #hotInts = new Int32Array(this.#hot.buffer);
  /** Per slot: offset, timestamp. */
  #cold = new Float64Array(2 * INITIAL_SLOTS);
  /** Slots freed by deletes, for reuse. */
  #free: number[] = [];
  /** Slots ever handed out. */
  #used = 0;

  /** Live keys. */
  get count(): number {
    return this.#ascii.size + this.#other.size;
  }

  /** The slot of the key whose id is `id`, or -1. */
  find(id: string): number {
    return this.#ascii.get(id) ?? (this.#other.size === 0 ? -1 : (this.#other.get(id) ?? -1));
  }

  /**
   * The slot of a string key if it is made of ASCII chars and here (then it is its own id), else -1: a string key
   * not found here either has other chars, or is absent.
   */
  findAscii(key: string): number {
    return this.#ascii.get(key) ?? -1;
  }

  /** True when some key has a byte above 0x7f: only then can a string key missing from {@link KeyDirectory.findAscii} be here. */
  get hasOther(): boolean {
    return this.#other.size > 0;
  }

  /** Key ids, ASCII ones first, each group in insertion order. */
  *ids(): IterableIterator<string> {
    yield* this.#ascii.keys();
    yield* this.#other.keys();
  }

  /** `[id, slot]` pairs, ASCII ids first. */
  *entries(): IterableIterator<[string, number]> {
    yield* this.#ascii.entries();
    yield* this.#other.entries();
  }

  file(slot: number): number {
    return this.#hotInts[slot * 4 + 3]!;
  }

  /** The record's size in bytes (header, key and value). */
  recordSize(slot: number): number {
    return this.#hotInts[slot * 4 + 2]!;
  }

  offset(slot: number): number {
    return this.#cold[slot * 2]!;
  }

  timestamp(slot: number): number {
    return this.#cold[slot * 2 + 1]!;
  }

  /** The value's read-cache handle (-1: none). */
  cache(slot: number): number {
    return this.#hot[slot * 2]!;
  }

  setCache(slot: number, handle: number): void {
    this.#hot[slot * 2] = handle;
  }

  /**
   * Points key `id` at a record (a new slot for a new key, its slot rewritten otherwise); returns the slot. `ascii`:
   * whether `id` is all ASCII, when the caller knows already (a writer checked its key).
   */
  set(
    id: string,
    file: number,
    offset: number,
    size: number,
    ts: number,
    cache: number,
    ascii = isAscii(id),
  ): number {
    const map = ascii ? this.#ascii : this.#other;
    let slot = map.get(id);
    if (slot === undefined) {
      slot = this.#allocate();
      map.set(id, slot);
    }
    this.#write(slot, file, offset, size, ts, cache);
    return slot;
  }

  /** Moves a record (compaction): same size, timestamp and cached value, new place. */
  move(slot: number, file: number, offset: number): void {
    this.#hotInts[slot * 4 + 3] = file;
    this.#cold[slot * 2] = offset;
  }

  /** Removes key `id`; returns whether it was there. */
  delete(id: string): boolean {
    const map = isAscii(id) ? this.#ascii : this.#other;
    const slot = map.get(id);
    if (slot === undefined) return false;
    map.delete(id);
    // A freed slot keeps its timestamp, so that a stale (slot, timestamp) pair cannot match a later key there.
    this.#hot[slot * 2] = -1;
    this.#free.push(slot);
    return true;
  }

  clear(): void {
    this.#ascii.clear();
    this.#other.clear();
    this.#free = [];
    this.#used = 0;
    this.#hot = new Float64Array(2 * INITIAL_SLOTS);
    this.#hotInts = new Int32Array(this.#hot.buffer);
    this.#cold = new Float64Array(2 * INITIAL_SLOTS);
  }

  #allocate(): number {
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    const slot = this.#used++;
    if ((slot + 1) * 2 > this.#hot.length) {
      const hot = new Float64Array(this.#hot.length * 2);
      hot.set(this.#hot);
      this.#hot = hot;
      this.#hotInts = new Int32Array(hot.buffer);
      const cold = new Float64Array(this.#cold.length * 2);
      cold.set(this.#cold);
      this.#cold = cold;
    }
    return slot;
  }

  #write(
    slot: number,
    file: number,
    offset: number,
    size: number,
    ts: number,
    cache: number,
  ): void {
    this.#hot[slot * 2] = cache;
    this.#hotInts[slot * 4 + 2] = size;
    this.#hotInts[slot * 4 + 3] = file;
    this.#cold[slot * 2] = offset;
    this.#cold[slot * 2 + 1] = ts;
  }
}
