import type { SyncBackend } from "./backend";
import { ComposedBackend } from "./compose-backend";

/**
 * What names the open file behind `fd` of `backend`, the same for every descriptor of one file (another
 * spelling of its path, a hard link, a handle of another instance), or `undefined` where the backend cannot say:
 * on Windows the native backend's volume serial number and 128-bit file id (`FileIdInfo`). Elsewhere a descriptor
 * is the OS's own, and `fstat`'s device and inode say it (`node:fs` cannot stat a Windows `HANDLE`).
 *
 * @example
 * const a = backend.open("data.bin", "rw");
 * const b = backend.open("DATA.BIN", "rw"); // Windows: the same file
 * fileIdentity(backend, a) === fileIdentity(backend, b); // true (undefined on Linux: use fstat)
 */
export function fileIdentity(backend: SyncBackend, fd: number): string | undefined {
  return ComposedBackend.transfersOf(backend)?.identity?.(fd);
}
