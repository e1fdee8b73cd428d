import type { FileMode } from "../backend";
import { shareClassIdentity } from "../class-identity";
import type { Primitives } from "../primitives";
import type { OpfsCore } from "./core";

/**
 * Thrown by a browser backend's synchronous `open`: OPFS and `Blob`s open asynchronously. Open with
 * `await RandomAccessFile.open(path, mode)` (or `openAsync`), which hands the constructor an open descriptor.
 */
export class AsyncOpenRequiredError extends Error {
  static {
    shareClassIdentity(this, "@rafkit/syscall-state.AsyncOpenRequiredError");
  }
  /** Always `"AsyncOpenRequiredError"`. */
  override readonly name = "AsyncOpenRequiredError";
  /** Stable error code: `"ERR_RAFKIT_ASYNC_OPEN"`. */
  readonly code = "ERR_RAFKIT_ASYNC_OPEN";

  constructor(backend: string, path: string) {
    super(
      `The ${backend} backend opens files asynchronously: use await RandomAccessFile.open('${path}', mode) instead of new RandomAccessFile(...)`,
    );
  }
}

/** The one-shot calls the browser backends share, where they do nothing or cannot. @internal */
export function unsupportedCalls(
  errno: Readonly<Record<string, number>>,
  known: (fd: number) => boolean,
) {
  const enotsup = -errno["ENOTSUP"]!;
  const badfOr = (fd: number, r: number) => (known(fd) ? r : -errno["EBADF"]!);
  return {
    lock: (fd: number) => badfOr(fd, enotsup),
    unlock: (fd: number) => badfOr(fd, enotsup),
    lockAsync: (fd: number) => Promise.resolve(badfOr(fd, enotsup)),
    // posix_fadvise is advice: accepted and ignored, as where the platform lacks it.
    fadvise: (fd: number) => badfOr(fd, 0),
    allocate: (fd: number) => badfOr(fd, enotsup),
  };
}

/**
 * {@link Primitives} over an {@link opfsCore} running in this (dedicated worker) thread: every call is
 * synchronous, and the async twins are the same calls, already settled. @internal
 */
export function opfsPrimitives(
  core: OpfsCore,
  errno: Readonly<Record<string, number>>,
): Primitives {
  const known = (fd: number) => core.size(fd) !== -errno["EBADF"]!;
  const rest = unsupportedCalls(errno, known);
  const p: Primitives = {
    name: "opfs",
    open(path: string) {
      throw new AsyncOpenRequiredError("opfs", path);
    },
    close: (fd) => core.close(fd),
    pread: (fd, buffer, offset, length, position) =>
      core.read(fd, buffer.subarray(offset, offset + length), position),
    pwrite: (fd, buffer, offset, length, position) =>
      core.write(fd, buffer.subarray(offset, offset + length), position),
    size: (fd) => core.size(fd),
    truncate: (fd, length) => core.truncate(fd, length),
    sync: (fd) => core.flush(fd),
    datasync: (fd) => core.flush(fd),
    lock: rest.lock,
    unlock: rest.unlock,
    fadvise: rest.fadvise,
    allocate: rest.allocate,
    openAsync: (path: string, mode: FileMode) => core.open(path, mode),
    closeAsync: async (fd) => p.close(fd),
    preadAsync: async (fd, buffer, offset, length, position) =>
      p.pread(fd, buffer, offset, length, position),
    pwriteAsync: async (fd, buffer, offset, length, position) =>
      p.pwrite(fd, buffer, offset, length, position),
    sizeAsync: async (fd) => p.size(fd),
    truncateAsync: async (fd, length) => p.truncate(fd, length),
    syncAsync: async (fd) => p.sync(fd),
    datasyncAsync: async (fd) => p.datasync(fd),
    lockAsync: rest.lockAsync,
  };
  return p;
}
