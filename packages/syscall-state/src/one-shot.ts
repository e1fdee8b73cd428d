import type { SyncBackend } from "./backend";
import { ComposedBackend } from "./compose-backend";

/** A backend's single-call `pread` and `pwrite`, as {@link oneShotTransfers} hands them out. */
export type OneShotTransfers = Pick<SyncBackend, "pread" | "pwrite">;

/**
 * The `pread` and `pwrite` underneath one of this package's backends: one system call each, without the
 * backend's argument checks and without its EINTR retry (`-EINTR` comes back as an answer): the native and node
 * backends, and `@rafkit/syscall-state/testing`'s `faultBackend` and a `crashRecorder`'s backend, built on the
 * same loops. `undefined` for any other backend (a copy or wrapper made elsewhere), whose own methods are the way
 * in. The answer
 * holds for the backend as it is when asked: a caller keeps it (a file, from its open), so a `pread` or
 * `pwrite` patched onto the backend later does not see the calls made through it.
 *
 * For a file object that passes only arguments it owns (its open descriptor, a view of its own buffer,
 * its pointer) and treats every answer but the full length as its slow path: unbuffered, it would pay
 * the checks on every primitive for nothing. Memory stays safe without them: a range outside `buffer`
 * throws before native code runs. But `position` is not checked: it must be a safe integer (the node
 * backend takes anything else for the current offset, the native one rounds it). Faults injected by
 * `@rafkit/syscall-state/testing` reach these calls.
 */
export function oneShotTransfers(backend: SyncBackend): OneShotTransfers | undefined {
  const p = ComposedBackend.transfersOf(backend);
  return p === undefined ? undefined : { pread: p.pread, pwrite: p.pwrite };
}
