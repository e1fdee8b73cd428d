import { isMainThread } from "node:worker_threads";
import type { SyncBackend } from "@rafkit/syscall-state";
import { forgetHolder } from "./thread-locks";
import type { Window } from "./window/window";

/** What the guard needs to clean up after an instance: never the instance itself, or it could not be collected. */
interface Held {
  readonly window: Window;
  readonly backend: SyncBackend;
}

/**
 * Closes the descriptor of a file instance that became unreachable without `close()`, with a process
 * warning, as Node does for a `FileHandle`. Its unflushed writes are **discarded**, and the warning
 * says how many bytes: writing them this late could replay old data over newer data that another
 * writer has put there since (the JDK, unbuffered, wrote them when they were made).
 */
const registry = new FinalizationRegistry<Held>((held) => {
  const { window, backend } = held;
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

/**
 * The open instances of a worker thread. When the process ends the OS closes every descriptor, but a worker
 * that ends leaves its descriptors, and the locks on them, to the process: its `exit` closes them (without
 * writing, as at collection). A `terminate()`d worker runs no JavaScript at its end: its files stay open.
 */
const open = new Map<Window, Held>();
let exitHooked = false;

function closeOpen(): void {
  for (const { window, backend } of open.values()) {
    if (window.closed) continue;
    window.markClosed();
    forgetHolder(window);
    backend.close(window.fd);
  }
  open.clear();
}

/**
 * Watches `owner`: if it is collected while `window` is open, closes the descriptor (without writing).
 * Nothing happens at process exit: unflushed writes of files never closed are lost, as a Java
 * `BufferedOutputStream` never flushed loses them, and for the same reason as at collection. At a
 * worker's exit, its descriptors are closed the same way.
 */
export function guard(owner: object, window: Window, backend: SyncBackend): void {
  const held = { window, backend };
  registry.register(owner, held, window);
  if (isMainThread) return;
  open.set(window, held);
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", closeOpen);
  }
}

/** Stops watching (after an explicit close). */
export function unguard(window: Window): void {
  registry.unregister(window);
  open.delete(window);
}
