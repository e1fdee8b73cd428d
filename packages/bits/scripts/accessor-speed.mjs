#!/usr/bin/env node
// Single-access speed of the codecs against DataView, in both byte orders, each measurement in its own
// process so every call site stays monomorphic (as @rafkit/bench forks; its BitsGet/BitsSet suites
// cover big-endian only). A development aid, not a benchmark: quote @rafkit/bench's numbers instead.
// Run after `pnpm build`: node scripts/accessor-speed.mjs [repeats]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const TYPES = ["Int16", "Uint16", "Int32", "Uint32", "Float32", "Float64", "BigInt64"];
const WIDTH = { Int16: 2, Uint16: 2, Int32: 4, Uint32: 4, Float32: 4, Float64: 8, BigInt64: 8 };
const ACCESSES = 128; // per call, at successive offsets, like the bench suites
const CALLS = 20_000;
const ROUNDS = 25;

/** In a child: times one (who, order, op, type) and prints its best round in ns per access. */
async function child(who, order, op, type) {
  const little = order === "little";
  const width = WIDTH[type];
  const bytes = new Uint8Array(ACCESSES * 8);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
  const view = new DataView(bytes.buffer);
  const values = Array.from({ length: ACCESSES }, (_, i) => view[`get${type}`](i * width, little));
  let f;
  if (who === "DataView") {
    f = new Function(
      "le",
      `return ${op === "get" ? "(v, o) =>" : "(v, o, x) =>"} v.${op}${type}(o, ${op === "get" ? "" : "x, "}le)`,
    )(little);
  } else {
    const bits = await import("../dist/index.js");
    const codec = little ? bits.LittleEndian : bits.BigEndian;
    f = new Function(
      "C",
      `return ${op === "get" ? "(b, o) =>" : "(b, o, x) =>"} C.${op}${type}(b, o${op === "get" ? "" : ", x"})`,
    )(codec);
  }
  const target = who === "DataView" ? view : bytes;
  let sink;
  const call =
    op === "get"
      ? () => {
          for (let i = 0, o = 0; i < ACCESSES; i++, o += width) sink = f(target, o);
        }
      : () => {
          for (let i = 0, o = 0; i < ACCESSES; i++, o += width) f(target, o, values[i]);
        };
  let best = Number.POSITIVE_INFINITY;
  for (let r = -10; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) call();
    const ns = Number(process.hrtime.bigint() - t0) / (CALLS * ACCESSES);
    if (r >= 0) best = Math.min(best, ns); // rounds below 0 are warm-up
  }
  process.stdout.write(`${best} ${String(sink).length}`);
}

if (process.argv[2] === "--child") {
  await child(...process.argv.slice(3));
} else {
  const repeats = Number(process.argv[2] ?? 3);
  const self = fileURLToPath(import.meta.url);
  const run = (...args) =>
    Number.parseFloat(execFileSync(process.execPath, [self, "--child", ...args]).toString());
  console.log(
    `node ${process.version}; best of ${repeats} forks x ${ROUNDS} rounds, ns per access`,
  );
  console.log("op                order   DataView  rafkit  ratio");
  let worst = 0;
  for (const order of ["big", "little"]) {
    for (const op of ["get", "set"]) {
      for (const type of TYPES) {
        let d = Number.POSITIVE_INFINITY;
        let r = Number.POSITIVE_INFINITY;
        for (let i = 0; i < repeats; i++) {
          // Alternate, so both see the same background load.
          d = Math.min(d, run("DataView", order, op, type));
          r = Math.min(r, run("rafkit", order, op, type));
        }
        worst = Math.max(worst, r / d);
        console.log(
          `${`${op}${type}`.padEnd(17)} ${order.padEnd(7)} ${d.toFixed(2).padStart(8)} ${r.toFixed(2).padStart(7)} ${(r / d).toFixed(2).padStart(6)}`,
        );
      }
    }
  }
  console.log(`worst ratio: ${worst.toFixed(2)}`);
}
