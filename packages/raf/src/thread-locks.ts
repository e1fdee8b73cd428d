import fs, { fstatSync } from "node:fs";
import { fileIdentity, type SyncBackend } from "@rafkit/syscall-state";
import type { LockRange } from "./locks";

/** What the registry keeps of an instance: its window, never the instance (that must stay collectable). */
export interface LockHolder {
  readonly fd: number;
  readonly path: string;
  readonly closed: boolean;
  /** Names its open file ({@link identifierOf}); without it, `fstat` of `fd` does. */
  readonly identify?: (() => string | null) | undefined;
}

/** A lock held in this thread that a waiting `lock()` could never see released. */
export interface ThreadHeldLock {
  /** The holder's path (a hard link or an old name of the same file shows as such). */
  readonly path: string;
  readonly range: LockRange;
}

// Every copy of this package loaded in the thread shares one registry, or a lock taken through one copy would be
// invisible to the other: the ESM and the CJS build, and copies in other realms of the thread (a vm context, as
// Jest and vitest's vm pools load a package per test file), which have a `globalThis` of their own. So it hangs
// off Node's `fs` module object, the one object every realm of a thread (and only of that thread) gets
// (graceful-fs shares its queue the same way); `Symbol.for` keys are the same in every realm.
const KEY = Symbol.for("@rafkit/raf/thread-locks/v1");
type Scope = { [KEY]?: Map<LockHolder, Set<LockRange>> };
/** The locks held in this thread, by every instance of every file, per holder. */
const held: Map<LockHolder, Set<LockRange>> = shared(fs as Scope, globalThis as Scope);

/** The registry on `scope`, made there if missing; on `fallback` when `scope` cannot take it (non-extensible). */
function shared(scope: Scope, fallback: Scope): Map<LockHolder, Set<LockRange>> {
  let map = scope[KEY];
  if (map !== undefined) return map;
  map = new Map();
  try {
    // Not enumerable: code that copies or walks `fs` (mocks, wrappers) should not meet it.
    Object.defineProperty(scope, KEY, { value: map });
    return map;
  } catch {
    return (fallback[KEY] ??= map);
  }
}

/** File identities (`dev:ino`), asked of the OS once per holder, only when a conflict needs them. */
const identities = new WeakMap<LockHolder, string | null>();

/** Records that `holder` now holds `range` (a copy: the lock object would keep its instance alive). */
export function holdInThread(holder: LockHolder, range: LockRange): LockRange {
  const record = { shared: range.shared, position: range.position, size: range.size };
  let ranges = held.get(holder);
  if (ranges === undefined) held.set(holder, (ranges = new Set()));
  ranges.add(record);
  return record;
}

/** `record` (from {@link holdInThread}) was released. */
export function releaseInThread(holder: LockHolder, record: LockRange): void {
  const ranges = held.get(holder);
  if (ranges === undefined) return;
  ranges.delete(record);
  if (ranges.size === 0) held.delete(holder);
}

/** `holder`'s descriptor was closed (explicitly, on collection, or at its worker's exit): its locks went with it. */
export function forgetHolder(holder: LockHolder): void {
  held.delete(holder);
}

function conflicts(a: LockRange, b: LockRange): boolean {
  return (
    !(a.shared && b.shared) && a.position < b.position + b.size && b.position < a.position + a.size
  );
}

/** The identity of the holder's open file, or null when the OS cannot say (a backend's fd that is not an OS fd). */
function identity(holder: LockHolder): string | null {
  let id = identities.get(holder);
  if (id === undefined) {
    id = holder.identify !== undefined ? holder.identify() : descriptorIdentity(holder.fd);
    identities.set(holder, id);
  }
  return id;
}

/**
 * How a file of `backend` names its open file: the backend's answer, else `dev:ino` by `fstat`. Not on Windows,
 * where a descriptor of a backend with locks is a `HANDLE`: `fstat` of its number failed, or named whatever file
 * the C runtime's descriptor of that number was, and a sync `lock()` then waited on its own thread for ever.
 */
export function identifierOf(backend: SyncBackend, fd: number): () => string | null {
  return () =>
    fileIdentity(backend, fd) ?? (process.platform === "win32" ? null : descriptorIdentity(fd));
}

/** `dev:ino` of the open file behind OS descriptor `fd`, or null. */
function descriptorIdentity(fd: number): string | null {
  const id = statIdentity(() => fstatSync(fd, { bigint: true }));
  // Deno's node:fs knows only the descriptors it opened itself (EBADF for the native backend's); on Linux
  // /proc/self/fd/N still names the open file, even renamed or unlinked.
  if (id === null && process.platform === "linux") {
    return statIdentity(() => fs.statSync(`/proc/self/fd/${fd}`, { bigint: true }));
  }
  return id;
}

function statIdentity(stat: () => fs.BigIntStats): string | null {
  try {
    const s = stat();
    return `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}

/**
 * A lock that conflicts with `range` (overlapping, at least one of the two exclusive), held in this thread
 * through another instance of the same file as `holder` (same device and inode: hard links and renames
 * included). Asks the OS for identities, so call it only once a lock attempt met a conflict.
 */
export function heldInThread(holder: LockHolder, range: LockRange): ThreadHeldLock | undefined {
  let mine: string | null | undefined;
  for (const [other, ranges] of held) {
    if (other === holder) continue;
    for (const r of ranges) {
      if (!conflicts(r, range)) continue;
      mine ??= identity(holder);
      if (mine !== null && identity(other) === mine) return { path: other.path, range: r };
      break;
    }
  }
  return undefined;
}
