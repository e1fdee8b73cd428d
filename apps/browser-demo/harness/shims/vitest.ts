// `vitest`'s expect for raf's interop log code in the browser: the one matcher it uses.
import { eq } from "../check";

export function expect(actual: unknown) {
  return { toBe: (expected: unknown) => eq(actual, expected) };
}
