import type { AbortSignalLike } from "./backend";
/** The longest pause between two attempts of a waiting `lockAsync` (it polls the non-blocking lock). @internal */
export const MAX_POLL_MS = 50;

/** Resolves after `ms`, or rejects with `signal.reason` as soon as it aborts. @internal */
export function sleep(ms: number, signal: AbortSignalLike | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
