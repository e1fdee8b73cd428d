import { constants } from "node:os";
import { getSystemErrorMap } from "node:util";
import { describe, expect, test } from "vitest";
import {
  blobBackend,
  getBackend,
  hasSyncAccessHandles,
  isNativeAvailable,
  opfsBackend,
  registerBlob,
  withOpenDescriptor,
} from "../src/browser";
import { BROWSER_ERRNO } from "../src/browser/errno-table";
import { constants as shimConstants } from "../src/browser/node-shims/os";
import { process as shimProcess } from "../src/browser/node-shims/process";
import { getSystemErrorName, getSystemErrorMap as shimMap } from "../src/browser/node-shims/util";
import { nodeBackend } from "../src/node-backend";

// The browser build's pieces that run anywhere (the OPFS ones run in Chromium: `pnpm test:browser`).
const e = (name: string) => -(constants.errno as Record<string, number>)[name]!;

describe.skipIf(process.platform !== "linux")("the browser errno table is Node's on Linux", () => {
  test.each(Object.entries(BROWSER_ERRNO))("%s", (name, [value, description]) => {
    expect((constants.errno as Record<string, number>)[name]).toBe(value);
    expect(shimConstants.errno[name]).toBe(value);
    const node = getSystemErrorMap().get(-value);
    // ENOTSUP/EOPNOTSUPP share a number: one name in libuv's map, the same description.
    if (node !== undefined) expect(node[1]).toBe(description);
    expect(shimMap().get(-value)?.[1]).toBe(description);
  });

  test("an unknown number has no name; warnings go to the console", () => {
    expect(getSystemErrorName(-4242)).toBe("Unknown system error -4242");
    expect(getSystemErrorName(-2)).toBe("ENOENT");
    expect(shimProcess.platform).toBe("browser");
    shimProcess.once();
    const seen: unknown[] = [];
    const warn = console.warn;
    console.warn = (m: unknown) => seen.push(m);
    shimProcess.emitWarning("careful");
    console.warn = warn;
    expect(seen).toEqual(["careful"]);
  });
});

describe("the Blob backend (a File the user picks)", () => {
  const bytes = Uint8Array.from({ length: 300 }, (_, k) => k & 0xff);

  test("opens r only, reads through slice(), and refuses writes as an O_RDONLY descriptor does", async () => {
    const b = blobBackend();
    expect(b.name).toBe("blob");
    const refused = registerBlob(new Blob([bytes]));
    expect(refused).toMatch(/^blob:\d+\/$/);
    expect(await b.openAsync(refused, "rw")).toBe(e("EACCES"));
    expect(await b.openAsync(refused, "r")).toBe(e("ENOENT")); // a refused open lets the Blob go too
    const path = registerBlob(new Blob([bytes]));
    const fd = await b.openAsync(path, "r");
    expect(fd).toBeGreaterThanOrEqual(3);
    expect(await b.openAsync(path, "r")).toBe(e("ENOENT")); // a registered name opens once
    const into = new Uint8Array(10);
    expect(await b.preadFullyAsync(fd, into, 2, 8, 290)).toBe(8);
    expect([...into]).toEqual([0, 0, ...bytes.subarray(290, 298)]);
    expect(await b.preadAsync(fd, into, 0, 10, 300)).toBe(0);
    expect([b.size(fd), await b.sizeAsync(fd)]).toEqual([300, 300]);
    expect(b.pwrite(fd, into, 0, 1, 0)).toBe(e("EBADF"));
    expect(await b.pwriteFullyAsync(fd, into, 0, 1, 0)).toBe(e("EBADF"));
    expect([b.truncate(fd, 0), await b.truncateAsync(fd, 0)]).toEqual([e("EINVAL"), e("EINVAL")]);
    expect([b.sync(fd), b.datasync(fd), await b.syncAsync(fd), await b.datasyncAsync(fd)]).toEqual([
      0, 0, 0, 0,
    ]);
    // No FileReaderSync outside a worker: the sync read cannot happen.
    expect(b.pread(fd, into, 0, 1, 0)).toBe(e("ENOSYS"));
    const lock = { shared: true, wait: false, position: 0, length: 0 };
    expect([b.lock(fd, lock), b.unlock(fd, 0, 0), await b.lockAsync(fd, lock)]).toEqual([
      e("ENOTSUP"),
      e("ENOTSUP"),
      e("ENOTSUP"),
    ]);
    expect([b.fadvise(fd, 0, 0, "normal"), b.allocate(fd, 0, 1)]).toEqual([0, e("ENOTSUP")]);
    expect(await b.closeAsync(fd)).toBe(0);
    expect([
      b.close(fd),
      b.size(fd),
      await b.preadAsync(fd, into, 0, 1, 0),
      b.lock(fd, lock),
    ]).toEqual([e("EBADF"), e("EBADF"), e("EBADF"), e("EBADF")]);
    expect([b.pread(fd, into, 0, 1, 0), b.truncate(fd, 0), b.sync(fd), b.datasync(fd)]).toEqual([
      e("EBADF"),
      e("EBADF"),
      e("EBADF"),
      e("EBADF"),
    ]);
  });

  test("a File keeps its name in the path; the sync open says to open asynchronously", () => {
    const path = registerBlob(new File([bytes], "Hello.class"));
    expect(path).toMatch(/^blob:\d+\/Hello\.class$/);
    expect(() => blobBackend().open(path, "r")).toThrow(
      expect.objectContaining({ code: "ERR_RAFKIT_ASYNC_OPEN" }),
    );
  });
});

describe("the browser getBackend and the descriptor hand-off", () => {
  test("auto and opfs are the OPFS backend; node and native do not exist there", () => {
    expect(getBackend()).toBe(opfsBackend());
    expect(getBackend("opfs")).toBe(opfsBackend());
    expect(() => getBackend("node")).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARG_VALUE" }),
    );
    expect(isNativeAvailable()).toBe(false);
    // Node has no sync access handles: the main-thread (worker-owning) flavour.
    expect(hasSyncAccessHandles()).toBe(false);
    expect(opfsBackend().name).toBe("opfs-worker");
    expect(() => opfsBackend().open("a.bin", "rw")).toThrow(
      expect.objectContaining({ code: "ERR_RAFKIT_ASYNC_OPEN" }),
    );
  });

  test("withOpenDescriptor: the first open is the given fd, later ones and every other call go to the backend", () => {
    const node = nodeBackend();
    const fd = node.open("/dev/null", "r");
    const wrapped = withOpenDescriptor(node, fd);
    expect([wrapped.name, wrapped.features]).toEqual([node.name, node.features]);
    expect(wrapped.open("/ignored", "r")).toBe(fd);
    const again = wrapped.open("/dev/null", "r");
    expect(again).not.toBe(fd);
    expect(wrapped.pread(fd, new Uint8Array(1), 0, 1, 0)).toBe(0);
    expect(wrapped.close(again)).toBe(0);
    expect(wrapped.close(fd)).toBe(0);
  });
});
