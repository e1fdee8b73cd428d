import type { Side, Target } from "./targets";

const ycsb = (phases: readonly string[], engine: string): Side => ({
  benchmarks: phases.map((p) => `ycsb.${p}`),
  params: { engine },
});
const kvTarget = (
  name: string,
  text: string,
  phases: readonly string[],
  peer: "lmdb" | "classic-level",
  goal: number,
): Target => ({
  name,
  group: "kv",
  text,
  floor: `${peer} on the same YCSB phase, same durability`,
  kind: "ratio",
  // Time per op of the peer over rafkv's: rafkv's throughput over the peer's.
  numerator: ycsb(phases, peer),
  denominator: ycsb(phases, "rafkv"),
  op: ">=",
  goal,
});

/** rafkv against lmdb and classic-level (`rafkv bench`: load, then YCSB A, B, C). */
export const KV_TARGETS: readonly Target[] = [
  kvTarget(
    "kv-reads-match-lmdb",
    "rafkv reads (B, C) at least as fast as lmdb",
    ["B", "C"],
    "lmdb",
    1,
  ),
  kvTarget(
    "kv-reads-beat-classic-level",
    "rafkv reads (B, C) at least 5x classic-level",
    ["B", "C"],
    "classic-level",
    5,
  ),
  kvTarget(
    "kv-writes-match-lmdb",
    "rafkv load and updates (load, A) at least as fast as lmdb",
    ["load", "A"],
    "lmdb",
    1,
  ),
  kvTarget(
    "kv-writes-beat-classic-level",
    "rafkv load and updates (load, A) at least 5x classic-level",
    ["load", "A"],
    "classic-level",
    5,
  ),
];
