import { constants } from "node:os";
import { fileURLToPath as nodeFileURLToPath } from "node:url";
import { nodeBackend } from "@rafkit/syscall-state";
import { registerBlob } from "@rafkit/syscall-state/browser";
import { describe, expect, test } from "vitest";
import {
  AsyncRandomAccessFile,
  BLOB_BUFFER_SIZE,
  LockModeError,
  LockUnsupportedError,
  RandomAccessFile,
  SyncLockUnsupportedError,
  webLockName,
} from "../src/browser";
import { Buffer as Latin1Buffer } from "../src/browser/node-shims/buffer-global";
import fsShim, { fstatSync } from "../src/browser/node-shims/fs";
import { constants as osShim } from "../src/browser/node-shims/os";
import { process as processShim } from "../src/browser/node-shims/process";
import { Readable, Writable } from "../src/browser/node-shims/stream";
import { fileURLToPath } from "../src/browser/node-shims/url";
import { isMainThread } from "../src/browser/node-shims/worker_threads";
import { tempDir } from "./support/temp";

// The browser entry's parts that run anywhere; OPFS and Web Locks run in Chromium (`pnpm test:browser`).
const tmp = tempDir();
const BYTES = Uint8Array.of(0xca, 0xfe, 0xba, 0xbe, 0, 0x41, 0, 2, 0x68, 0x69, 0x0a, 0x7a);

describe("the browser classes' open: the path and options are checked first, as on Node", () => {
  test.each([
    ["a null backend", "x.bin", { backend: null }],
    ["a path of no type a path has", Object.create(null), {}],
    ["a number for a path", 5, {}],
  ])(
    "%s: ERR_INVALID_ARG_TYPE from both classes (was an engine TypeError, or ENOSYS)",
    async (_, path, options) => {
      for (const open of [RandomAccessFile.open, AsyncRandomAccessFile.open]) {
        await expect(open(path as never, "rw", options as never)).rejects.toMatchObject({
          name: "TypeError",
          code: "ERR_INVALID_ARG_TYPE",
        });
      }
    },
  );
});

