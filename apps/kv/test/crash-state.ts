/** The crash test's model of the store: each key's acknowledged version, or null once its delete was acknowledged. */
export type AckedState = ReadonlyMap<string, number | null>;

/**
 * Keys the store lists that the model says it must not hold: deleted ones (null) and ones never written at all
 * (absent from the model), so that a key appearing from nowhere fails as much as one coming back from the dead.
 */
export function unexpectedKeys(state: AckedState, listed: Iterable<string>): string[] {
  const unexpected: string[] = [];
  for (const key of listed) if (typeof state.get(key) !== "number") unexpected.push(key);
  return unexpected;
}
