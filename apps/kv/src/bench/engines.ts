import * as path from "node:path";
import { open } from "../store";

/** The durability a benchmark compares at. */
export type Durability = "batch" | "none";

/** One store under test, behind the few calls the workloads make. */
export interface Engine {
  readonly name: string;
  /** How it is configured, in a few words. */
  readonly config: string;
  /** A read; the engine's fastest (synchronous) get. Returns the value's length, to be consumed. */
  read(key: string): number;
  /** An insert or update, resolving once as durable as the chosen durability promises. */
  write(key: string, value: Uint8Array): Promise<unknown>;
  close(): Promise<void>;
}

/** Names of the engines {@link openEngine} knows. */
export const ENGINE_NAMES = ["rafkv", "lmdb", "classic-level"] as const;
/** See {@link ENGINE_NAMES}. */
export type EngineName = (typeof ENGINE_NAMES)[number];

/**
 * Opens `name` in a fresh directory under `dir`, configured for `durability`:
 * `batch` = writes acknowledged once on disk, with one flush shared by concurrent writes (rafkv `sync: "batch"`;
 * lmdb's asynchronous puts, batched per event turn, awaited until their transaction is flushed; classic-level puts
 * with `sync: true`, which LevelDB groups across concurrent writers); `none` = no fsync (rafkv `never`, lmdb `noSync`, classic-level `sync: false`).
 */
export async function openEngine(
  name: EngineName,
  dir: string,
  durability: Durability,
): Promise<Engine> {
  const where = path.join(dir, name);
  if (name === "rafkv") {
    const db = await open(where, { sync: durability === "batch" ? "batch" : "never" });
    return {
      name,
      config: `sync: "${db.sync}"`,
      read: (key) => db.getSync(key)?.length ?? -1,
      write: (key, value) => db.put(key, value),
      close: () => db.close(),
    };
  }
  if (name === "lmdb") {
    // Loaded on demand: native addons that only the benchmark needs.
    const { open: openLmdb } = await import("lmdb");
    const batch = durability === "batch";
    const db = openLmdb<Uint8Array, string>({
      path: where,
      encoding: "binary",
      noSync: !batch,
      // A put resolves at commit; with separateFlushed its promise also carries `flushed`, for when it is durable.
      separateFlushed: batch,
    });
    return {
      name,
      config: batch ? "async puts, awaited until flushed" : "noSync: true",
      read: (key) => db.get(key)?.length ?? -1,
      write: batch
        ? (key, value) =>
            (db.put(key, value) as Promise<boolean> & { flushed: Promise<unknown> }).flushed
        : (key, value) => db.put(key, value),
      close: () => db.close(),
    };
  }
  const { ClassicLevel } = await import("classic-level");
  const db = new ClassicLevel<string, Uint8Array>(where, { valueEncoding: "view" });
  await db.open();
  const sync = durability === "batch";
  return {
    name,
    config: `put sync: ${sync}`,
    read: (key) => db.getSync(key)?.length ?? -1,
    write: (key, value) => db.put(key, value, { sync }),
    close: () => db.close(),
  };
}
