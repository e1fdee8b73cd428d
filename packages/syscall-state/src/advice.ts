import type { Advice } from "./backend";

/** Every {@link Advice} name: anything else is `-EINVAL` on every backend, even one that ignores advice. @internal */
export const ADVICE: ReadonlySet<string> = new Set<Advice>([
  "normal",
  "sequential",
  "random",
  "willneed",
  "dontneed",
  "noreuse",
]);
