import {
  type Backend,
  blobBackend,
  type FileMode,
  getBackend,
  registerBlob,
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
): { path: string | URL; options: RandomAccessFileOptions; backend: Backend } {
  parseMode(mode);
  checkOptions(options);
  if (typeof Blob !== "undefined" && target instanceof Blob) {
    const backend = blobBackend();
    const blobOptions = { bufferSize: BLOB_BUFFER_SIZE, ...options, backend };
    // Every check of the open first: a Blob registered for an open that then fails would be kept forever.
    planOpen("blob:", mode, blobOptions);
    return { path: registerBlob(target), options: blobOptions, backend };
  }
  const backend =
    typeof options.backend === "object" ? options.backend : getBackend(options.backend ?? "auto");
  return { path: target as string | URL, options: { ...options, backend }, backend };
}
