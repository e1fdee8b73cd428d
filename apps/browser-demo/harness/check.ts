// A tiny test collector for code running inside Chromium: each case is a name and a pass/fail with its error.
import { webLockName } from "@rafkit/raf";

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

/** A case still running after this long has hung (say, a lock never granted): it fails, and the run goes on. */
const CASE_DEADLINE = 60_000;

function within(work: unknown, ms: number, message: string): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Runs `cases` in order, collecting each outcome (one that hangs fails after {@link CASE_DEADLINE}). */
export async function runCases(
  prefix: string,
  cases: Record<string, () => unknown>,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const [name, body] of Object.entries(cases)) {
    try {
      await within(body(), CASE_DEADLINE, `${name}: not done after ${CASE_DEADLINE / 1000} s`);
      results.push({ name: `${prefix}${name}`, ok: true });
    } catch (error) {
      const e = error as Error;
      results.push({ name: `${prefix}${name}`, ok: false, error: `${e.name}: ${e.message}` });
    }
  }
  return results;
}

/**
 * Resolves once the origin's lock manager lists a request for `path`'s lock as pending: the proof that a
 * `lock()` is waiting (rather than a sleep). `navigator.locks.query()` sees every worker and page.
 */
export async function pendingOn(path: string): Promise<void> {
  const name = webLockName(path);
  for (let k = 0; k < 500; k++) {
    const { pending = [] } = await navigator.locks.query();
    if (pending.some((l) => l.name === name)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no lock request for ${name} ever waited`);
}
