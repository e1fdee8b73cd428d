// A tiny test collector for code running inside Chromium: each case is a name and a pass/fail with its error.

/** One case's outcome, as the page reports it to the runner. */
export interface CaseResult {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
}

const show = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    typeof x === "bigint" ? `${x}n` : Number.isNaN(x) ? "NaN" : Object.is(x, -0) ? "-0" : x,
  );

/** Throws unless `actual` and `expected` print the same (bigints, NaN and -0 told apart). */
export function eq(actual: unknown, expected: unknown, what = "value"): void {
  if (show(actual) !== show(expected)) {
    throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

/** Throws unless `fn` throws (or rejects) with an error whose `code` is `code`. */
export async function throwsCode(fn: () => unknown, code: string): Promise<void> {
  try {
    await fn();
  } catch (error) {
    const got = (error as { code?: string }).code;
    if (got === code) return;
    throw new Error(`expected code ${code}, got ${got}: ${(error as Error).message}`);
  }
  throw new Error(`expected code ${code}, but nothing was thrown`);
}

/** Runs `cases` in order, collecting each outcome. */
export async function runCases(
  prefix: string,
  cases: Record<string, () => unknown>,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const [name, body] of Object.entries(cases)) {
    try {
      await body();
      results.push({ name: `${prefix}${name}`, ok: true });
    } catch (error) {
      const e = error as Error;
      results.push({ name: `${prefix}${name}`, ok: false, error: `${e.name}: ${e.message}` });
    }
  }
  return results;
}
