import type { Colors } from "./cli-colors";
import { KvError, KvLockedError } from "./errors";
import {
  type CompactionResult,
  open,
  type RecoveryIssue,
  type Store,
  type StoreStats,
} from "./store";

// The CLI's helpers: exit codes, error reporting, opening a store for one command, reading stdin, summaries.

/** Exit codes of `rafkv`. */
export const EXIT = {
  ok: 0,
  /** The key does not exist (`get`, `del`). */
  notFound: 1,
  /** Bad usage, a missing store directory, a bad argument. */
  usage: 2,
  /** The store is locked by another process. */
  locked: 3,
  /** Corruption found (`verify`), or a corrupt record or read-only store in the way. */
  corrupt: 4,
  /** Any other error (an OS error, say). */
  failure: 5,
} as const;

export function report(error: unknown, err: (msg: string) => void): number {
  if (error instanceof KvError) {
    err(`rafkv: ${error.message}`);
    switch (error.code) {
      case "ERR_KV_LOCKED":
        return EXIT.locked;
      case "ERR_KV_CORRUPT":
      case "ERR_KV_READ_ONLY":
        return EXIT.corrupt;
      case "ERR_KV_NO_STORE":
      case "ERR_KV_INVALID_ARG":
        return EXIT.usage;
      default:
        return EXIT.failure;
    }
  }
  const e = error as Error & { code?: string };
  err(`rafkv: ${e.message ?? String(error)}`);
  return EXIT.failure;
}

export async function withStore<T>(
  dir: string,
  options: Parameters<typeof open>[1],
  body: (db: Store) => Promise<T>,
): Promise<T> {
  const db = await open(dir, options);
  try {
    return await body(db);
  } finally {
    await db.close();
  }
}

export function warnRecovery(db: Store, err: (msg: string) => void, pc: Colors): void {
  for (const r of db.recovery) {
    if (r.kind === "corrupt")
      err(
        `${pc.yellow("warning")} ${r.file}: corrupt region at offset ${r.offset} (${r.bytes} bytes)`,
      );
  }
}

/**
 * Notes on stderr what the open took out of the store and kept in `lost+found/` (a writable open: a torn tail cut
 * off, a file moved aside), so that a command after a crash does not cut anything without a word. Not an error:
 * the command goes on, and its exit code is its own.
 */
export function noteKeptAside(db: Store, err: (msg: string) => void, pc: Colors): void {
  for (const r of db.recovery) {
    if (r.keptAs === undefined) continue;
    const what =
      r.action === "truncated"
        ? `torn tail at offset ${r.offset} (${r.bytes} bytes) cut off`
        : r.kind === "foreign"
          ? "not a file of this store, moved aside"
          : `no valid record (${r.bytes} bytes), moved aside`;
    err(`${pc.yellow("note")} ${r.file}: ${what}; kept as ${r.keptAs}`);
  }
}

/**
 * `rafkv DIR backup DEST` refused by the store's lock: it opens the store read-only, which a writer's lock excludes
 * (and a running backup's shared lock keeps writers out). The same code and holder, and a message naming the way
 * that works while a writer runs: the library's online `Store.backup(dest)`, called by the writer.
 */
export function backupLocked(dir: string, error: KvLockedError): KvLockedError {
  return new KvLockedError(
    `cannot back up ${dir} from here: ${error.message}. rafkv <dir> backup opens the store read-only, which needs the writer to close it first; to copy a store while it stays open for writing, the process that writes calls the library's online backup, db.backup(dest)`,
    error.path ?? dir,
    error.holderPid,
    { cause: error },
  );
}

/** The whole of `stream`; `ERR_KV_INVALID_ARG` as soon as it passes `limit` bytes (it is not read further). */
export async function readAll(stream: NodeJS.ReadableStream, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    length += bytes.length;
    if (length > limit) {
      throw new KvError(
        "ERR_KV_INVALID_ARG",
        `the value on stdin is over ${limit} bytes, the most a value may hold; nothing was stored`,
      );
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** What `compact --repair` did when open found damage: records dropped, the rest rewritten by open's compaction. */
export function repairSummary(dropped: readonly RecoveryIssue[], stats: StoreStats): string {
  const lost = dropped.reduce((sum, r) => sum + r.bytes, 0);
  const files = [...new Set(dropped.map((r) => r.file))].join(", ");
  return `repaired: dropped ${plural(dropped.length, "corrupt region")} (${bytes(lost)}) in ${files}; rewrote the ${plural(stats.keys, "live key")} into clean files (${bytes(stats.totalBytes)})`;
}

/** What a compaction did: the data files it wrote and removed (not the empty active file it leaves). */
export function compactionSummary(r: CompactionResult): string {
  if (r.records === 0 && r.bytesBefore === r.bytesAfter)
    return `nothing to compact: no old records to rewrite or drop (${bytes(r.bytesAfter)} of data)`;
  const reclaimed = r.bytesBefore - r.bytesAfter;
  return `compacted ${plural(r.records, "live record")} into ${plural(r.filesWritten, "data file")}, removing ${plural(r.filesRemoved, "old one")}: ${bytes(r.bytesBefore)} → ${bytes(r.bytesAfter)}${reclaimed > 0 ? ` (${bytes(reclaimed)} reclaimed)` : ""}`;
}

export function plural(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

export function toInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new KvError("ERR_KV_INVALID_ARG", `expected a positive integer, got ${value}`);
  return n;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
