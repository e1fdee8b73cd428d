import type { Backend, BackendFeatures } from "../backend";
import { blobPrimitives } from "../blob/primitives";
import { ComposedBackend } from "../compose-backend";
import { opfsCore } from "../opfs/core";
import { opfsPrimitives } from "../opfs/primitives";
import { opfsWorkerPrimitives } from "../opfs/worker-primitives";
import { BROWSER_ERRNO } from "./errno-table";

const errno: Record<string, number> = {};
for (const [name, [value]] of Object.entries(BROWSER_ERRNO)) errno[name] = value;

/** Browser backends have no byte-range locks of their own (Web Locks are raf's, by path), no fallocate, no fadvise. */
const FEATURES: BackendFeatures = { locks: false, allocate: false, fadvise: false };

let opfs: Backend | undefined;
let blob: (Backend & { register(blob: Blob): string }) | undefined;

/** Whether this thread can hold `FileSystemSyncAccessHandle`s (a dedicated worker). */
export function hasSyncAccessHandles(): boolean {
  return (
    typeof (globalThis as { FileSystemSyncAccessHandle?: unknown }).FileSystemSyncAccessHandle ===
    "function"
  );
}

/**
 * The Origin Private File System backend, with the result-or-`-errno` contract of every backend. In a
 * dedicated worker (`"opfs"`) each call is one synchronous `FileSystemSyncAccessHandle` call; on a page's
 * main thread (`"opfs-worker"`) only the async twins work, each a round trip to a worker this backend starts,
 * which owns the handles. Paths are `/`-separated inside the origin's private root; opening `rw` creates the
 * file and its directories. Handles open `readwrite-unsafe`, so several contexts can hold a file at once.
 * `NotFoundError` is `-ENOENT`, `NoModificationAllowedError` `-EBUSY`, `QuotaExceededError` `-ENOSPC`, a
 * closed handle (`InvalidStateError`) `-EBADF`. The sync `open` throws `AsyncOpenRequiredError`: use
 * `openAsync`. Returns the same instance every time.
 */
export function opfsBackend(): Backend {
  opfs ??= new ComposedBackend(
    hasSyncAccessHandles() ? opfsPrimitives(opfsCore(errno), errno) : opfsWorkerPrimitives(errno),
    FEATURES,
  );
  return opfs;
}

/**
 * A read-only backend over `Blob`s (a `File` the user picked or dropped). `registerBlob` names a blob;
 * `openAsync(name, "r")` opens it (`-EACCES` for a writing mode). Writes answer `-EBADF`, as on a file opened
 * `r`. Returns the same instance every time.
 */
export function blobBackend(): Backend {
  if (blob === undefined) {
    const primitives = blobPrimitives(errno);
    const composed = new ComposedBackend(primitives, FEATURES) as ComposedBackend & {
      register(blob: Blob): string;
    };
    composed.register = (b) => primitives.register(b);
    blob = composed;
  }
  return blob;
}

/** The path under which {@link blobBackend}'s `openAsync` opens `file` (once). */
export function registerBlob(file: Blob): string {
  return (blobBackend() as Backend & { register(blob: Blob): string }).register(file);
}

/**
 * `backend`, but its first synchronous `open` returns `fd` (already opened with `openAsync`) instead of
 * opening: how an async factory hands a descriptor to a constructor that opens synchronously. Every other
 * call goes to `backend`.
 */
export function withOpenDescriptor(backend: Backend, fd: number): Backend {
  let handed = false;
  const wrapped = Object.create(null) as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(ComposedBackend.prototype)) {
    const member = (backend as unknown as Record<string, unknown>)[key];
    if (key !== "constructor" && typeof member === "function") wrapped[key] = member.bind(backend);
  }
  wrapped["name"] = backend.name;
  wrapped["features"] = backend.features;
  wrapped["open"] = (path: string, mode: never) => {
    if (handed) return backend.open(path, mode);
    handed = true;
    return fd;
  };
  return wrapped as unknown as Backend;
}
