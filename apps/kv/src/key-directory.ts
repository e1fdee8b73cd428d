import { getRandomValues } from "node:crypto";
import { isAscii } from "./bytes";

/**
 * A slot is 32 bytes in two tables of 16: what a cache hit needs (the cache handle as a double, then the record's
 * size and file id as 32-bit integers over the same memory), and the rest (offset and timestamp). The hot table is
 * half the size, so more of it stays in the CPU caches.
 */
const INITIAL_SLOTS = 1024;

/** The hash table starts with this many entries, and is kept at most half full. */
const INITIAL_TABLE = 2048;

/**
 * The key directory: each live key → where its newest record lives (file id, offset, size), its timestamp, and its
 * value's read-cache handle.
 *
 * A hash table of its own, open addressing with linear probing: each entry is a key's 32-bit hash and its slot
 * number, side by side in one `Int32Array`; the slots' fields live in two more tables, 32 bytes per key, and the
 * ids in an array by slot. No object per key: a write allocates nothing that the garbage collector would have to
 * copy and promote, and an update rewrites its slot in place.
 *
 * Why not a `Map`: a `Map` chains its entries, and to tell a key from another with the same bucket it reads the
 * other key's string (its length and hash), one cache miss per key in the chain, which showed in the benchmark's
 * load (see BENCHMARKS.md, "Code choices"). Here a probe reads the hashes, packed in one cache line, and compares
 * one id, the one whose hash matches.
 *
 * A string key is hashed by its chars, and the same pass tells whether they are all ASCII: then the key's UTF-8
 * bytes are its chars, and it is its own id (see {@link KeyDirectory.findAscii}).
 *
 * A record is identified by its slot and timestamp together: timestamps only grow, so a slot rewritten by a later
 * write, or freed and reused, never shows the timestamp it had before.
 */
export class KeyDirectory {
  /** Per table entry: the id's hash, then its slot + 1 (0: empty). */
  #table: Int32Array;
  /** Table entries - 1 (a power of two, minus one). */
  #mask: number;
  readonly #initialTable: number;
  /** Ids by slot (undefined: free). */
  #ids: (string | undefined)[] = [];
  /** Per slot: cache handle, then size and file id as integers in `#hotInts`. */
  #hot = new Float64Array(2 * INITIAL_SLOTS);
  #hotInts = new Int32Array(this.#hot.buffer);
  /** Per slot: offset, timestamp. */
  #cold = new Float64Array(2 * INITIAL_SLOTS);
  /** Slots freed by deletes, for reuse. */
  #free: number[] = [];
  /** Slots ever handed out. */
  #used = 0;
  #count = 0;
  /** Live ids with a char above 0x7f. */
  #others = 0;

  /** `tableSize`: the hash table's first size in entries, a power of two (small ones are for tests). */
  constructor(tableSize = INITIAL_TABLE) {
    this.#initialTable = 2 ** Math.max(1, Math.ceil(Math.log2(tableSize)));
    this.#table = new Int32Array(2 * this.#initialTable);
    this.#mask = this.#initialTable - 1;
  }

  /** Live keys. */
  get count(): number {
    return this.#count;
  }

  /** The slot of the key whose id is `id`, or -1. */
  find(id: string): number {
    return this.#probe(id, hashId(id));
  }

