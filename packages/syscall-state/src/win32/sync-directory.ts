import { adaptSystemCall } from "../adapter";
import { nodeBackend } from "../node-backend";
import { type NativeKernel32, nativeKernel32 } from "./kernel32";
import { errnoFromWin32 } from "./win32-errors";
import { win32Path } from "./win32-path";

const GENERIC_READ_WRITE = 0x80000000 | 0x40000000;
const FILE_SHARE_ALL = 0x7;
const OPEN_EXISTING = 3;
const FILE_FLAG_BACKUP_SEMANTICS = 0x02000000;

/**
 * Windows' directory flush: a handle to the directory itself (backup semantics), opened for writing
 * (`FlushFileBuffers` needs it), and flushed. Without kernel32 (koffi missing) nothing can flush a directory
 * (node:fs refuses its fsync with EPERM): it answers 0 once the directory opens, as Java programs there skip the
 * step; NTFS journals the entries, written within seconds. `kernel32` is for tests. @internal
 */
export function windowsSyncDirectory(
  path: string,
  kernel32: () => NativeKernel32 = nativeKernel32,
): number {
  let k: NativeKernel32;
  try {
    k = kernel32();
  } catch {
    const b = nodeBackend();
    const fd = b.open(path, "r");
    if (fd < 0) return fd;
    return b.close(fd);
  }
  const open = adaptSystemCall(k.CreateFileW, "GetLastError");
  const flush = adaptSystemCall(k.FlushFileBuffers, "GetLastError", "zero");
  const handle = open(
    win32Path(path),
    GENERIC_READ_WRITE,
    FILE_SHARE_ALL,
    null,
    OPEN_EXISTING,
    FILE_FLAG_BACKUP_SEMANTICS,
    0,
  );
  if (handle < 0) return errnoFromWin32(-handle);
  const r = flush(handle);
  k.CloseHandle(handle);
  return r > 0 ? 0 : errnoFromWin32(-r);
}
