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

/** The key of record `i`, YCSB style. */
export function benchKey(i: number): string {
  return `user${String(i).padStart(10, "0")}`;
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
