/** What a write resolves to: `undefined` for a put, whether the key existed for a delete. */
export type AckValue = boolean | undefined;

interface Segment {
  readonly value: AckValue;
  readonly promise: Promise<AckValue>;
  readonly resolve: (value: AckValue) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The promises of writes acknowledged together (one group commit, or one event-loop turn), in the order the writes
 * were issued. Consecutive writes that resolve to the same value share one promise (a put's is one allocation per
 * group, not per put); a write with another value starts a new one. Settling resolves them in order, so that their
 * callbacks run in issue order too: a delete's promise derived with `then` would run one microtask after those of a
 * put issued after it.
 */
export class Acks {
  readonly #segments: Segment[] = [];

  /** The promise of a write issued now, resolving to `value`. */
  add<T extends AckValue>(value: T): Promise<T> {
    const last = this.#segments.at(-1);
    if (last !== undefined && last.value === value) return last.promise as Promise<T>;
    let resolve!: (value: AckValue) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<AckValue>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#segments.push({ value, promise, resolve, reject });
    return promise as Promise<T>;
  }

  /** Resolves every write's promise, in issue order. */
  resolve(): void {
    for (const s of this.#segments) s.resolve(s.value);
  }

  /** Rejects every write's promise with `error`. */
  reject(error: unknown): void {
    for (const s of this.#segments) s.reject(error);
  }
}
