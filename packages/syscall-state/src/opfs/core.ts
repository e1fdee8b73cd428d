import type { FileMode } from "../backend";
import type { OpfsDirectoryHandle, SyncAccessHandle } from "./dom";

/** What {@link opfsCore} returns: one call per method, each a result or `-errno`. @internal */
export interface OpfsCore {
  open(path: string, mode: FileMode): Promise<number>;
  read(fd: number, buffer: Uint8Array, position: number): number;
  write(fd: number, buffer: Uint8Array, position: number): number;
  size(fd: number): number;
  truncate(fd: number, length: number): number;
  flush(fd: number): number;
  close(fd: number): number;
}

/**
 * The OPFS file table of one dedicated worker: descriptors over `FileSystemSyncAccessHandle`s.
 *
 * Self-contained on purpose (no outer names: `errno` comes in as an argument), because the main thread's
 * backend runs this very function's source in a worker it starts from a `Blob` URL, whatever bundler
 * built the page. Every handle is opened `readwrite-unsafe`, so several contexts can hold one file open
 * and locks, not the handle, decide who writes; mode `r` is enforced here (`-EBADF` on write, as an
 * `O_RDONLY` descriptor answers). @internal
 */
export function opfsCore(errno: Readonly<Record<string, number>>): OpfsCore {
  const files = new Map<number, { handle: SyncAccessHandle; writable: boolean }>();
  let next = 3;
  const fail = (name: string): number => -(errno[name] ?? errno["EIO"] ?? 5);
  // DOMException names to errno: the same codes Node's fs gives the same situations.
  const failure = (error: unknown, notDirectory: boolean): number => {
    const name = (error as { name?: string } | null)?.name;
    switch (name) {
      case "NotFoundError":
        return fail("ENOENT");
      case "NoModificationAllowedError":
        return fail("EBUSY");
      case "QuotaExceededError":
        return fail("ENOSPC");
      case "InvalidStateError":
        return fail("EBADF");
      case "TypeMismatchError":
        return fail(notDirectory ? "ENOTDIR" : "EISDIR");
      case "NotAllowedError":
      case "SecurityError":
        return fail("EACCES");
      case "TypeError":
        return fail("EINVAL");
      default:
        return fail("EIO");
    }
  };
  /** `parent`'s directory `name`; made when missing and `create` allows, and then noted in `made`. */
  const existing = async (
    parent: OpfsDirectoryHandle,
    name: string,
    create: boolean,
    made: [OpfsDirectoryHandle, string][],
  ): Promise<OpfsDirectoryHandle> => {
    try {
      return await parent.getDirectoryHandle(name, { create: false });
    } catch (error) {
      if (!create || (error as { name?: string } | null)?.name !== "NotFoundError") throw error;
    }
    const dir = await parent.getDirectoryHandle(name, { create: true });
    made.push([parent, name]);
    return dir;
  };
  const call = (fd: number, write: boolean, body: (handle: SyncAccessHandle) => number): number => {
    const file = files.get(fd);
    if (file === undefined) return fail("EBADF");
    if (write && !file.writable) return fail("EBADF");
    try {
      return body(file.handle);
    } catch (error) {
      return failure(error, false);
    }
  };
  return {
    async open(path, mode) {
      if (path === "") return fail("ENOENT"); // as open("") on Linux
      const names = path.split("/").filter((name) => name !== "" && name !== ".");
      const leaf = names.pop();
      if (leaf === undefined) return fail("EISDIR");
      const create = mode !== "r";
      // A trailing "/" (or "/.") names a directory: never a file, so EISDIR or ENOTDIR, as on Linux.
      const directoryOnly = path.endsWith("/") || path.endsWith("/.");
      const storage = (
        globalThis as unknown as {
          navigator: { storage: { getDirectory(): Promise<OpfsDirectoryHandle> } };
        }
      ).navigator.storage;
      let dir: OpfsDirectoryHandle;
      // The directories this open made, removed again if it fails: a refused open changes nothing.
      const made: [parent: OpfsDirectoryHandle, name: string][] = [];
      const undo = async (answer: number) => {
        for (const [parent, name] of made.reverse()) await parent.removeEntry(name).catch(() => {});
        return answer;
      };
      try {
        dir = await storage.getDirectory();
        for (const name of names) dir = await existing(dir, name, create && !directoryOnly, made);
      } catch (error) {
        return undo(failure(error, true));
      }
      if (directoryOnly) {
        try {
          await dir.getDirectoryHandle(leaf, { create: false });
          return fail("EISDIR");
        } catch (error) {
          const missing = (error as { name?: string } | null)?.name === "NotFoundError";
          return missing && create ? fail("EISDIR") : failure(error, true);
        }
      }
      try {
        const file = await dir.getFileHandle(leaf, { create });
        const handle = await file.createSyncAccessHandle({ mode: "readwrite-unsafe" });
        const fd = next++;
        files.set(fd, { handle, writable: create });
        return fd;
      } catch (error) {
        return undo(failure(error, false));
      }
    },
    read: (fd, buffer, position) => call(fd, false, (h) => h.read(buffer, { at: position })),
    write: (fd, buffer, position) => call(fd, true, (h) => h.write(buffer, { at: position })),
    size: (fd) => call(fd, false, (h) => h.getSize()),
    // ftruncate(2) on a descriptor not open for writing: EINVAL on Linux.
    truncate: (fd, length) =>
      files.get(fd)?.writable === false
        ? fail("EINVAL")
        : call(fd, true, (h) => {
            h.truncate(length);
            return 0;
          }),
    flush: (fd) =>
      call(fd, false, (h) => {
        if (files.get(fd)?.writable === true) h.flush();
        return 0;
      }),
    close(fd) {
      const file = files.get(fd);
      if (file === undefined) return fail("EBADF");
      files.delete(fd);
      try {
        file.handle.close();
        return 0;
      } catch (error) {
        return failure(error, false);
      }
    },
  };
}
