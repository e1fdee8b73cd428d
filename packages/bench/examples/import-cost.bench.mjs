// What an ES module import costs a hot loop: the same call with its receiver taken from the state and
// through a module's import, for a DataView and for @rafkit/bits's BigEndian, and BigEndian read from
// its import once, into a local. Run it with
//   npx rafkit-bench --suite examples/import-cost.bench.mjs -f 4 --interleave

import { defineSuite } from "@rafkit/bench";
import { BigEndian } from "@rafkit/bits";
import { importedView } from "./import-cost-view.mjs";

const N = 128;

export const ImportCost = defineSuite({
  name: "ImportCost",
  description:
    "one Float32 set per op, 128 per call; the receiver from the state or from an import",
  state: () => {
    const view = importedView;
    const bytes = new Uint8Array(view.buffer);
    return {
      view,
      bytes,
      codec: BigEndian,
      values: Array.from({ length: N }, (_, i) => i * 1.5 - 17),
      // One closure per benchmark, so each call site sees one target (as in the built-in suites).
      viewFromState: (d, o, v) => d.setFloat32(o, v),
      viewFromImport: (o, v) => importedView.setFloat32(o, v),
      codecFromState: (c, b, o, v) => c.setFloat32(b, o, v),
      codecFromImport: (b, o, v) => BigEndian.setFloat32(b, o, v),
    };
  },
  options: { unit: "ns", operationsPerInvocation: N },
  benchmarks: {
    dataViewFromState(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) s.viewFromState(s.view, o, s.values[i]);
      return s.bytes[0];
    },
    dataViewFromImport(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) s.viewFromImport(o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianFromState(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) s.codecFromState(s.codec, s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianFromImport(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) s.codecFromImport(s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    // What a module can do: read the import once, into a local, before the loop.
    bigEndianFromLocal(_bh, s) {
      const be = BigEndian;
      for (let i = 0, o = 0; i < N; i++, o += 4) be.setFloat32(s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
  },
});