describe("the browser classes over a Blob", () => {
  test("AsyncRandomAccessFile.open(blob, 'r'): every read, a larger window, writes fail as on a file opened r", async () => {
    const f = await AsyncRandomAccessFile.open(new File([BYTES], "Hello.class"), "r");
    expect(f).toBeInstanceOf(AsyncRandomAccessFile);
    expect([f.backendName, f.bufferSize, f.path.endsWith("/Hello.class")]).toEqual([
      "blob",
      BLOB_BUFFER_SIZE,
      true,
    ]);
    expect(await f.readInt()).toBe(0xcafebabe | 0);
    expect([
      await f.readShort(),
      await f.readUTF(),
      await f.readLine(),
      await f.readLine(),
    ]).toEqual([0x41, "hi", "", "z"]);
    expect(await f.readIntAt(0)).toBe(0xcafebabe | 0);
    await expect(f.writeInt(1)).rejects.toMatchObject({ code: "EBADF", syscall: "write" });
    await expect(f.setLength(0)).rejects.toMatchObject({ code: "EINVAL" });
    await f.close();
    expect(f.closed).toBe(true);
  });

  test("a Blob opened for writing is EACCES (the sync class's: in a worker, Chromium's run); a bad mode is Java's TypeError before any I/O", async () => {
    await expect(AsyncRandomAccessFile.open(new Blob([BYTES]), "rw")).rejects.toMatchObject({
      code: "EACCES",
      syscall: "open",
    });
    await expect(AsyncRandomAccessFile.open(new Blob([]), "x" as "r")).rejects.toMatchObject({
      code: "ERR_INVALID_ARG_VALUE",
    });
  });

  test("a Blob whose open fails its checks (a bad bufferSize) is not kept for a later open", async () => {
    // registerBlob numbers each Blob it keeps: the number after a failed open shows whether it kept one.
    const number = () => Number(/^blob:(\d+)\//.exec(registerBlob(new Blob([])))?.[1]);
    const before = number();
    const bad = { bufferSize: -1 };
    const refused = { code: "ERR_OUT_OF_RANGE" };
    await expect(AsyncRandomAccessFile.open(new Blob([BYTES]), "r", bad)).rejects.toMatchObject(
      refused,
    );
    await expect(RandomAccessFile.open(new Blob([BYTES]), "r", bad)).rejects.toMatchObject(refused);
    expect(number()).toBe(before + 1);
    // A File named with a NUL opens (its path drops the NUL) rather than failing with the Blob kept.
    const named = await AsyncRandomAccessFile.open(new File([BYTES], "a\u0000b.class"), "r");
    expect([named.path.endsWith("/ab.class"), await named.readInt()]).toEqual([
      true,
      0xcafebabe | 0,
    ]);
    await named.close();
    expect(number()).toBe(before + 3);
  });

  test("the sync class over a Blob needs FileReaderSync (workers): without it, its open is ENOSYS, the Blob not kept", async () => {
    const number = () => Number(/^blob:(\d+)\//.exec(registerBlob(new Blob([])))?.[1]);
    const before = number();
    await expect(RandomAccessFile.open(new Blob([BYTES]), "r")).rejects.toMatchObject({
      code: "ENOSYS",
      syscall: "open",
      message: expect.stringContaining("use AsyncRandomAccessFile"),
    });
    expect(number()).toBe(before + 1);
    const FileReaderSync = class {
      readAsArrayBuffer(blob: Blob): ArrayBuffer {
        throw new Error(`not called here: ${blob.size}`);
      }
    };
    Object.assign(globalThis, { FileReaderSync });
    try {
      const f = await RandomAccessFile.open(new Blob([BYTES]), "r");
      expect([f instanceof RandomAccessFile, f.length()]).toEqual([true, BYTES.length]);
      f.close();
      await expect(RandomAccessFile.open(new Blob([]), "rw")).rejects.toMatchObject({
        code: "EACCES",
      });
    } finally {
      delete (globalThis as { FileReaderSync?: unknown }).FileReaderSync;
    }
  });
});

describe("RandomAccessFile.open: the async factory hands an open descriptor to the sync class", () => {
  test("over any backend with openAsync (here node:fs): the instance is the browser class, its I/O real", async () => {
    const path = tmp("factory.bin");
    const f = await RandomAccessFile.open(path, "rw", { backend: nodeBackend(), bufferSize: 16 });
    expect(f).toBeInstanceOf(RandomAccessFile);
    expect([f.backendName, f.bufferSize, f.path]).toEqual(["node", 16, path]);
    f.writeInt(7);
    f.close();
    const g = await RandomAccessFile.open(path, "r", { backend: nodeBackend() });
    expect(g.readInt()).toBe(7);
    g.close();
  });

  test("a refused open rejects with open's error; a bad option closes the descriptor it opened", async () => {
    await expect(
      RandomAccessFile.open(tmp("missing.bin"), "r", { backend: nodeBackend() }),
    ).rejects.toMatchObject({
      code: "ENOENT",
      syscall: "open",
    });
    await expect(
      RandomAccessFile.open(tmp("x.bin"), "rw", { backend: nodeBackend(), bufferSize: -1 }),
    ).rejects.toMatchObject({ code: "ERR_OUT_OF_RANGE" });
  });

  test("Web Locks are by path; where navigator.locks is missing, the locks say so", async () => {
    expect(webLockName("a//b/./c.bin")).toBe("rafkit:/a/b/c.bin");
    expect(webLockName("/a/b/c.bin")).toBe(webLockName("a/b/c.bin"));
    const f = await RandomAccessFile.open(tmp("l.bin"), "rw", { backend: nodeBackend() });
    const g = await AsyncRandomAccessFile.open(tmp("l.bin"), "rw", { backend: nodeBackend() });
    if ((globalThis as { navigator?: { locks?: unknown } }).navigator?.locks === undefined) {
      for (const attempt of [() => f.tryLockAsync(), () => g.tryLock(), () => g.lock()]) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LockUnsupportedError);
        expect(error).toMatchObject({ code: "ERR_RAF_LOCK_UNSUPPORTED" });
        expect((error as Error).message).toMatch(/navigator\.locks/);
      }
    }
    f.close();
    await g.close();
    await expect(f.lockAsync()).rejects.toMatchObject({ code: "ERR_RAF_CLOSED" });
    await expect(g.lock()).rejects.toMatchObject({ code: "ERR_RAF_CLOSED" });
  });

  test("the sync lock()/tryLock() throw a LockUnsupportedError that names lockAsync/tryLockAsync", async () => {
    const f = await RandomAccessFile.open(tmp("s.bin"), "rw", { backend: nodeBackend() });
    f.writeInt(7);
    for (const [call, twin] of [
      [() => f.lock(), "lockAsync"],
      [() => f.tryLock({ shared: true }), "tryLockAsync"],
    ] as const) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SyncLockUnsupportedError);
      expect(error).toBeInstanceOf(LockUnsupportedError);
      expect(error).toMatchObject({
        code: "ERR_RAF_LOCK_UNSUPPORTED",
        name: "LockUnsupportedError",
      });
      expect((error as Error).message).toContain(`await file.${twin}(options)`);
    }
    // Nothing was flushed or changed by the refused calls.
    expect(f.getFilePointer()).toBe(4);
    f.close();
  });

  test("Java's lock checks come first, before any Web Lock is asked for (so in any runtime)", async () => {
    const path = tmp("c.bin");
    (await RandomAccessFile.open(path, "rw", { backend: nodeBackend() })).close();
    const r = await RandomAccessFile.open(path, "r", { backend: nodeBackend() });
    const a = await AsyncRandomAccessFile.open(path, "r", { backend: nodeBackend() });
    await expect(r.lockAsync()).rejects.toBeInstanceOf(LockModeError);
    await expect(a.tryLock()).rejects.toBeInstanceOf(LockModeError);
    await expect(a.lock({ shared: true, position: -1 })).rejects.toMatchObject({
      code: "ERR_OUT_OF_RANGE",
    });
    await expect(r.tryLockAsync({ shared: true, size: -1 })).rejects.toMatchObject({
      code: "ERR_OUT_OF_RANGE",
    });
    r.close();
    await a.close();
    // A signal that is none: only `undefined` means no signal (a 5 failed as an engine TypeError once it waited).
    const w = await RandomAccessFile.open(path, "rw", { backend: nodeBackend() });
    const aw = await AsyncRandomAccessFile.open(path, "rw", { backend: nodeBackend() });
    for (const signal of [5, null, {}, "x"]) {
      const options = { signal: signal as unknown as AbortSignal };
      for (const attempt of [() => w.lockAsync(options), () => aw.tryLock(options)])
        await expect(attempt()).rejects.toMatchObject({
          name: "TypeError",
          code: "ERR_INVALID_ARG_TYPE",
        });
    }
    w.close();
    await aw.close();
  });

  test("a Blob's window is 64 KiB when bufferSize is left undefined, as when it is left out", async () => {
    for (const options of [{}, { bufferSize: undefined }]) {
      const f = await AsyncRandomAccessFile.open(new Blob([BYTES]), "r", options);
      expect(f.bufferSize).toBe(BLOB_BUFFER_SIZE);
      await f.close();
    }
    // null is no default, for a Blob as for a path.
    await expect(
      AsyncRandomAccessFile.open(new Blob([BYTES]), "r", { bufferSize: null as never }),
    ).rejects.toMatchObject({ code: "ERR_INVALID_ARG_TYPE" });
  });
});

