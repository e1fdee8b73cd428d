// An example suite: summing an array three ways. Run it with
//   npx rafkit-bench --suite examples/sum.bench.mjs
import { defineSuite } from "@rafkit/bench";

export const Sum = defineSuite({
  name: "Sum",
  params: { size: [100, 10_000] },
  // Once per fork: build the data for this parameter combination.
  state: ({ size }) => ({ data: Float64Array.from({ length: size }, (_, i) => i % 7) }),
  options: { unit: "us" },
  benchmarks: {
    forLoop(_bh, { data }) {
      let sum = 0;
      for (let i = 0; i < data.length; i++) sum += data[i];
      return sum; // returned values go to the blackhole
    },
    reduce: (_bh, { data }) => data.reduce((a, b) => a + b, 0),
    forOf(bh, { data }) {
      let sum = 0;
      for (const x of data) sum += x;
      bh.consume(sum); // or consume explicitly
    },
  },
});
