import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:net";
import { constants } from "node:os";
import { join } from "node:path";
import { getSystemErrorMap } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Backend } from "../src/backend";
import { describeErrno } from "../src/errno";
import { systemCallError } from "../src/errors";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { tempDir } from "./helpers";

// Every errno the contract can return on a real file, produced by a real failing call on each backend,
// turned into an error with systemCallError, and compared field by field with the error node:fs throws
// for the same call: same code, negative errno, syscall, path and message.
const dir = tempDir("errno-mapping");
const linux = process.platform === "linux";
const root = process.getuid?.() === 0;
const backends: Backend[] = isNativeAvailable()
  ? [nativeBackend(), nodeBackend()]
  : [nodeBackend()];

const file = join(dir, "file");
const sub = join(dir, "sub");
const fifo = join(dir, "fifo");
const loop = join(dir, "loop");
const socket = join(dir, "socket");
const locked = join(dir, "locked");
const server = createServer();

beforeAll(async () => {
  fs.writeFileSync(file, "abc");
  fs.mkdirSync(sub);
  fs.symlinkSync(join(dir, "loop2"), loop);
  fs.symlinkSync(loop, join(dir, "loop2"));
  fs.writeFileSync(locked, "x");
  fs.chmodSync(locked, 0o000);
  if (linux) execFileSync("mkfifo", [fifo]);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The error node:fs throws for a call. */
function thrown(call: () => unknown): NodeJS.ErrnoException {
  try {
    call();
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  throw new Error("expected node:fs to throw");
}

/** An fd for the duration of `use`, opened by node:fs (both backends take any fd). */
function withFd<T>(path: string, flags: string, use: (fd: number) => T): T {
  const fd = fs.openSync(path, flags);
  try {
    return use(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function closedFd(): number {
  const fd = fs.openSync(file, "r");
  fs.closeSync(fd);
  return fd;
}

interface Case {
  readonly errno: string;
  readonly what: string;
  readonly skip?: boolean;
  /** node:fs's call, and the same call through a backend; `path` when the call names one. */
  readonly node: () => unknown;
  readonly ours: (b: Backend) => number;
  readonly path?: string;
}

const buf = () => new Uint8Array(1);
const long = join(dir, "n".repeat(300));
const cases: Case[] = [
  {
    errno: "ENOENT",
    what: "open a missing file",
    node: () => fs.openSync(join(dir, "none"), "r"),
    ours: (b) => b.open(join(dir, "none"), "r"),
    path: join(dir, "none"),
  },
  {
    errno: "ENOTDIR",
    what: "open below a file",
    node: () => fs.openSync(join(file, "x"), "r"),
    ours: (b) => b.open(join(file, "x"), "r"),
    path: join(file, "x"),
  },
  {
    errno: "EISDIR",
    what: "open a directory for writing",
    node: () => fs.openSync(sub, "r+"),
    ours: (b) => b.open(sub, "rw"),
    path: sub,
  },
  {
    errno: "ELOOP",
    what: "open a symlink loop",
    node: () => fs.openSync(loop, "r"),
    ours: (b) => b.open(loop, "r"),
    path: loop,
  },
  {
    errno: "ENAMETOOLONG",
    what: "open a 300-byte name",
    node: () => fs.openSync(long, "r"),
    ours: (b) => b.open(long, "r"),
    path: long,
  },
  {
    errno: "ENXIO",
    what: "open a socket file",
    skip: !linux,
    node: () => fs.openSync(socket, "r"),
    ours: (b) => b.open(socket, "r"),
    path: socket,
  },
  {
    errno: "EACCES",
    what: "open a mode-000 file (not as root)",
    skip: root,
    node: () => fs.openSync(locked, "r"),
    ours: (b) => b.open(locked, "r"),
    path: locked,
  },
  {
    errno: "EISDIR",
    what: "read a directory",
    node: () => withFd(sub, "r", (fd) => fs.readSync(fd, buf(), 0, 1, 0)),
    ours: (b) => withFd(sub, "r", (fd) => b.pread(fd, buf(), 0, 1, 0)),
  },
  {
    errno: "EBADF",
    what: "read a closed fd",
    node: () => fs.readSync(closedFd(), buf(), 0, 1, 0),
    ours: (b) => b.pread(closedFd(), buf(), 0, 1, 0),
  },
  {
    errno: "EBADF",
    what: "write a read-only fd",
    node: () => withFd(file, "r", (fd) => fs.writeSync(fd, buf(), 0, 1, 0)),
    ours: (b) => withFd(file, "r", (fd) => b.pwrite(fd, buf(), 0, 1, 0)),
  },
  {
    errno: "ESPIPE",
    what: "read a FIFO at a position",
    skip: !linux,
    node: () => withFd(fifo, "r+", (fd) => fs.readSync(fd, buf(), 0, 1, 0)),
    ours: (b) => withFd(fifo, "r+", (fd) => b.pread(fd, buf(), 0, 1, 0)),
  },
  {
    errno: "EFBIG",
    what: "write past the file system's largest file",
    node: () => withFd(file, "r+", (fd) => fs.writeSync(fd, buf(), 0, 1, 2 ** 53 - 2)),
    ours: (b) => withFd(file, "r+", (fd) => b.pwrite(fd, buf(), 0, 1, 2 ** 53 - 2)),
  },
  {
    errno: "EINVAL",
    what: "truncate a read-only fd",
    node: () => withFd(file, "r", (fd) => fs.ftruncateSync(fd, 0)),
    ours: (b) => withFd(file, "r", (fd) => b.truncate(fd, 0)),
  },
  {
    errno: "EINVAL",
    what: "fsync a FIFO",
    skip: !linux,
    node: () => withFd(fifo, "r+", (fd) => fs.fsyncSync(fd)),
    ours: (b) => withFd(fifo, "r+", (fd) => b.sync(fd)),
  },
  {
    errno: "EBADF",
    what: "fstat a closed fd",
    node: () => fs.fstatSync(closedFd()),
    ours: (b) => b.size(closedFd()),
  },
  {
    errno: "EBADF",
    what: "fdatasync a closed fd",
    node: () => fs.fdatasyncSync(closedFd()),
    ours: (b) => b.datasync(closedFd()),
  },
  {
    errno: "EBADF",
    what: "close a closed fd",
    node: () => fs.closeSync(closedFd()),
    ours: (b) => b.close(closedFd()),
  },
];

describe.each(backends.map((b) => [b.name, b] as const))("errno mapping: %s backend", (_, b) => {
  for (const c of cases) {
    test.skipIf(c.skip === true)(`${c.errno} (${c.what}) is the error node:fs throws`, () => {
      const real = thrown(c.node);
      // On a file system that takes 8 EiB files (tmpfs, XFS), there is no EFBIG to compare.
      if (c.errno === "EFBIG" && real.code !== "EFBIG") return;
      expect(real.code).toBe(c.errno);
      const result = c.ours(b);
      expect(result).toBe(real.errno);
      const ours = systemCallError(result, real.syscall!, c.path);
      expect({
        message: ours.message,
        code: ours.code,
        errno: ours.errno,
        syscall: ours.syscall,
        path: ours.path,
      }).toEqual({
        message: real.message,
        code: real.code,
        errno: real.errno,
        syscall: real.syscall,
        path: real.path,
      });
    });
  }
});

describe("errnos node:fs cannot name", () => {
  // libuv has no entry for these, so Node would say "UNKNOWN: unknown error"; the contract can return
  // them (locks, quotas, NFS), and their real names are more use to a caller.
  const unnamed = ["EDEADLK", "ENOLCK", "EDQUOT", "ESTALE"].filter(
    (name) => name in constants.errno,
  );
  test.skipIf(unnamed.length === 0)("keep their own name, with libuv's 'unknown error'", () => {
    for (const name of unnamed) {
      const errno = -(constants.errno as Record<string, number>)[name]!;
      expect(getSystemErrorMap().has(errno)).toBe(false);
      expect(describeErrno(errno)).toEqual([name, "unknown error"]);
      expect(systemCallError(errno, "fcntl").message).toBe(`${name}: unknown error, fcntl`);
    }
  });
});
