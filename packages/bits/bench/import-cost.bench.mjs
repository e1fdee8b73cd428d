// Where a caller keeps its receivers, and what that costs a hot loop: the same Float32 set through a
// DataView and through @rafkit/bits's BigEndian, each taken from the benchmark's state, through a module's
// import, from a module-level const, or from a local read from the import before the loop. Run it with
//   npx rafkit-bench --suite bench/import-cost.bench.mjs -f 4 --interleave

import { defineSuite } from "@rafkit/bench";
import { BigEndian } from "@rafkit/bits";
import { importedView } from "./import-cost-view.mjs";

const N = 128;
const moduleView = importedView;
const moduleCodec = BigEndian;

export const ImportCost = defineSuite({
  name: "ImportCost",
  description: "one Float32 set per op, 128 per call, with the receiver kept in four places",
  state: () => ({
    view: importedView,
    bytes: new Uint8Array(importedView.buffer),
    codec: BigEndian,
    values: Array.from({ length: N }, (_, i) => i * 1.5 - 17),
  }),
  options: { unit: "ns", operationsPerInvocation: N },
  benchmarks: {
    dataViewFromState(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) s.view.setFloat32(o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianFromState(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) s.codec.setFloat32(s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    dataViewFromImport(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) importedView.setFloat32(o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianFromImport(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) BigEndian.setFloat32(s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    dataViewModuleConst(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) moduleView.setFloat32(o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianModuleConst(_bh, s) {
      for (let i = 0, o = 0; i < N; i++, o += 4) moduleCodec.setFloat32(s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    dataViewLocal(_bh, s) {
      const view = importedView;
      for (let i = 0, o = 0; i < N; i++, o += 4) view.setFloat32(o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianLocal(_bh, s) {
      const be = BigEndian;
      for (let i = 0, o = 0; i < N; i++, o += 4) be.setFloat32(s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
  },
});
