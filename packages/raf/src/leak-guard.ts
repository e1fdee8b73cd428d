import { isMainThread } from "node:worker_threads";
import type { SyncBackend } from "@rafkit/syscall-state";
import { forgetHolder } from "./thread-locks";
import type { Window } from "./window/window";

/**
 * What the guard needs to clean up after an instance: never the instance itself, or it could not be
 * collected. Both are cleared when the instance closes, and set again when a guard is reused.
 */
interface Held {
  window: Window | undefined;
  backend: SyncBackend | undefined;
}

/**
 * One registration with the registry, reused from file to file: an instance holds its guard, the guard
 * holds the registered token, so the token is collected exactly when an open instance is. Registering
 * and unregistering every file cost more than the file's own JavaScript where system calls are dear
 * (BENCHMARKS.md, "The leak guard"). Internal.
 */
export interface Guard {
  readonly token: object;
  readonly held: Held;
}

/**
 * Closes the descriptor of a file instance that became unreachable without `close()`, with a process
 * warning, as Node does for a `FileHandle`. Its unflushed writes are **discarded**, and the warning
 * says how many bytes: writing them this late could replay old data over newer data that another
 * writer has put there since (the JDK, unbuffered, wrote them when they were made). A guard dropped
 * while free (the pool was full) holds no window: nothing to do.
 */
const registry = new FinalizationRegistry<Held>((held) => {
  const { window, backend } = held;
  if (window === undefined || backend === undefined) return;
  held.window = undefined;
  held.backend = undefined;
  open.delete(window);
  if (window.closed) return;
  forgetHolder(window);
  const unflushed = window.unflushedBytes();
  const lost = unflushed > 0 ? `; its ${unflushed} unflushed bytes were discarded` : "";
  window.markClosed();
  backend.close(window.fd);
  process.emitWarning(
    `Closing file descriptor ${window.fd} of '${window.path}' on garbage collection${lost}. Close RandomAccessFile instances explicitly (close() or \`using\`).`,
    { type: "Warning", code: "RAFKIT_UNCLOSED_FILE" },
  );
});

/** Guards of closed files, ready for the next open; a guard beyond these is dropped (its token collected). */
const free: Guard[] = [];
const MAX_FREE_GUARDS = 64;

/**
 * The open instances of a worker thread. When the process ends the OS closes every descriptor, but a worker
 * that ends leaves its descriptors, and the locks on them, to the process: its `exit` closes them (without
 * writing, as at collection). A `terminate()`d worker runs no JavaScript at its end: its files stay open.
 */
const open = new Map<Window, Held>();
let exitHooked = false;

function closeOpen(): void {
  for (const { window, backend } of open.values()) {
    if (window === undefined || backend === undefined || window.closed) continue;
    if (window.callsInFlight > 0) {
      leaveOpen(window);
      continue;
    }
    window.markClosed();
    forgetHolder(window);
    backend.close(window.fd);
  }
  open.clear();
}

/**
 * A file with an async call still on the thread pool, which runs it after the worker is gone: closed now, its
 * number could name a file opened since, which the call would write into; unlocked now, the call could write over
 * what the next holder wrote under the lock. It stays open, locked, until the process exits, as a `terminate()`d
 * worker's files do.
 */
function leaveOpen(window: Window): void {
  window.markClosed();
  forgetHolder(window);
}

/**
 * Watches an instance's `window`: the instance keeps the returned guard (and nothing else may), and if it
 * is collected while `window` is open, the descriptor is closed (without writing). Nothing happens at
 * process exit: unflushed writes of files never closed are lost, as a Java `BufferedOutputStream` never
 * flushed loses them, and for the same reason as at collection. At a worker's exit, its descriptors are
 * closed the same way.
 */
export function guard(window: Window, backend: SyncBackend): Guard {
  let g = free.pop();
  if (g === undefined) {
    const held: Held = { window: undefined, backend: undefined };
    const token = {};
    registry.register(token, held);
    g = { token, held };
  }
  g.held.window = window;
  g.held.backend = backend;
  if (!isMainThread) {
    open.set(window, g.held);
    if (!exitHooked) {
      exitHooked = true;
      process.once("exit", closeOpen);
    }
  }
  return g;
}

/**
 * Stops watching (after an explicit close): the instance must drop `g` (a closed instance still reachable
 * must not hold the guard the next open takes). Nothing for `undefined` (already given back).
 */
export function unguard(g: Guard | undefined): void {
  if (g === undefined) return;
  const window = g.held.window;
  if (window !== undefined) open.delete(window);
  g.held.window = undefined;
  g.held.backend = undefined;
  if (free.length < MAX_FREE_GUARDS) free.push(g);
}
