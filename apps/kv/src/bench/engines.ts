import * as path from "node:path";
import { open, type Store } from "../store";

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
    return new RafkvEngine(await open(where, { sync: durability === "batch" ? "batch" : "never" }));
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
    return new LmdbEngine(db, batch);
  }
  const { ClassicLevel } = await import("classic-level");
  const db = new ClassicLevel<string, Uint8Array>(where, { valueEncoding: "view" });
  await db.open();
  return new ClassicLevelEngine(db, durability === "batch");
}

// The adapters are classes, not object literals of closures: a method is one function for every instance, so the
// code V8 optimised while an engine warmed up still fits the measured instance of it, instead of being compiled
// again in the first measured phase (see BENCHMARKS.md, "Code choices").

class RafkvEngine implements Engine {
  readonly name = "rafkv";
  readonly config: string;
  readonly #db: Store;
  constructor(db: Store) {
    this.#db = db;
    this.config = `sync: "${db.sync}"`;
  }
  read(key: string): number {
    return this.#db.getSync(key)?.length ?? -1;
  }
  write(key: string, value: Uint8Array): Promise<unknown> {
    return this.#db.put(key, value);
  }
  close(): Promise<void> {
    return this.#db.close();
  }
}

type LmdbDatabase = import("lmdb").RootDatabase<Uint8Array, string>;

class LmdbEngine implements Engine {
  readonly name = "lmdb";
  readonly config: string;
  readonly #db: LmdbDatabase;
  readonly #batch: boolean;
  constructor(db: LmdbDatabase, batch: boolean) {
    this.#db = db;
    this.#batch = batch;
    this.config = batch ? "async puts, awaited until flushed" : "noSync: true";
  }
  read(key: string): number {
    return this.#db.get(key)?.length ?? -1;
  }
  write(key: string, value: Uint8Array): Promise<unknown> {
    const put = this.#db.put(key, value);
    return this.#batch ? (put as Promise<boolean> & { flushed: Promise<unknown> }).flushed : put;
  }
  close(): Promise<void> {
    return this.#db.close();
  }
}

type ClassicLevelDatabase = import("classic-level").ClassicLevel<string, Uint8Array>;

class ClassicLevelEngine implements Engine {
  readonly name = "classic-level";
  readonly config: string;
  readonly #db: ClassicLevelDatabase;
  readonly #sync: boolean;
  constructor(db: ClassicLevelDatabase, sync: boolean) {
    this.#db = db;
    this.#sync = sync;
    this.config = `put sync: ${sync}`;
  }
  read(key: string): number {
    return this.#db.getSync(key)?.length ?? -1;
  }
  write(key: string, value: Uint8Array): Promise<unknown> {
    return this.#db.put(key, value, { sync: this.#sync });
  }
  close(): Promise<void> {
    return this.#db.close();
  }
}
