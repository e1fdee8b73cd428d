import type { SyncBackend } from "@rafkit/syscall-state";
import type { Window } from "./window";

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
const registry = new FinalizationRegistry<Held>(({ window, backend }) => {
  if (window.closed) return;
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
 * Watches `owner`: if it is collected while `window` is open, closes the descriptor (without writing).
 * Nothing happens at process exit: unflushed writes of files never closed are lost, as a Java
 * `BufferedOutputStream` never flushed loses them, and for the same reason as at collection.
 */
export function guard(owner: object, window: Window, backend: SyncBackend): void {
  registry.register(owner, { window, backend }, window);
}

/** Stops watching (after an explicit close). */
export function unguard(window: Window): void {
  registry.unregister(window);
}
