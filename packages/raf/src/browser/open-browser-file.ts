import {
  type Backend,
  blobBackend,
  errnoOf,
  type FileMode,
  registerBlob,
  systemCallError,
} from "@rafkit/syscall-state/browser";
import { checkOptions } from "../errors";
import { parseMode } from "../modes";
import { planOpen } from "../open-file";
import type { RandomAccessFileOptions } from "../options";

/** A `Blob`'s reads are `slice().arrayBuffer()` round trips: a larger window than a file's pays off. */
export const BLOB_BUFFER_SIZE = 64 * 1024;

/** Where a browser open goes: a `Blob` becomes a path of the blob backend, a path stays on OPFS (or `options.backend`). */
export function browserTarget(
  target: string | URL | Blob,
  mode: FileMode,
  options: RandomAccessFileOptions,
  sync = false,
): { path: string | URL; options: RandomAccessFileOptions; backend: Backend } {
  parseMode(mode);
  checkOptions(options);
  if (typeof Blob !== "undefined" && target instanceof Blob) {
    const backend = blobBackend();
    // `undefined` is the default, here the Blob's (spread, it overrode it with the file's 8 KiB).
    const bufferSize = options.bufferSize === undefined ? BLOB_BUFFER_SIZE : options.bufferSize;
    const blobOptions = { ...options, bufferSize, backend };
    // Every check of the open first: a Blob registered for an open that then fails would be kept forever.
    planOpen("blob:", mode, blobOptions);
    if (sync) refuseSyncWithout(backend, "blob:");
    return { path: registerBlob(target), options: blobOptions, backend };
  }
  // The open's own checks first (the path's type, a `file:` URL, the backend): typed errors, as on Node.
  const plan = planOpen(target as string | URL, mode, options);
  if (sync) refuseSyncWithout(plan.backend, plan.path);
  return { path: plan.path, options: { ...options, backend: plan.backend }, backend: plan.backend };
}

/**
 * `ENOSYS` at the open, rather than at every call after it, where the sync class cannot work on this thread: the
 * page's OPFS backend (`opfs-worker`) answers only its async twins, and a `Blob`'s sync reads need `FileReaderSync`.
 */
function refuseSyncWithout(backend: Backend, path: string): void {
  const reader = (globalThis as { FileReaderSync?: unknown }).FileReaderSync;
  const missing =
    backend.name === "opfs-worker"
      ? "OPFS has synchronous access handles"
      : backend.name === "blob" && typeof reader !== "function"
        ? "a Blob has synchronous reads (FileReaderSync)"
        : undefined;
  if (missing === undefined) return;
  const error = systemCallError(-errnoOf("ENOSYS"), "open", path);
  error.message = `${missing} only in a worker: on this thread use AsyncRandomAccessFile (ENOSYS, open '${path}')`;
  throw error;
}
