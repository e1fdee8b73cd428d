#!/usr/bin/env node
// Rough speed check of @rafkit/bits against DataView in one process (not a unit test, not the published
// benchmark: bench/bits.bench.mjs is). In one process the accessors' call sites see several arrays and
// types; scripts/accessor-speed.mjs forks per measurement instead. Timed by @rafkit/bench in this process.
// Run after `pnpm build`: node scripts/speed.mjs
import { defineSuite, runBenchmarks } from "@rafkit/bench";
import { BigEndian, decodeArray, encodeArray, LittleEndian, ModifiedUtf8 } from "@rafkit/bits";

const ROUNDS = 15;
const OPS = 2_000_000;
const MASK = 1023;
const buf = new Uint8Array(new ArrayBuffer(4096 + 16), 3, 4096); // non-zero byteOffset on purpose
const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
for (let i = 0; i < buf.length; i++) buf[i] = (i * 2654435761) >>> 24;
const offs = new Int32Array(MASK + 1).map(() => Math.floor(Math.random() * (buf.length - 8)));
const bigs = Array.from({ length: MASK + 1 }, (_, i) => BigInt(i) * 0x123456789n);

/** Times `fn(n)` in this process with the harness: mean nanoseconds per inner operation. */
async function time(fn, n) {
  return (await timePair(fn, fn, n))[0];
}

/**
 * Times two loops with the harness, in this process, ROUNDS measured iterations each after warmup; each
 * call does `n` inner operations, so the score is nanoseconds per operation.
 */
async function timePair(a, b, n) {
  const suite = defineSuite({
    name: "Speed",
    options: { unit: "ns", operationsPerInvocation: n },
    benchmarks: { a: () => a(n), b: () => b(n) },
  });
  const { results } = await runBenchmarks([suite], {
    overrides: {
      forks: 0,
      warmup: { iterations: 1, invocations: 1 },
      measurement: { iterations: ROUNDS, invocations: 1 },
    },
  });
  return results.map((r) => r.primaryMetric.score);
}

// Each loop is compiled separately so each call site keeps its own (monomorphic) feedback. The
// serial number makes every source text unique: V8 shares compiled code (and feedback) between
// identical sources, which would let one loop's optimisation decide another's timing.
let serial = 0;
const unique = (src) => `/* loop ${serial++} */ ${src}`;
function loop(body) {
  const f = new Function(
    "dv",
    "b",
    "C",
    "offs",
    "bigs",
    unique(
      `return function (n) { let acc = 0; for (let i = 0; i < n; i++) { const o = offs[i & ${MASK}]; ${body}; } return acc; };`,
    ),
  );
  return f(dv, buf, null, offs, bigs);
}
function loopWith(codec, body) {
  const f = new Function(
    "dv",
    "b",
    "C",
    "offs",
    "bigs",
    unique(
      `return function (n) { let acc = 0; for (let i = 0; i < n; i++) { const o = offs[i & ${MASK}]; ${body}; } return acc; };`,
    ),
  );
  return f(dv, buf, codec, offs, bigs);
}

const types = [
  ["Int8", "i"],
  ["Uint8", "i"],
  ["Int16", "i"],
  ["Uint16", "i"],
  ["Int32", "i"],
  ["Uint32", "i"],
  ["Float32", "i * 0.5"],
  ["Float64", "i * 0.25"],
  ["BigInt64", "bigs[i & 1023]"],
  ["BigUint64", "bigs[i & 1023]"],
];