describe("the node: shims of the browser build", () => {
  test("Buffer latin1 decodes every byte as its code point (not windows-1252), across chunks", () => {
    const bytes = Uint8Array.from({ length: 20000 }, (_, k) => k & 0xff);
    const text = Latin1Buffer.from(bytes.buffer, 0, bytes.length).toString("latin1", 3, 19999);
    expect(text).toBe(Buffer.from(bytes).toString("latin1", 3, 19999));
  });

  test("os.constants.errno is syscall-state's table; url, stream, fs, worker_threads, process", () => {
    for (const name of [
      "ENOENT",
      "EBADF",
      "EINTR",
      "EIO",
      "EFBIG",
      "EINVAL",
      "EISDIR",
      "EAGAIN",
      "ENOTSUP",
    ]) {
      expect(osShim.errno[name]).toBe((constants.errno as Record<string, number>)[name]);
    }
    expect(fileURLToPath("file:///data/a%20b.bin")).toBe("/data/a b.bin");
    expect(fileURLToPath(new URL("file:///x"))).toBe("/x");
    // Not a string or a URL: Node's own error, word for word (it was "Not a local file path", or an engine error).
    const thrown = (call: () => unknown) => {
      try {
        call();
      } catch (e) {
        return e as Error & { code?: string };
      }
      throw new Error("it did not throw");
    };
    for (const value of [5, null, undefined, {}, true, 10n, [1], () => 1]) {
      const mine = thrown(() => fileURLToPath(value as never));
      const node = thrown(() => nodeFileURLToPath(value as never));
      expect([mine.name, mine.code, mine.message]).toEqual([node.name, node.code, node.message]);
    }
    // Node's message for each rule (it was one text for all three).
    for (const u of ["https://x/y", "file:///d%2Ft.bin"]) {
      const mine = thrown(() => fileURLToPath(u));
      const node = thrown(() => nodeFileURLToPath(u));
      expect([mine.name, mine.code, mine.message]).toEqual([node.name, node.code, node.message]);
    }
    // As Node's fileURLToPath on POSIX: a host, or an encoded slash, is refused rather than dropped or decoded.
    expect(fileURLToPath("file://localhost/x")).toBe("/x");
    expect(() => fileURLToPath("file://host/x")).toThrow(
      expect.objectContaining({ name: "TypeError", code: "ERR_INVALID_FILE_URL_HOST" }),
    );
    for (const u of ["file:///d%2Ft.bin", "file:///d%2ft.bin"])
      expect(() => fileURLToPath(u)).toThrow(
        expect.objectContaining({ name: "TypeError", code: "ERR_INVALID_FILE_URL_PATH" }),
      );
    expect(() => new Readable()).toThrow(
      expect.objectContaining({ code: "ERR_RAFKIT_NO_STREAMS" }),
    );
    expect(() => new Writable()).toThrow(
      expect.objectContaining({ code: "ERR_RAFKIT_NO_STREAMS" }),
    );
    expect(() => fstatSync()).toThrow();
    expect(typeof fsShim).toBe("object");
    expect(isMainThread).toBe(true);
    expect([processShim.platform, processShim.env]).toEqual(["browser", {}]);
    processShim.once();
    const warn = console.warn;
    const seen: unknown[] = [];
    console.warn = (m: unknown) => seen.push(m);
    processShim.emitWarning("w");
    console.warn = warn;
    expect(seen).toEqual(["w"]);
  });
});
