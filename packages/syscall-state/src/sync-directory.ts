import { getBackend } from "./get-backend";
import { windowsSyncDirectory } from "./win32/sync-directory";

/**
 * Makes the creations, renames and deletions in directory `path` durable. Returns 0, or `-errno` of
 * the step that failed (the open, or the flush). POSIX: `open(path, O_RDONLY)` and `fsync` (a file
 * system that cannot fsync directories answers `-EINVAL`). Windows, where Node refuses a directory's
 * fsync with `EPERM`: `CreateFileW` with `FILE_FLAG_BACKUP_SEMANTICS` for read and write, then
 * `FlushFileBuffers` on that directory handle, which flushes its entries (NTFS).
 *
 * @example
 * fs.renameSync(tmp, path);
 * const r = syncDirectory(dir);
 * if (r < 0) throw systemCallError(r, "fsync", dir);
 */
export function syncDirectory(path: string): number {
  if (process.platform === "win32") return windowsSyncDirectory(path);
  const backend = getBackend();
  const fd = backend.open(path, "r");
  if (fd < 0) return fd;
  const r = backend.sync(fd);
  backend.close(fd);
  return r;
}
