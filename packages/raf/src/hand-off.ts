// How a file's constructor gives its parts (its window, its driver) to the fields of the instance that
// `super()` makes, the base class's included: set just before `super()`, read by field initializers,
// ended right after. V8 learns a field's type from its first value: a field declared bare starts
// `undefined`, and every read of it then pays a check of the value's map (BENCHMARKS.md, "Fields that
// start with their lasting value").

let parts: unknown;

/** @internal Hands `p` to the field initializers of the instance the next `super()` constructs. */
export function handOff<T>(p: T): void {
  parts = p;
}

/** @internal What {@link handOff} gave, for a field initializer. */
export function handed<T>(): T {
  return parts as T;
}

/** @internal Ends a hand-off, right after `super()`: nothing keeps the parts alive. */
export function endHandOff(): void {
  parts = undefined;
}
