// A suite for the bench case of suites/bench.mjs: the harness imports it again in each fork.
import { defineSuite } from "@rafkit/bench";

export const Runtime = defineSuite({ name: "Runtime", benchmarks: { one: () => 1 } });
