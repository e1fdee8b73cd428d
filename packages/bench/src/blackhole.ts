/**
 * Consumes benchmark results so V8 cannot prove them unused and delete the work that made them.
 *
 * Like JMH's `Blackhole`, it compares the value with two fields that are never both equal to it, instead of
 * storing it: a compare is cheaper than a store, never allocates (a stored double would be boxed), and V8
 * cannot fold it because it cannot know the fields' values.
 */
export class Blackhole {
  private readonly a: unknown;
  private readonly b: unknown;
  /** Written only when a value equals both `a` and `b`, which never happens; public so it stays observable. */
  sink: unknown;

  constructor() {
    const seed = Math.random();
    this.a = seed;
    this.b = seed + 1;
  }

  /** Keeps `value` alive as far as the optimiser can tell. Cheap enough to call once per operation. */
  consume(value: unknown): void {
    if (value === this.a && value === this.b) this.sink = value;
  }
}
