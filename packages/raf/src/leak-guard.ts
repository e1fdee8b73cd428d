import type { SyncBackend } from "@rafkit/syscall-state";
import { IO, type Window } from "./window";

/** What the guard needs to clean up after an instance: never the instance itself, or it could not be collected. */
interface Held {
  readonly window: Window;
  readonly backend: SyncBackend;
}

/** Writes the window's dirty range with synchronous `pwrite`s, as `flush()` would. */
function flushNow({ window, backend }: Held): void {
  while (window.planFlush() === IO) {
    window.complete(
      backend.pwrite(window.fd, window.ioBuf, window.ioOff, window.ioLen, window.ioPos),
    );
  }
}

/** Every guarded, still-open file, so a normal process exit can flush what its owner forgot to. */
const open = new Map<Window, Held>();
let exitHookInstalled = false;

/**
 * Closes the descriptor of a `RandomAccessFile` that became unreachable without `close()`, with a
 * process warning, as Node does for a `FileHandle`. Its unflushed writes are flushed first when
 * possible (a synchronous `pwrite`, as `close()` would do); if that fails they are lost, and the
 * warning says so.
 */
const registry = new FinalizationRegistry<Held>((held) => {
  open.delete(held.window);
  const { window, backend } = held;
  if (window.closed) return;
  let lost = "";
  try {
    flushNow(held);
  } catch (error) {
    lost = `; its unflushed data was lost (${(error as Error).message})`;
  }
  window.markClosed();
  backend.close(window.fd);
  process.emitWarning(
    `Closing file descriptor ${window.fd} of '${window.path}' on garbage collection${lost}. Close RandomAccessFile instances explicitly (close() or \`using\`).`,
    { type: "Warning", code: "RAFKIT_UNCLOSED_FILE" },
  );
});

/**
 * At a normal exit (not a signal or a crash), writes the unflushed data of files never closed, so
 * buffering loses nothing that the JDK's unbuffered `RandomAccessFile` would have written. The OS
 * closes the descriptors.
 */
function flushAllAtExit(): void {
  for (const held of open.values()) {
    try {
      flushNow(held);
    } catch {
      // Exiting: nowhere left to report it.
    }
  }
}

/** Watches `owner`: if it is collected while `window` is open, closes the descriptor; at exit, flushes it. */
export function guard(owner: object, window: Window, backend: SyncBackend): void {
  const held = { window, backend };
  open.set(window, held);
  registry.register(owner, held, window);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", flushAllAtExit);
  }
}

/** Stops watching (after an explicit close). */
export function unguard(window: Window): void {
  registry.unregister(window);
  open.delete(window);
}
