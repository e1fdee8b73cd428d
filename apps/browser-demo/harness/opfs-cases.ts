// What only OPFS decides: modes, directories, the DOMException-to-errno mapping, several handles at once.
import { RandomAccessFile } from "@rafkit/raf";
import { getBackend, opfsBackend } from "@rafkit/syscall-state";
import { eq, throwsCode } from "./check";

const root = () => navigator.storage.getDirectory();
const dir = `opfs-cases-${Date.now()}`;

export const opfsCases: Record<string, () => unknown> = {
  "r does not create: ENOENT (syscall open, the path)": async () => {
    let error: { code?: string; syscall?: string; path?: string } = {};
    try {
      await RandomAccessFile.open(`${dir}/missing.bin`, "r");
    } catch (e) {
      error = e as typeof error;
    }
    eq([error.code, error.syscall, error.path], ["ENOENT", "open", `${dir}/missing.bin`]);
    const entries: string[] = [];
    for await (const name of (await root()).keys()) entries.push(name);
    eq(entries.includes(dir), false, "no directory made by an r open");
  },
  "an rw open refused for its file name removes the directories it made, and only those":
    async () => {
      await RandomAccessFile.open(`${dir}/kept/k.bin`, "rw").then((f) => f.close());
      await throwsCode(() => RandomAccessFile.open(`${dir}/kept/new1/new2/x\\y`, "rw"), "EINVAL");
      const kept = await (await root())
        .getDirectoryHandle(dir)
        .then((d) => d.getDirectoryHandle("kept"));
      const entries: string[] = [];
      for await (const name of kept.keys()) entries.push(name);
      eq(entries, ["k.bin"], "new1 and new2 removed, kept/ and its file untouched");
    },
  "rw creates the file and its directories; r then opens it": async () => {
    const f = await RandomAccessFile.open(`${dir}/a/b/c.bin`, "rw");
    f.writeInt(5);
    f.close();
    const g = await RandomAccessFile.open(`/${dir}//a/./b/c.bin`, "r");
    eq(g.readInt(), 5);
    g.close();
  },
  "a write to a file opened r fails with EBADF, and setLength too": async () => {
    const f = await RandomAccessFile.open(`${dir}/a/b/c.bin`, "r");
    await throwsCode(() => f.writeInt(1), "EBADF");
    f.close();
    const fd = await opfsBackend().openAsync(`${dir}/a/b/c.bin`, "r");
    eq(opfsBackend().pwrite(fd, new Uint8Array(1), 0, 1, 0), -9, "pwrite on an r descriptor");
    opfsBackend().close(fd);
  },
  "a lock released or closed in this worker is free here at once: the next tryLockAsync gets it":
    async () => {
      const path = `${dir}/released.bin`;
      const a = await RandomAccessFile.open(path, "rw");
      const b = await RandomAccessFile.open(path, "rw");
      const held = await a.tryLockAsync();
      eq(await b.tryLockAsync(), null, "held by a");
      held?.release();
      const mine = await b.tryLockAsync();
      eq(mine?.isValid(), true, "right after a's release()");
      b.close();
      const again = await a.tryLockAsync();
      eq(again?.isValid(), true, "right after b's close()");
      a.close();
    },
  "a directory is EISDIR; a file used as a directory ENOTDIR": async () => {
    await throwsCode(() => RandomAccessFile.open(`${dir}/a/b`, "r"), "EISDIR");
    await throwsCode(() => RandomAccessFile.open(`${dir}/a/b/c.bin/d`, "rw"), "ENOTDIR");
  },
  'paths as on Linux: "" is ENOENT; a trailing slash names a directory (EISDIR, ENOTDIR), never a file':
    async () => {
      await throwsCode(() => RandomAccessFile.open("", "rw"), "ENOENT");
      await throwsCode(() => RandomAccessFile.open(`${dir}/a/b/c.bin/`, "r"), "ENOTDIR");
      await throwsCode(() => RandomAccessFile.open(`${dir}/a/b/c.bin/.`, "rw"), "ENOTDIR");
      await throwsCode(() => RandomAccessFile.open(`${dir}/a/b/`, "rw"), "EISDIR");
      await throwsCode(() => RandomAccessFile.open(`${dir}/a/new/`, "rw"), "EISDIR");
      await throwsCode(() => RandomAccessFile.open(`${dir}/a/new/`, "r"), "ENOENT");
      const names: string[] = [];
      const a = await (await (await root()).getDirectoryHandle(dir)).getDirectoryHandle("a");
      for await (const name of (a as unknown as { keys(): AsyncIterable<string> }).keys())
        names.push(name);
      eq(names, ["b"], "nothing made for a path that names a directory");
    },
  "another context's exclusive handle (NoModificationAllowedError) is EBUSY": async () => {
    const d = await (await root()).getDirectoryHandle(dir, { create: true });
    // The default mode ("readwrite") is exclusive: no other handle while it is open.
    const file = (await d.getFileHandle("held.bin", { create: true })) as FileSystemFileHandle & {
      createSyncAccessHandle(): Promise<{ close(): void }>;
    };
    const handle = await file.createSyncAccessHandle();
    try {
      await throwsCode(() => RandomAccessFile.open(`${dir}/held.bin`, "rw"), "EBUSY");
    } finally {
      handle.close();
    }
    (await RandomAccessFile.open(`${dir}/held.bin`, "rw")).close();
  },
  "readwrite-unsafe: two instances hold one file open, each sees the other's flushed writes":
    async () => {
      const a = await RandomAccessFile.open(`${dir}/shared.bin`, "rw");
      const b = await RandomAccessFile.open(`${dir}/shared.bin`, "rw");
      a.writeInt(0x11223344);
      a.flush();
      eq(b.readInt(), 0x11223344);
      b.writeIntAt(4, 7);
      b.flush();
      eq(a.readIntAt(4), 7);
      a.close();
      b.close();
    },
  "a closed descriptor is EBADF; beyond the quota is ENOSPC": async () => {
    const backend = opfsBackend();
    const fd = await backend.openAsync(`${dir}/q.bin`, "rw");
    const big = backend.pwrite(fd, new Uint8Array(1), 0, 1, 2 ** 52);
    eq(big, -28, "a write at 4 PiB (QuotaExceededError)");
    eq(backend.close(fd), 0);
    eq(
      [backend.pread(fd, new Uint8Array(1), 0, 1, 0), backend.size(fd), backend.close(fd)],
      [-9, -9, -9],
    );
  },
  "new RandomAccessFile() says to use the async factory; node and native backends do not exist":
    async () => {
      await throwsCode(() => new RandomAccessFile(`${dir}/x.bin`, "rw"), "ERR_RAFKIT_ASYNC_OPEN");
      await throwsCode(() => getBackend("node"), "ERR_INVALID_ARG_VALUE");
      await throwsCode(
        () => RandomAccessFile.open(`${dir}/x.bin`, "rx" as "r"),
        "ERR_INVALID_ARG_VALUE",
      );
    },
  "a Blob opens read-only in a worker too (FileReaderSync)": async () => {
    const f = await RandomAccessFile.open(
      new Blob([Uint8Array.of(0xca, 0xfe, 0xba, 0xbe, 0, 3)]),
      "r",
    );
    eq([f.readInt(), f.readShort(), f.length()], [0xcafebabe | 0, 3, 6]);
    await throwsCode(() => f.writeByte(1), "EBADF");
    f.close();
    await throwsCode(() => RandomAccessFile.open(new Blob([]), "rw"), "EACCES");
  },
};