  /**
   * The slot of a string key if it is made of ASCII chars and here (then it is its own id), else -1: a string key
   * not found here either has other chars, or is absent.
   */
  findAscii(key: string): number {
    // The hash of hashId(key), and whether every char is ASCII, in one pass.
    let h = HASH_SEED;
    let high = 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      high |= c;
      h = Math.imul(h ^ c, HASH_PRIME);
    }
    if (high > 0x7f) return -1;
    return this.#probe(key, finish(h));
  }

  /** True when some key has a byte above 0x7f: only then can a string key missing from {@link KeyDirectory.findAscii} be here. */
  get hasOther(): boolean {
    return this.#others > 0;
  }

  /** Key ids, in no particular order. */
  *ids(): IterableIterator<string> {
    for (const [id] of this.entries()) yield id;
  }

  /** `[id, slot]` pairs, in no particular order. Taken as a snapshot, so changes meanwhile do not disturb it. */
  *entries(): IterableIterator<[string, number]> {
    const ids = this.#ids;
    const snapshot: [string, number][] = [];
    for (let slot = 0; slot < this.#used; slot++) {
      const id = ids[slot];
      if (id !== undefined) snapshot.push([id, slot]);
    }
    yield* snapshot;
  }

  /** The slot of `id` (whose hash is `h`), or -1. */
  #probe(id: string, h: number): number {
    return this.#table[2 * this.#entry(id, h) + 1]! - 1;
  }

  /** The table entry holding `id` (whose hash is `h`), or the empty entry where its probe ends. */
  #entry(id: string, h: number): number {
    const table = this.#table;
    const mask = this.#mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = table[2 * i + 1]! - 1;
      if (slot < 0 || (table[2 * i] === h && this.#ids[slot] === id)) return i;
    }
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
    const h = hashId(id);
    const i = this.#entry(id, h);
    const table = this.#table;
    let slot = table[2 * i + 1]! - 1;
    if (slot >= 0) {
      this.#write(slot, file, offset, size, ts, cache);
      return slot;
    }
    // A new key, into the empty entry the probe ended at.
    slot = this.#allocate();
    this.#ids[slot] = id;
    table[2 * i] = h;
    table[2 * i + 1] = slot + 1;
    this.#count++;
    if (!ascii) this.#others++;
    if (2 * this.#count > this.#mask) this.#grow();
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
    const table = this.#table;
    const mask = this.#mask;
    let i = this.#entry(id, hashId(id));
    const slot = table[2 * i + 1]! - 1;
    if (slot < 0) return false;
    // Backward-shift deletion: entries after the hole that would no longer be found past it move into it.
    for (let j = (i + 1) & mask; table[2 * j + 1] !== 0; j = (j + 1) & mask) {
      const home = table[2 * j]! & mask;
      // Entry j may move to i unless its home lies in the cyclic range (i, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        table[2 * i] = table[2 * j]!;
        table[2 * i + 1] = table[2 * j + 1]!;
        i = j;
      }
    }
    table[2 * i] = 0;
    table[2 * i + 1] = 0;
    this.#ids[slot] = undefined;
    this.#count--;
    if (!isAscii(id)) this.#others--;
    // A freed slot keeps its timestamp, so that a stale (slot, timestamp) pair cannot match a later key there.
    this.#hot[slot * 2] = -1;
    this.#free.push(slot);
    return true;
  }

  clear(): void {
    this.#table = new Int32Array(2 * this.#initialTable);
    this.#mask = this.#initialTable - 1;
    this.#ids = [];
    this.#count = 0;
    this.#others = 0;
    this.#free = [];
    this.#used = 0;
    this.#hot = new Float64Array(2 * INITIAL_SLOTS);
    this.#hotInts = new Int32Array(this.#hot.buffer);
    this.#cold = new Float64Array(2 * INITIAL_SLOTS);
  }

  /** Doubles the hash table, re-placing every entry by its stored hash. */
  #grow(): void {
    const old = this.#table;
    const entries = 2 * (this.#mask + 1);
    const mask = entries - 1;
    const table = new Int32Array(2 * entries);
    for (let k = 0; k < old.length; k += 2) {
      if (old[k + 1] === 0) continue;
      const h = old[k]!;
      let i = h & mask;
      while (table[2 * i + 1] !== 0) i = (i + 1) & mask;
      table[2 * i] = h;
      table[2 * i + 1] = old[k + 1]!;
    }
    this.#table = table;
    this.#mask = mask;
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

/**
 * FNV-1a's offset basis, chosen at random per process (as V8 seeds its own string hashes), so that a set of keys
 * that collide cannot be prepared in advance to make every probe run long.
 */
const HASH_SEED = getRandomValues(new Int32Array(1))[0]!;
const HASH_PRIME = 0x01000193;

/**
 * The hash of an id: FNV-1a over its chars (bytes, for an id), then mixed so that the low bits used as an index
 * spread well. Exported for tests.
 */
export function hashId(id: string): number {
  let h = HASH_SEED;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), HASH_PRIME);
  return finish(h);
}

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}
