import {
  type AnySuite,
  type BenchmarkDefinition,
  type BenchmarkFn,
  type Blackhole,
  loadSuiteModule,
  type ParamValues,
} from "@rafkit/bench";
import { suiteModules } from "../src/suites";
import type { TargetGroup } from "../src/targets";

/** Suites of a target group, by name, loaded from their modules as the harness loads them. */
export async function suitesOf<const N extends readonly string[]>(
  group: TargetGroup,
  names: N,
): Promise<{ [K in N[number]]: AnySuite }> {
  const loaded = (await Promise.all(suiteModules(group).map((m) => loadSuiteModule(m)))).flat();
  const out: Record<string, AnySuite> = {};
  for (const name of names) {
    const found = loaded.find((l) => l.suite.name === name);
    if (found === undefined) throw new Error(`no suite ${name} in the ${group} suites`);
    out[name] = found.suite;
  }
  return out as { [K in N[number]]: AnySuite };
}

/** A benchmark's long form (`{ run }` or `{ external }`). */
export function benchmarkEntry(
  suite: AnySuite,
  name: string,
): BenchmarkDefinition<unknown, ParamValues> {
  const entry = suite.benchmarks[name];
  if (entry === undefined) throw new Error(`suite ${suite.name} has no benchmark ${name}`);
  return typeof entry === "function" ? { run: entry } : entry;
}

/** A benchmark's body, to call once outside the harness. */
export function benchmarkFn(suite: AnySuite, name: string): BenchmarkFn<unknown, ParamValues> {
  const { run } = benchmarkEntry(suite, name);
  if (run === undefined) throw new Error(`${suite.name}.${name} is external`);
  return run;
}

/** A blackhole that records what it gets, to check that competing benchmarks compute the same thing. */
export function recorder(): Blackhole & { values: unknown[] } {
  const values: unknown[] = [];
  return { values, consume: (v: unknown) => void values.push(v) } as never;
}
