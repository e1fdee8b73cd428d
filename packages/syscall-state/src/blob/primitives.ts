import type { FileMode } from "../backend";
import { AsyncOpenRequiredError, unsupportedCalls } from "../opfs/primitives";
import type { Primitives } from "../primitives";

/** `FileReaderSync`, in workers: a `Blob`'s bytes without a promise. */
type FileReaderSyncConstructor = new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer };

/** The `Blob`s waiting to be opened, by the path {@link BlobFiles.register} gave them. @internal */
export interface BlobFiles {
  /** A path naming `blob` for `openAsync` (`blob:<n>/<file name>`). */
  register(blob: Blob): string;
}

/**
 * {@link Primitives} over `Blob`s (a `File` the user picked or dropped): read-only, as an `O_RDONLY`
 * descriptor (`pwrite` `-EBADF`, `truncate` `-EINVAL`, opening for writing `-EACCES`). Reads are
 * `slice().arrayBuffer()`; the sync `pread` uses `FileReaderSync` in workers (`-ENOSYS` on a page's
 * main thread). @internal
 */
export function blobPrimitives(errno: Readonly<Record<string, number>>): Primitives & BlobFiles {
  const waiting = new Map<string, Blob>();
  const open = new Map<number, Blob>();
  let next = 3;
  let named = 0;
  const e = (name: string) => -errno[name]!;
  const rest = unsupportedCalls(errno, (fd) => open.has(fd));
  const readSync = (globalThis as { FileReaderSync?: FileReaderSyncConstructor }).FileReaderSync;
  const copy = (into: Uint8Array, offset: number, bytes: ArrayBuffer) => {
    into.set(new Uint8Array(bytes), offset);
    return bytes.byteLength;
  };
  const p: Primitives & BlobFiles = {
    name: "blob",
    register(blob) {
      const name = (blob as { name?: unknown }).name;
      // A NUL in a file's name would make the path one no open takes, and the Blob would stay here for ever.
      const shown = typeof name === "string" ? name.replaceAll("\u0000", "") : "";
      const path = `blob:${++named}/${shown}`;
      waiting.set(path, blob);
      return path;
    },
    open(path: string) {
      throw new AsyncOpenRequiredError("blob", path);
    },
    close: (fd) => (open.delete(fd) ? 0 : e("EBADF")),
    pread(fd, buffer, offset, length, position) {
      const blob = open.get(fd);
      if (blob === undefined) return e("EBADF");
      if (readSync === undefined) return e("ENOSYS");
      try {
        return copy(
          buffer,
          offset,
          new readSync().readAsArrayBuffer(blob.slice(position, position + length)),
        );
      } catch {
        return e("EIO"); // NotReadableError: a File whose file changed or went since it was picked
      }
    },
    pwrite: () => e("EBADF"),
    size: (fd) => open.get(fd)?.size ?? e("EBADF"),
    truncate: (fd) => (open.has(fd) ? e("EINVAL") : e("EBADF")),
    sync: (fd) => (open.has(fd) ? 0 : e("EBADF")),
    datasync: (fd) => (open.has(fd) ? 0 : e("EBADF")),
    lock: rest.lock,
    unlock: rest.unlock,
    fadvise: rest.fadvise,
    allocate: rest.allocate,
    async openAsync(path: string, mode: FileMode) {
      const blob = waiting.get(path);
      if (blob === undefined) return e("ENOENT");
      if (mode !== "r") {
        waiting.delete(path); // refused: nothing keeps the Blob
        return e("EACCES");
      }
      waiting.delete(path);
      const fd = next++;
      open.set(fd, blob);
      return fd;
    },
    closeAsync: async (fd) => p.close(fd),
    async preadAsync(fd, buffer, offset, length, position) {
      const blob = open.get(fd);
      if (blob === undefined) return e("EBADF");
      let bytes: ArrayBuffer;
      try {
        bytes = await blob.slice(position, position + length).arrayBuffer();
      } catch {
        return e("EIO"); // as the sync read
      }
      return copy(buffer, offset, bytes);
    },
    pwriteAsync: async (fd) => p.pwrite(fd, new Uint8Array(0), 0, 0, 0),
    sizeAsync: async (fd) => p.size(fd),
    truncateAsync: async (fd) => p.truncate(fd, 0),
    syncAsync: async (fd) => p.sync(fd),
    datasyncAsync: async (fd) => p.datasync(fd),
    lockAsync: rest.lockAsync,
  };
  return p;
}
