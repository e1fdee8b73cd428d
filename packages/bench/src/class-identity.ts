// @rafkit/bits' shareClassIdentity, kept here so that the harness depends on none of rafkit's packages; one key.

/** Where a class's prototype keeps the identity every copy of it shares; `Symbol.for` keys are the realm's. */
const CLASS_ID = Symbol.for("@rafkit/class-id");

/** `value instanceof this`, or an instance of another copy of the same class (or of a subclass of it). */
function isInstance(this: { prototype: object }, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
  if (typeof value !== "object" || value === null) return false;
  const id = Object.getOwnPropertyDescriptor(this.prototype, CLASS_ID)?.value;
  if (id === undefined) return false;
  for (let p = Object.getPrototypeOf(value); p !== null; p = Object.getPrototypeOf(p)) {
    if (Object.getOwnPropertyDescriptor(p, CLASS_ID)?.value === id) return true;
  }
  return false;
}

/** Makes `instanceof cls` true of instances of every copy of `cls` in the realm under `id` (its ESM and CJS builds). */
export function shareClassIdentity(
  cls: abstract new (...args: never[]) => object,
  id: string,
): void {
  Object.defineProperty(cls.prototype, CLASS_ID, { value: id });
  Object.defineProperty(cls, Symbol.hasInstance, { value: isInstance });
}
