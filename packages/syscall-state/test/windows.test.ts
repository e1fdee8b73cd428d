import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { adaptSystemCall, lastErrno, type NativeFunction } from "../src/adapter";
import { errnoOf } from "../src/errno";
import { fileIdentity } from "../src/file-identity";
import { loadKoffi } from "../src/koffi";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { syncDirectory } from "../src/sync-directory";
import { nativeKernel32 } from "../src/win32/kernel32";
import { errnoFromWin32 } from "../src/win32/win32-errors";
import { neg, tempDir } from "./helpers";

// The win32 backend's own promises. Run under Wine's node.exe by scripts/ci/windows.sh; on other
// platforms only the translation table (pure data) is checked.
const windows = process.platform === "win32";

describe("Win32 error codes translate as libuv translates them", () => {
  test.each([
    [2, "ENOENT"], // ERROR_FILE_NOT_FOUND
    [3, "ENOENT"], // ERROR_PATH_NOT_FOUND
    [5, "EPERM"], // ERROR_ACCESS_DENIED, as Node 22's libuv says
    [6, "EBADF"], // ERROR_INVALID_HANDLE
    [32, "EBUSY"], // ERROR_SHARING_VIOLATION
    [33, "EBUSY"], // ERROR_LOCK_VIOLATION
    [112, "ENOSPC"], // ERROR_DISK_FULL
    [1, "EISDIR"], // ERROR_INVALID_FUNCTION
    [10038, "ENOTSOCK"], // WSAENOTSOCK
    [64, "ECONNRESET"], // ERROR_NETNAME_DELETED (a share gone mid-read)
    [121, "ETIMEDOUT"], // ERROR_SEM_TIMEOUT
    [231, "EBUSY"], // ERROR_PIPE_BUSY
    [232, "EPIPE"], // ERROR_NO_DATA
    [740, "EACCES"], // ERROR_ELEVATION_REQUIRED
    [1166, "EIO"], // ERROR_DEVICE_DOOR_OPEN
    [1464, "EINVAL"], // ERROR_SYMLINK_NOT_SUPPORTED
    [4392, "ENOENT"], // ERROR_INVALID_REPARSE_DATA
  ])("%i is %s", (code, name) => {
    expect(errnoFromWin32(code)).toBe(neg(name));
  });

  test("a code libuv does not translate is UNKNOWN, as Node names it", () => {
    expect(errnoFromWin32(158)).toBe(-4094);
  });
});

