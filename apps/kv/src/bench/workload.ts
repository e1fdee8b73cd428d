/**
 * YCSB-like workloads: keys `user0000000042` chosen with YCSB's scrambled Zipfian distribution (theta 0.99),
 * 100-byte values, and the core mixes A (50% reads / 50% updates), B (95/5) and C (100% reads).
 */
export interface Workload {
  /** `A`, `B` or `C`. */
  readonly name: string;
  /** Fraction of operations that are reads. */
  readonly readFraction: number;
  readonly description: string;
}

/** YCSB's core workloads A, B and C. */
export const WORKLOADS: readonly Workload[] = [
  { name: "A", readFraction: 0.5, description: "50% reads, 50% updates" },
  { name: "B", readFraction: 0.95, description: "95% reads, 5% updates" },
  { name: "C", readFraction: 1, description: "100% reads" },
];

/**
 * The order the load phase inserts its keys in, as YCSB's `insertorder`. `hashed`, YCSB's default, names record
 * `i` after a hash of `i`, so keys arrive in no key order, as most applications' keys do; `ordered` names it after
 * `i`, so every insert lands after the one before it in key order: a B-tree's best case (BENCHMARKS.md).
 */
export type InsertOrder = "hashed" | "ordered";

/** Names of the insert orders {@link benchKey} knows. */
export const INSERT_ORDERS: readonly InsertOrder[] = ["hashed", "ordered"];

/** The load's order when none is given: YCSB's default. */
export const DEFAULT_INSERT_ORDER: InsertOrder = "hashed";

/** Records a load can name with distinct keys: `hashed` maps the 32-bit record numbers one to one. */
export const MAX_RECORDS = 2 ** 32;

/**
 * The key of record `i` (`0 <= i < 2**32`), YCSB style: `user` and 10 digits, of `i` itself (`ordered`) or of its
 * hash (`hashed`). YCSB hashes with FNV-64 into up to 19 digits; a 32-bit mix keeps every key 14 bytes and the
 * keys of distinct records distinct.
 */
export function benchKey(i: number, order: InsertOrder = "ordered"): string {
  return `user${String(order === "hashed" ? mix32(i) : i).padStart(10, "0")}`;
}

/** MurmurHash3's finaliser: a one-to-one map of the 32-bit integers that scatters neighbours. */
function mix32(i: number): number {
  let h = i >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small fast PRNG (mulberry32), seeded, so runs are repeatable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value of `size` random bytes. */
export function randomValue(random: () => number, size: number): Uint8Array {
  const v = new Uint8Array(size);
  for (let i = 0; i < size; i++) v[i] = (random() * 256) | 0;
  return v;
}

/**
 * Draws record numbers in `[0, n)` from a Zipfian distribution (Gray et al., as YCSB's ZipfianGenerator), then
 * scrambles them with a hash (YCSB's ScrambledZipfianGenerator) so that hot keys are spread over the key space.
 */
export function scrambledZipfian(n: number, random: () => number, theta = 0.99): () => number {
  let zetan = 0;
  for (let i = 1; i <= n; i++) zetan += 1 / i ** theta;
  const zeta2 = 1 + 1 / 2 ** theta;
  const alpha = 1 / (1 - theta);
  const eta = (1 - (2 / n) ** (1 - theta)) / (1 - zeta2 / zetan);
  return () => {
    const u = random();
    const uz = u * zetan;
    let rank: number;
    if (uz < 1) rank = 0;
    else if (uz < zeta2) rank = 1;
    else rank = Math.floor(n * (eta * u - eta + 1) ** alpha);
    return fnv1a(Math.min(rank, n - 1)) % n;
  };
}

function fnv1a(x: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < 4; i++) {
    h ^= (x >>> (i * 8)) & 0xff;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
