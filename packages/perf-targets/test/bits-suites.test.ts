import { type AnySuite, paramCombinations, runBenchmarks } from "@rafkit/bench";
import { describe, expect, it } from "vitest";
import { benchmarkFn, recorder, suitesOf } from "./helpers";

const { BitsGet, BitsSet, BitsBulkDecode, BitsModifiedUtf8, BitsSwitch } = await suitesOf("bits", [
  "BitsGet",
  "BitsSet",
  "BitsBulkDecode",
  "BitsModifiedUtf8",
  "BitsSwitch",
]);

async function outputs(suite: AnySuite, params: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(suite.benchmarks)) {
    const state = (await suite.state?.(params as never)) as {
      bytes: Uint8Array | Uint8Array[];
      ints?: Int32Array;
    };
    if (suite === BitsSet) (state.bytes as Uint8Array).fill(0);
    const bh = recorder();
    const returned = benchmarkFn(suite, name)(bh, state, params as never);
    out[name] = {
      consumed: bh.values,
      returned,
      bytes: state.bytes instanceof Uint8Array ? [...state.bytes] : state.bytes.map((b) => [...b]),
      ints: state.ints ? [...state.ints] : undefined,
    };
  }
  return out;
}

describe("the @rafkit/bits suites compare like with like", () => {
  it.each(paramCombinations(BitsGet.params))(
    "BitsGet reads the same values with every implementation (%j)",
    async (params) => {
      const o = await outputs(BitsGet, params);
      expect((o.bigEndian as { consumed: unknown[] }).consumed).toHaveLength(128);
      expect(o.dataView).toEqual(o.bigEndian);
      expect(o.buffer).toEqual(o.bigEndian);
      expect(o.bigEndianView).toEqual(o.bigEndian);
      expect(o.bigEndianImport).toEqual(o.bigEndian);
    },
  );

  it.each(paramCombinations(BitsSet.params))(
    "BitsSet writes the same bytes with every implementation (%j)",
    async (params) => {
      const o = await outputs(BitsSet, params);
      const written = (o.bigEndian as { bytes: number[] }).bytes;
      expect(written.some((b) => b !== 0)).toBe(true);
      expect(o.dataView).toEqual(o.bigEndian);
      expect(o.buffer).toEqual(o.bigEndian);
      expect(o.bigEndianView).toEqual(o.bigEndian);
      expect(o.bigEndianImport).toEqual(o.bigEndian);
    },
  );

  it("BitsBulkDecode decodes the same Int32 values with every implementation", async () => {
    const o = await outputs(BitsBulkDecode, {});
    expect(o.dataViewLoop).toEqual(o.decodeArray);
    expect(o.bufferLoop).toEqual(o.decodeArray);
  });

  it.each(paramCombinations(BitsModifiedUtf8.params))(
    "BitsModifiedUtf8 decodes the same string (%j)",
    async (params) => {
      const o = await outputs(BitsModifiedUtf8, params);
      const s = (o.modifiedUtf8 as { returned: string }).returned;
      expect(s).toHaveLength(params.length as number);
      expect((o.textDecoder as { returned: string }).returned).toBe(s);
      expect((o.bufferLatin1 as { returned: string }).returned).toBe(s);
    },
  );

  it.each(paramCombinations(BitsSwitch.params))(
    "BitsSwitch reads the same values from the same arrays (%j)",
    async (params) => {
      const o = await outputs(BitsSwitch, params);
      const read = (o.bigEndian as { consumed: unknown[] }).consumed;
      expect(read).toHaveLength(128);
      expect(new Set(read).size).toBeGreaterThan(params.arrays as number); // not one value over and over
      expect(o.dataView).toEqual(o.bigEndian);
    },
  );

  it("the import-cost example writes the same bytes whichever way it reaches its receiver", async () => {
    const example = new URL("../../bits/bench/import-cost.bench.mjs", import.meta.url).href;
    const { ImportCost } = (await import(example)) as {
      ImportCost: AnySuite;
    };
    const written = Object.keys(ImportCost.benchmarks).map((name) => {
      const state = ImportCost.state?.({} as never) as unknown as { bytes: Uint8Array };
      state.bytes.fill(0);
      benchmarkFn(ImportCost, name)(recorder(), state as never, {} as never);
      return [...state.bytes];
    });
    expect(written).toHaveLength(8);
    expect(written[0]?.some((b) => b !== 0)).toBe(true);
    for (const bytes of written) expect(bytes).toEqual(written[0]);
  });

  it("every bits benchmark runs in the harness", async () => {
    const report = await runBenchmarks(
      [BitsGet, BitsSet, BitsBulkDecode, BitsModifiedUtf8, BitsSwitch],
      {
        params: { type: ["Int32"] },
        overrides: {
          forks: 0,
          warmup: { iterations: 0, invocations: 1 },
          measurement: { iterations: 1, invocations: 2 },
        },
      },
    );
    expect(report.failures).toEqual([]);
    expect(report.results).toHaveLength(5 + 6 + 3 + 6 + 2 * 3); // BitsSet has its floor too
    const bulk = report.results.find((r) => r.benchmark === "BitsBulkDecode.decodeArray")!;
    expect(bulk.secondaryMetrics["·bandwidth"]!.scoreUnit).toBe("GB/s");
  });
});