describe.skipIf(!windows)("win32 native backend (kernel32)", () => {
  // Only where the suite runs: a skipped suite's body still runs, and its afterAll never does.
  const dir = windows ? tempDir("win32") : "";
  let n = 0;
  const fresh = (name: string): string => join(dir, `${n++}-${name}`);
  const k = () => nativeKernel32();
  const koffi = () => loadKoffi();

  test("GetLastError through the adapter: read right after the call, sync and off the main thread", async () => {
    const createFile = adaptSystemCall(k().CreateFileW, "GetLastError");
    const missing = fresh("missing");
    const args = [missing, 0x80000000, 7, null, 3, 0x80, 0];
    expect(createFile(...args)).toBe(-2); // ERROR_FILE_NOT_FOUND
    expect(lastErrno()).toBe(2);
    expect(await createFile.async(...args)).toBe(-2);
    expect(await createFile.async(join(missing, "deeper"), ...args.slice(1))).toBe(-3);
    expect(createFile.stateName).toBe("GetLastError");
  });

  test("WSAGetLastError through the adapter: closesocket of a socket that is none is WSAENOTSOCK", () => {
    const closesocket = adaptSystemCall(k().closesocket, "WSAGetLastError");
    expect(closesocket(0x7ff0)).toBe(-10038);
    expect(lastErrno()).toBe(10038);
    expect(errnoFromWin32(10038)).toBe(neg("ENOTSOCK"));
  });

  test("BOOL calls fail on 0: CloseHandle of a bad handle is -ERROR_INVALID_HANDLE", async () => {
    const close = adaptSystemCall(k().CloseHandle, "GetLastError", "zero");
    expect(close(0x7ff0)).toBe(-6);
    expect(await close.async(0x7ff0)).toBe(-6);
  });

  test("a failure has the errno and code node:fs gives for the same failure", () => {
    const b = nativeBackend();
    const cases = [fresh("missing"), join(fresh("no-dir"), "x")];
    for (const path of cases) {
      let nodeErrno: number | undefined;
      try {
        openSync(path, "r");
      } catch (error) {
        nodeErrno = (error as { errno: number }).errno;
      }
      expect(b.open(path, "r")).toBe(nodeErrno);
      expect(nodeErrno).toBe(neg("ENOENT"));
    }
    // A handle that shares nothing: both answer EBUSY (ERROR_SHARING_VIOLATION).
    const path = fresh("exclusive");
    writeFileSync(path, "x");
    const h = k().CreateFileW(path, 0x80000000, 0, null, 3, 0x80, 0) as number;
    expect(h).toBeGreaterThan(0);
    try {
      let code: string | undefined;
      try {
        openSync(path, "r");
      } catch (error) {
        code = (error as { code: string }).code;
      }
      expect(code).toBe("EBUSY");
      expect(b.open(path, "r")).toBe(neg("EBUSY"));
    } finally {
      k().CloseHandle(h);
    }
  });

  test("r never creates; rw creates; a directory opens for r only (EISDIR for rw and for a read)", () => {
    const b = nativeBackend();
    const path = fresh("created");
    expect(b.open(path, "r")).toBe(neg("ENOENT"));
    expect(() => statSync(path)).toThrow();
    const fd = b.open(path, "rw");
    expect(fd).toBeGreaterThan(0);
    expect(statSync(path).size).toBe(0);
    expect(b.close(fd)).toBe(0);
    expect(b.close(fd)).toBe(neg("EBADF"));
    expect(b.open(dir, "rw")).toBe(neg("EISDIR"));
    const d = b.open(dir, "r");
    expect(d).toBeGreaterThan(0);
    expect(b.pread(d, new Uint8Array(1), 0, 1, 0)).toBe(neg("EISDIR"));
    expect(b.size(d)).toBe(neg("EISDIR"));
    expect(b.close(d)).toBe(0);
  });

  test("handles are not inheritable, and other handles may read, write, rename and delete", () => {
    const b = nativeBackend();
    const getInfo = koffi()
      .load("kernel32.dll")
      .func(
        "int __stdcall GetHandleInformation(intptr_t h, _Out_ uint32_t *flags)",
      ) as NativeFunction;
    const path = fresh("shared");
    writeFileSync(path, "abc");
    for (const mode of ["r", "rw", "rws", "rwd"] as const) {
      const fd = b.open(path, mode);
      const flags = [0xff];
      expect(getInfo(fd, flags)).not.toBe(0);
      expect(flags[0]! & 1).toBe(0); // HANDLE_FLAG_INHERIT
      const other = openSync(path, "r+");
      closeSync(other);
      expect(b.close(fd)).toBe(0);
    }
    const fd = b.open(path, "rw");
    const moved = fresh("moved");
    renameSync(path, moved);
    expect(b.pwrite(fd, Uint8Array.of(0x5a), 0, 1, 0)).toBe(1);
    expect(b.close(fd)).toBe(0);
    expect(readFileSync(moved, "latin1")).toBe("Zbc");
  });

  test("rws and rwd open write-through (FILE_WRITE_THROUGH in the handle's mode), rw does not; the node backend too", () => {
    const b = nativeBackend();
    const query = koffi()
      .load("ntdll.dll")
      .func(
        "int32_t __stdcall NtQueryInformationFile(intptr_t h, _Out_ uint64_t *status, _Out_ uint32_t *info, uint32_t length, int infoClass)",
      ) as NativeFunction;
    const path = fresh("through");
    writeFileSync(path, "x");
    const modeOf = (fd: number): number => {
      const status = [0];
      const mode = [0];
      expect(query(fd, status, mode, 4, 16)).toBe(0); // FileModeInformation
      return mode[0]!;
    };
    // The node backend's fd is the C runtime's: libuv, linked into node.exe, names its handle.
    const handleOf = koffi()
      .load(process.execPath)
      .func("intptr_t uv_get_osfhandle(int fd)") as NativeFunction;
    const n = nodeBackend();
    for (const [mode, through] of [
      ["rw", 0],
      ["rws", 2],
      ["rwd", 2],
    ] as const) {
      const fd = b.open(path, mode);
      expect(modeOf(fd) & 2).toBe(through); // FILE_WRITE_THROUGH
      b.close(fd);
      // Node on Windows has no O_SYNC: the node backend opened rws and rwd as rw.
      const nfd = n.open(path, mode);
      expect(modeOf(handleOf(nfd) as number) & 2).toBe(through);
      n.close(nfd);
    }
  });

  test("positions beyond 4 GiB are exact, sync and async; a read past the end is 0", async () => {
    const b = nativeBackend();
    const path = fresh("sparse");
    const fd = b.open(path, "rw");
    const far = 5 * 2 ** 32 + 3; // high DWORD 5, low DWORD 3
    const data = Uint8Array.of(1, 2, 3, 4);
    expect(b.pwriteFully(fd, data, 0, 4, far)).toBe(4);
    expect(b.size(fd)).toBe(far + 4);
    const back = new Uint8Array(4);
    expect(b.preadFully(fd, back, 0, 4, far)).toBe(4);
    expect([...back]).toEqual([1, 2, 3, 4]);
    expect(await b.pwriteFullyAsync(fd, Uint8Array.of(9), 0, 1, 2 ** 32)).toBe(1);
    expect(await b.preadAsync(fd, back, 0, 1, 2 ** 32)).toBe(1);
    expect(back[0]).toBe(9);
    expect(b.pread(fd, back, 0, 4, far + 4)).toBe(0);
    expect(await b.preadAsync(fd, back, 0, 4, far + 100)).toBe(0);
    expect(b.truncate(fd, 2 ** 32 + 1)).toBe(0);
    expect(await b.sizeAsync(fd)).toBe(2 ** 32 + 1);
    expect(await b.truncateAsync(fd, 0)).toBe(0);
    expect(b.size(fd)).toBe(0);
    expect(b.sync(fd)).toBe(0);
    expect(await b.datasyncAsync(fd)).toBe(0);
    expect(b.close(fd)).toBe(0);
  });

  test("locks are advisory: another handle still reads and writes the locked range, and only its lock conflicts", async () => {
    const b = nativeBackend();
    const path = fresh("locked");
    writeFileSync(path, Buffer.alloc(16));
    const a = b.open(path, "rw");
    const other = b.open(path, "rw");
    const exclusive = { shared: false, wait: false, position: 0, length: 0 };
    expect(b.lock(a, exclusive)).toBe(0);
    expect(b.pwrite(other, Uint8Array.of(7), 0, 1, 3)).toBe(1);
    const one = new Uint8Array(1);
    expect(b.pread(other, one, 0, 1, 3)).toBe(1);
    expect(one[0]).toBe(7);
    expect(b.lock(other, { ...exclusive, shared: true, position: 100, length: 1 })).toBe(
      neg("EAGAIN"),
    );
    expect(await b.lockAsync(other, exclusive)).toBe(neg("EAGAIN"));
    // Unlike POSIX, a handle's own exclusive lock conflicts with its next overlapping request.
    expect(b.lock(a, { ...exclusive, position: 2 ** 40, length: 8 })).toBe(neg("EAGAIN"));
    expect(b.unlock(a, 0, 0)).toBe(0);
    // unlock(0, 0) releases every lock of the handle, as on POSIX (Windows unlocks exact ranges only).
    expect(b.lock(a, { ...exclusive, position: 0, length: 10 })).toBe(0);
    expect(b.lock(a, { ...exclusive, position: 2 ** 40, length: 8 })).toBe(0);
    expect(b.unlock(a, 0, 0)).toBe(0);
    expect(b.lock(other, { ...exclusive, position: 5, length: 1 })).toBe(0);
    expect(b.unlock(other, 5, 1)).toBe(0);
    expect(b.lock(other, { ...exclusive, position: 2 ** 40, length: 1 })).toBe(0);
    expect(b.unlock(other, 2 ** 40, 1)).toBe(0);
    // A waiting lockAsync is granted once the holder lets go.
    expect(b.lock(a, exclusive)).toBe(0);
    const waiting = b.lockAsync(other, { ...exclusive, wait: true });
    setTimeout(() => b.unlock(a, 0, 0), 20);
    expect(await waiting).toBe(0);
    expect(b.close(a)).toBe(0);
    expect(b.close(other)).toBe(0);
    expect(b.unlock(a, 0, 0)).toBe(neg("EBADF"));
  });

  test("fadvise is accepted and ignored on a disk file; allocate is -ENOTSUP; both -EBADF on a bad handle", () => {
    const b = nativeBackend();
    expect(b.features).toEqual({ locks: true, allocate: false, fadvise: false });
    const path = fresh("advice");
    const fd = b.open(path, "rw");
    expect(b.fadvise(fd, 0, 0, "sequential")).toBe(0);
    expect(b.allocate(fd, 0, 10)).toBe(neg("ENOTSUP"));
    expect(b.close(fd)).toBe(0);
    expect(b.fadvise(0x7ff0, 0, 0, "normal")).toBe(neg("EBADF"));
    expect(b.allocate(0x7ff0, 0, 1)).toBe(neg("EBADF"));
    expect(errnoOf("ENOENT")).toBe(4058);
  });

  test("a DOS device name opens the device, as Java's does (namespaced, NUL was made a file)", () => {
    const b = nativeBackend();
    const dir = fresh("devices");
    mkdirSync(dir);
    for (const name of ["NUL", "nul.txt"]) {
      const fd = b.open(join(dir, name), "rw");
      expect(fd).toBeGreaterThanOrEqual(0);
      expect(b.pwrite(fd, new Uint8Array(4), 0, 4, 0)).toBe(4);
      expect(b.close(fd)).toBe(0);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  test("an async close forgets only its own handle's locks: a handle opened meanwhile with the same number keeps its own", async () => {
    const b = nativeBackend();
    const [first, second] = [fresh("closing"), fresh("reusing")];
    writeFileSync(first, "x");
    writeFileSync(second, "y");
    const range = { shared: false, wait: false, position: 5, length: 1 };
    let reused = 0;
    for (let k = 0; k < 5; k++) {
      const a = b.open(first, "rw");
      const closing = b.closeAsync(a);
      // The pool thread closes the handle while this thread is busy, so the next open may get its number
      // before the close's continuation runs (it dropped the new handle's lock records then).
      const until = Date.now() + 30;
      while (Date.now() < until);
      const c = b.open(second, "rw");
      if (c === a) reused++;
      expect(b.lock(c, range)).toBe(0);
      expect(await closing).toBe(0);
      expect(b.unlock(c, 0, 0)).toBe(0); // all of c's locks, which Windows releases range by range
      const other = b.open(second, "rw");
      expect(b.lock(other, range)).toBe(0);
      expect(b.close(other)).toBe(0);
      expect(b.close(c)).toBe(0);
    }
    expect(reused).toBeGreaterThan(0);
  });

  test("a name ending in a dot or a space is kept, as node:fs keeps it (Win32 alone would drop them)", () => {
    const b = nativeBackend();
    for (const name of ["dot.", "space "]) {
      const path = fresh(name);
      const fd = b.open(path, "rw");
      expect(b.pwrite(fd, new Uint8Array([7]), 0, 1, 0)).toBe(1);
      expect(b.close(fd)).toBe(0);
      expect(readFileSync(path)).toEqual(Buffer.from([7]));
      expect(existsSync(path.slice(0, -1))).toBe(false);
    }
    // A store directory named so (kv's mkdir made it, then its flush looked for "dir").
    const dir = fresh("dir.");
    mkdirSync(dir);
    expect(syncDirectory(dir)).toBe(0);
  });

  test("fileIdentity names the open file: the same through another case and a hard link, another file differs", () => {
    const b = nativeBackend();
    const path = fresh("identity");
    writeFileSync(path, "x");
    const link = fresh("identity-link");
    linkSync(path, link);
    const other = fresh("identity-other");
    writeFileSync(other, "y");
    const fds = [path, path.toUpperCase(), link, other].map((p) => b.open(p, "r"));
    const ids = fds.map((fd) => fileIdentity(b, fd));
    expect(ids[0]).toMatch(/^[0-9a-f]{48}$/);
    expect(ids.slice(1, 3)).toEqual([ids[0], ids[0]]);
    expect(ids[3]).not.toBe(ids[0]);
    // What FAT and exFAT fall back on (they have no FileIdInfo): the volume serial number and 64-bit file index.
    const k = nativeKernel32();
    const indexOf = (fd: number) => {
      const info = new Uint8Array(52);
      expect(k.GetFileInformationByHandle(fd, info)).not.toBe(0);
      return Buffer.from(info.subarray(28, 52))
        .toString("hex")
        .replace(/^(.{8}).{24}/, "$1");
    };
    expect(indexOf(fds[1]!)).toBe(indexOf(fds[0]!));
    expect(indexOf(fds[3]!)).not.toBe(indexOf(fds[0]!));
    for (const fd of fds) b.close(fd);
    expect(fileIdentity(b, 0x7ff0)).toBeUndefined();
  });
});

describe.skipIf(!windows)("a named pipe on Windows, both backends", () => {
  test.each(["native", "node"] as const)(
    "%s: positional reads and writes are -ESPIPE, as pread(2) on a FIFO (Windows moved the stream instead); size 0",
    async (kind) => {
      const path = `\\\\.\\pipe\\rafkit-test-${process.pid}-${kind}`;
      const server = createServer((socket) => {
        socket.on("error", () => undefined);
        socket.end("ABCDEFGH");
      });
      await new Promise<void>((resolve) => server.listen(path, resolve));
      try {
        const b = kind === "native" ? nativeBackend() : nodeBackend();
        const fd = b.open(path, "rw");
        expect(fd).toBeGreaterThanOrEqual(0);
        const buf = new Uint8Array(4);
        expect(b.pread(fd, buf, 0, 4, 4)).toBe(neg("ESPIPE"));
        expect(b.pwrite(fd, buf, 0, 4, 100)).toBe(neg("ESPIPE"));
        expect(await b.preadAsync(fd, buf, 0, 4, 0)).toBe(neg("ESPIPE"));
        expect(await b.pwriteAsync(fd, buf, 0, 4, 0)).toBe(neg("ESPIPE"));
        if (kind === "native") expect([b.size(fd), await b.sizeAsync(fd)]).toEqual([0, 0]);
        expect(b.close(fd)).toBe(0);
        // The number, free again, names a regular file next: no longer a pipe.
        const file = b.open(join(tempDir("after-pipe"), "f"), "rw");
        expect(b.pwrite(file, buf, 0, 4, 0)).toBe(4);
        b.close(file);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});

test.skipIf(windows || !isNativeAvailable())(
  "fileIdentity elsewhere: undefined (fstat of the descriptor tells it)",
  () => {
    const fd = nativeBackend().open(join(tempDir("identity"), "x"), "rw");
    expect(fileIdentity(nativeBackend(), fd)).toBeUndefined();
    nativeBackend().close(fd);
  },
);
