// The harness's own cost: an empty benchmark, like JMH's `baseline`. Its score is the per-invocation
// overhead every other score includes.
import { defineSuite } from "../suite";

/** An empty benchmark and one returning a constant, to show the harness overhead per invocation. */
export const Harness = defineSuite({
  name: "Harness",
  description: "harness overhead per invocation",
  options: { unit: "ns" },
  benchmarks: {
    empty() {},
    constant: () => 42,
  },
});
