/** What a write resolves to: `undefined` for a put, whether the key existed for a delete. */
export type AckValue = boolean | undefined;

interface Segment {
  readonly value: AckValue;
  /** A write that wrote nothing (a delete of a missing key): a failure of the others does not reject it. */
  readonly noop: boolean;
  /** For a no-op: whether the write it depends on (a delete in an earlier group) failed; it then rejects too. */
  readonly dependencyFailed: (() => boolean) | null;
  /** A write that failed already: it rejects with its own error in its place in the order. */
  readonly failed: boolean;
  readonly error: unknown;
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
    return this.#add(value, false);
  }

  /**
   * The promise of a write that wrote nothing and depends on no write of these (a delete of a key that was not
   * there): it resolves to `value` in its place in the order, even when {@link Acks.reject} rejects the others.
   * With `dependencyFailed`, it depends on a write acknowledged elsewhere (an earlier group's delete, which made the
   * key missing): it rejects with the others only when that write failed.
   */
  addNoop<T extends AckValue>(
    value: T,
    dependencyFailed: (() => boolean) | null = null,
  ): Promise<T> {
    return this.#add(value, true, false, undefined, dependencyFailed);
  }

  /**
   * The promise of a write that failed already (its append or fsync): it rejects with `error` in its place in the
   * order, after the writes before it.
   */
  addError(error: unknown): Promise<never> {
    return this.#add(undefined, false, true, error) as Promise<never>;
  }

  #add<T extends AckValue>(
    value: T,
    noop: boolean,
    failed = false,
    error: unknown = undefined,
    dependencyFailed: (() => boolean) | null = null,
  ): Promise<T> {
    const last = this.#segments.at(-1);
    if (
      !failed &&
      dependencyFailed === null &&
      last !== undefined &&
      !last.failed &&
      last.dependencyFailed === null &&
      last.value === value &&
      last.noop === noop
    ) {
      return last.promise as Promise<T>;
    }
    let resolve!: (value: AckValue) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<AckValue>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#segments.push({ value, noop, failed, error, dependencyFailed, promise, resolve, reject });
    return promise as Promise<T>;
  }

  /** Resolves every write's promise, in issue order. */
  resolve(): void {
    for (const s of this.#segments) {
      if (s.failed) s.reject(s.error);
      else s.resolve(s.value);
    }
  }

  /** Rejects every write's promise with `error`, in issue order; those that wrote nothing resolve in their place. */
  reject(error: unknown): void {
    for (const s of this.#segments) {
      if (s.noop && !s.dependencyFailed?.()) s.resolve(s.value);
      else s.reject(s.failed ? s.error : error);
    }
  }
}