console.log(
  `node ${process.version}, ${OPS} ops x ${ROUNDS} rounds, best-of-${ROUNDS} ns/op; ratio = rafkit / DataView`,
);
console.log("op                     order   DataView  rafkit  ratio");
let worst = 0;
for (const [codec, little] of [
  [BigEndian, false],
  [LittleEndian, true],
]) {
  for (const [t, value] of types) {
    const acc = t.startsWith("Big") ? "acc ^= Number(" : "acc += (";
    for (const kind of ["get", "set"]) {
      const dvBody =
        kind === "get" ? `${acc}dv.get${t}(o, ${little}))` : `dv.set${t}(o, ${value}, ${little})`;
      const rkBody = kind === "get" ? `${acc}C.get${t}(b, o))` : `C.set${t}(b, o, ${value})`;
      const [d, r] = await timePair(loop(dvBody), loopWith(codec, rkBody), OPS);
      worst = Math.max(worst, r / d);
      console.log(
        `${`${kind}${t}`.padEnd(22)} ${codec.order.padEnd(7)} ${d.toFixed(2).padStart(8)} ${r.toFixed(2).padStart(7)} ${(r / d).toFixed(2).padStart(6)}`,
      );
    }
  }
  // Safe values live in the first 8 bytes of a separate array; compare with getBigInt64 + Number().
  const safe = new Uint8Array(16);
  codec.setSafeInt64(safe, 0, 2 ** 40 + 12345);
  const sd = new DataView(safe.buffer);
  const sLoop = (body) =>
    new Function(
      "sd",
      "S",
      "C",
      unique(
        `return function (n) { let acc = 0; for (let i = 0; i < n; i++) { ${body}; } return acc; };`,
      ),
    )(sd, safe, codec);
  const [d, r] = await timePair(
    sLoop(`acc += Number(sd.getBigInt64(i & 7 & 0, ${little}))`),
    sLoop("acc += C.getSafeInt64(S, i & 7 & 0)"),
    OPS,
  );
  console.log(
    `${"getSafeInt64 (vs Number(getBigInt64))".padEnd(30)} ${d.toFixed(2).padStart(8)} ${r.toFixed(2).padStart(7)} ${(r / d).toFixed(2).padStart(6)}`,
  );
}
console.log(`worst single-primitive ratio: ${worst.toFixed(2)} (target <= 1.5)`);

// Bulk: 1 MiB of Int32.
const MiB = 1 << 20;
const src = new Uint8Array(MiB + 8);
for (let i = 0; i < src.length; i++) src[i] = i * 7;
const ints = new Int32Array(MiB / 4);
const mbps = (nsPerOp, bytes) => (bytes / nsPerOp) * 1e3; // MB/s (10^6 bytes)
const bulk = [
  ["decode Int32 big, 1 MiB", () => decodeArray(src, 0, ints, 0, ints.length, "big")],
  ["decode Int32 big, 1 MiB, offset 1", () => decodeArray(src, 1, ints, 0, ints.length, "big")],
  ["decode Int32 little, 1 MiB", () => decodeArray(src, 0, ints, 0, ints.length, "little")],
  ["encode Int32 big, 1 MiB", () => encodeArray(ints, 0, ints.length, src, 0, "big")],
  ["encode Int32 big, 1 MiB, offset 1", () => encodeArray(ints, 0, ints.length, src, 1, "big")],
  [
    "DataView getInt32 loop, 1 MiB",
    () => {
      const v = new DataView(src.buffer);
      for (let i = 0; i < ints.length; i++) ints[i] = v.getInt32(i * 4);
    },
  ],
];
const floats = new Float64Array(MiB / 8).map((_, i) => i / 3);
bulk.push([
  "encode Float64 big, 1 MiB",
  () => encodeArray(floats, 0, floats.length, src, 0, "big"),
]);
bulk.push([
  "decode Float64 big, 1 MiB",
  () => decodeArray(src, 0, floats, 0, floats.length, "big"),
]);
console.log("\nbulk                                   MB/s");
for (const [name, fn] of bulk) {
  const ns = await time((n) => {
    for (let i = 0; i < n; i++) fn();
  }, 20);
  console.log(`${name.padEnd(38)} ${mbps(ns, MiB).toFixed(0).padStart(6)}`);
}

// Modified UTF-8 decode.
console.log(
  "\nModifiedUtf8.decode                    MB/s   (TextDecoder utf-8 on the same bytes)",
);
const td = new TextDecoder();
for (const [name, str] of [
  ["ASCII 16 B", "abcdefghijklmnop"],
  ["ASCII 64 B", "x".repeat(64)],
  ["ASCII 1 KiB", "The quick brown fox. ".repeat(49).slice(0, 1024)],
  ["ASCII 64 KiB-1", "0123456789abcdef".repeat(4096).slice(0, 65535)],
  ["mixed 1 KiB (é, 中)", "aé中b".repeat(128)],
]) {
  const bytes = new Uint8Array(ModifiedUtf8.encodedLength(str));
  ModifiedUtf8.encode(str, bytes, 0);
  const reps = Math.max(1, Math.floor(4_000_000 / bytes.length));
  let sink = 0;
  const ns = await time((n) => {
    for (let i = 0; i < n; i++) sink += ModifiedUtf8.decode(bytes, 0, bytes.length).length;
  }, reps);
  const nsTd = await time((n) => {
    for (let i = 0; i < n; i++) sink += td.decode(bytes).length;
  }, reps);
  console.log(
    `${name.padEnd(38)} ${mbps(ns, bytes.length).toFixed(0).padStart(6)}   (${mbps(nsTd, bytes.length).toFixed(0)})`,
  );
  if (sink < 0) console.log(sink);
}
