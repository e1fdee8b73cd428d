#!/usr/bin/env node
// Single-access speed of the codecs against DataView, in both byte orders and every type, each combination
// in its own fork (@rafkit/bench) so every call site stays monomorphic. A development aid: the published
// numbers come from bench/bits.bench.mjs. Run after `pnpm build`: node scripts/accessor-speed.mjs [forks]
import {
  compareResults,
  defineSuite,
  formatComparison,
  progressListener,
  runBenchmarks,
} from "@rafkit/bench";
import { BigEndian, LittleEndian } from "@rafkit/bits";

const TYPES = ["Int16", "Uint16", "Int32", "Uint32", "Float32", "Float64", "BigInt64"];
const WIDTH = { Int16: 2, Uint16: 2, Int32: 4, Uint32: 4, Float32: 4, Float64: 8, BigInt64: 8 };
const ACCESSES = 128; // per call, at successive offsets, like the bench suites

/** One accessor, compiled from source per fork so that its call site sees one receiver and one type. */
function accessor(who, order, op, type) {
  const little = order === "little";
  const set = op === "set";
  if (who === "dataView") {
    return new Function(
      "le",
      `return ${set ? "(v, o, x) =>" : "(v, o) =>"} v.${op}${type}(o, ${set ? "x, " : ""}le)`,
    )(little);
  }
  return new Function(
    "C",
    `return ${set ? "(b, o, x) =>" : "(b, o) =>"} C.${op}${type}(b, o${set ? ", x" : ""})`,
  )(little ? LittleEndian : BigEndian);
}

function state(who, { order, op, type }) {
  const width = WIDTH[type];
  const bytes = new Uint8Array(ACCESSES * 8);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
  const view = new DataView(bytes.buffer);
  const values = Array.from({ length: ACCESSES }, (_, i) =>
    view[`get${type}`](i * width, order === "little"),
  );
  return {
    f: accessor(who, order, op, type),
    target: who === "dataView" ? view : bytes,
    width,
    values,
    op,
  };
}

const body = (bh, s) => {
  if (s.op === "get")
    for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) bh.consume(s.f(s.target, o));
  else for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) s.f(s.target, o, s.values[i]);
};
const params = { order: ["big", "little"], op: ["get", "set"], type: TYPES };
const options = { unit: "ns", operationsPerInvocation: ACCESSES };

export const AccessorDataView = defineSuite({
  name: "Accessor",
  params,
  state: (p) => state("dataView", p),
  options,
  benchmarks: { dataView: body },
});
export const AccessorRafkit = defineSuite({
  name: "AccessorRafkit",
  params,
  state: (p) => state("rafkit", p),
  options,
  benchmarks: { rafkit: body },
});

if (import.meta.url === `file://${process.argv[1]}`) {
  const forks = Number(process.argv[2] ?? 2);
  // The suites as loaded from this module (importing it again here would wait on itself).
  const suites = [AccessorDataView, AccessorRafkit].map((suite) => ({
    suite,
    module: import.meta.url,
  }));
  const { results } = await runBenchmarks(
    suites,
    {
      interleave: true,
      overrides: {
        forks,
        warmup: { iterations: 3, time: 100 },
        measurement: { iterations: 5, time: 100 },
      },
    },
    progressListener(),
  );
  const comparison = compareResults(results, results, {
    baseline: "Accessor.dataView",
    candidate: "AccessorRafkit.rafkit",
    baselineName: "DataView",
    candidateName: "rafkit",
  });
  console.log(formatComparison(comparison));
}
