/**
 * Consumes benchmark results so V8 cannot prove them unused and delete the work that made them.
 *
 * Like JMH's `Blackhole`, a number is compared with two fields that are never both equal to it, instead of
 * being stored: a compare is cheaper than a store, never allocates (a stored double would be boxed), and V8
 * cannot fold it because it cannot know the fields' values. Any other value but `undefined` is stored now
 * and then, as JMH's `consume(Object)` does: compared with a number field it would be folded to `false` by
 * type, and an object that is only compared never escapes, so V8's escape analysis would drop its allocation.
 */
export class Blackhole {
  private readonly a: number;
  private readonly b: number;
  /** State of the generator that decides when to store (a 32-bit linear congruential generator). */
  private tlr: number;
  /** The store happens when `tlr & mask` is 0; each store widens the mask, halving how often it comes. */
  private mask = 1;
  /** Written with numbers that equal both `a` and `b` (never), and with other values now and then. */
  sink: unknown;

  constructor() {
    const seed = Math.random();
    this.a = seed;
    this.b = seed + 1;
    this.tlr = (seed * 2 ** 31) | 0;
  }

  /** Keeps `value` alive as far as the optimiser can tell. Cheap enough to call once per operation. */
  consume(value: unknown): void {
    // Kept tiny: the measurement loop inlines it 16 times, within V8's inlining budget. `undefined` is a
    // body that returns nothing: nothing to keep.
    if (typeof value === "number") {
      if (value === this.a && value === this.b) this.sink = value;
    } else if (value !== undefined) this.keep(value);
  }

  /** Stores `value` now and then: often enough early on to be compiled in, so the value must exist. */
  private keep(value: unknown): void {
    const tlr = (this.tlr = (Math.imul(this.tlr, 1664525) + 1013904223) | 0);
    if ((tlr & this.mask) === 0) {
      this.sink = value;
      this.mask = (this.mask << 1) | 1;
    }
  }
}
