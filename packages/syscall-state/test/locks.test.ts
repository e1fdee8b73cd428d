import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { canEmulate, emulatedBackend } from "./emulated";
import { distIndex, neg, tempDir } from "./helpers";

const available = isNativeAvailable();
const built = existsSync(fileURLToPath(distIndex));
if (!available) console.warn("native backend unavailable here: lock tests are skipped");

const exclusive = { shared: false, wait: false, position: 0, length: 0 };
const shared = { ...exclusive, shared: true };

describe.skipIf(!available)("native advisory locks", () => {
  const dir = tempDir("locks");
  let n = 0;
  const file = (): string => join(dir, `lock-${n++}`);
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
  });

  /** Starts a process holding a lock; resolves once it has it. */
  function holder(path: string, position: number, length: number, kind: "shared" | "exclusive") {
    const child = spawn(
      process.execPath,
      [
        fileURLToPath(new URL("./fixtures/lock-holder.mjs", import.meta.url)),
        distIndex.href,
        path,
        String(position),
        String(length),
        kind,
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    children.push(child);
    return new Promise<ChildProcess>((resolve, reject) => {
      child.stdout!.once("data", (chunk: Buffer) =>
        chunk.toString().startsWith("locked")
          ? resolve(child)
          : reject(new Error(chunk.toString())),
      );
      child.once("error", reject);
    });
  }
  const release = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.stdin!.end();
    });

  test.skipIf(!built)(
    "another process's exclusive lock makes tryLock fail with -EAGAIN until released",
    async () => {
      const b = nativeBackend();
      const path = file();
      const fd = b.open(path, "rw");
      const child = await holder(path, 0, 0, "exclusive");
      expect(b.lock(fd, exclusive)).toBe(neg("EAGAIN"));
      expect(b.lock(fd, shared)).toBe(neg("EAGAIN"));
      expect(await b.lockAsync(fd, exclusive)).toBe(neg("EAGAIN"));
      await release(child);
      expect(b.lock(fd, exclusive)).toBe(0);
      expect(b.unlock(fd, 0, 0)).toBe(0);
      b.close(fd);
    },
  );

  test.skipIf(!built)(
    "range locks conflict only where they overlap; shared locks coexist",
    async () => {
      const b = nativeBackend();
      const path = file();
      const fd = b.open(path, "rw");
      const child = await holder(path, 100, 50, "shared");
      expect(b.lock(fd, { ...exclusive, position: 120, length: 10 })).toBe(neg("EAGAIN"));
      expect(b.lock(fd, { ...exclusive, position: 0, length: 100 })).toBe(0);
      expect(b.lock(fd, { ...exclusive, position: 150, length: 10 })).toBe(0);
      // Shared over the holder's shared range: compatible (our own locks never conflict with us).
      expect(b.lock(fd, { ...shared, position: 90, length: 100 })).toBe(0);
      expect(b.unlock(fd, 0, 0)).toBe(0);
      await release(child);
      b.close(fd);
    },
  );

  test.skipIf(process.platform !== "linux")(
    "Linux OFD locks: two fds of one process conflict, and closing a third fd keeps the lock",
    () => {
      const b = nativeBackend();
      const path = file();
      const fd1 = b.open(path, "rw");
      const fd2 = b.open(path, "rw");
      const fd3 = b.open(path, "r");
      expect(b.lock(fd1, exclusive)).toBe(0);
      expect(b.lock(fd2, exclusive)).toBe(neg("EAGAIN"));
      // With classic per-process fcntl locks this close would drop fd1's lock.
      expect(b.close(fd3)).toBe(0);
      expect(b.lock(fd2, shared)).toBe(neg("EAGAIN"));
      expect(b.unlock(fd1, 0, 0)).toBe(0);
      expect(b.lock(fd2, shared)).toBe(0);
      expect(b.lock(fd1, shared)).toBe(0);
      expect(b.lock(fd1, exclusive)).toBe(neg("EAGAIN"));
      b.close(fd1);
      b.close(fd2);
    },
  );

  test.skipIf(process.platform !== "linux")(
    "a waiting lockAsync blocks neither the event loop nor a pool thread, and resolves once the holder unlocks",
    async () => {
      const b = nativeBackend();
      const path = file();
      const holderFd = b.open(path, "rw");
      const waiterFd = b.open(path, "rw");
      expect(b.lock(holderFd, exclusive)).toBe(0);
      let result: number | undefined;
      const waiting = b.lockAsync(waiterFd, { ...exclusive, wait: true }).then((r) => {
        result = r;
        return r;
      });
      let ticks = 0;
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (++ticks === 5) {
            clearInterval(timer);
            resolve();
          }
        }, 5);
      });
      expect(ticks).toBe(5);
      expect(result).toBeUndefined();
      expect(b.unlock(holderFd, 0, 0)).toBe(0);
      expect(await waiting).toBe(0);
      expect(b.lock(holderFd, exclusive)).toBe(neg("EAGAIN"));
      b.close(holderFd);
      b.close(waiterFd);
    },
  );

  test.skipIf(process.platform !== "linux")(
    "an aborted waiting lockAsync rejects with the signal's reason and takes no lock",
    async () => {
      const b = nativeBackend();
      const path = file();
      const holderFd = b.open(path, "rw");
      const waiterFd = b.open(path, "rw");
      expect(b.lock(holderFd, exclusive)).toBe(0);
      const controller = new AbortController();
      const waiting = b.lockAsync(waiterFd, {
        ...exclusive,
        wait: true,
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const reason = new Error("stop waiting");
      controller.abort(reason);
      await expect(waiting).rejects.toBe(reason);
      // Already aborted: rejects before any attempt.
      await expect(
        b.lockAsync(waiterFd, { ...exclusive, wait: true, signal: controller.signal }),
      ).rejects.toBe(reason);
      expect(b.unlock(holderFd, 0, 0)).toBe(0);
      // The waiter never got it: the holder can lock again at once.
      expect(b.lock(holderFd, exclusive)).toBe(0);
      b.close(holderFd);
      b.close(waiterFd);
    },
  );

  test.skipIf(process.platform !== "linux" || !built)(
    "with UV_THREADPOOL_SIZE=1 a waiting lockAsync leaves the pool free, and process.exit() does not hang",
    () => {
      const script = fileURLToPath(new URL("./fixtures/lock-wait-pool.mjs", import.meta.url));
      const r = spawnSync(process.execPath, [script, distIndex.href, file()], {
        encoding: "utf8",
        env: { ...process.env, UV_THREADPOOL_SIZE: "1" },
        timeout: 20_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        held: 0,
        readFile: "ok",
        aborted: { rejected: "AbortError" },
      });
    },
  );

  test.skipIf(!canEmulate || !built)(
    "classic fcntl locks (macOS/FreeBSD, old kernels): per process, so only another process conflicts",
    async () => {
      for (const kind of ["bsd-like", "old-kernel"] as const) {
        const b = emulatedBackend(kind);
        const path = file();
        const fd1 = b.open(path, "rw");
        const fd2 = b.open(path, "rw");
        expect(b.lock(fd1, exclusive)).toBe(0);
        // Same process: classic locks never conflict with themselves.
        expect(b.lock(fd2, exclusive)).toBe(0);
        expect(b.unlock(fd1, 0, 0)).toBe(0);
        const child = await holder(path, 0, 10, "exclusive");
        expect(b.lock(fd1, { ...exclusive, length: 5 })).toBe(neg("EAGAIN"));
        expect(b.lock(fd1, { ...exclusive, position: 10, length: 5 })).toBe(0);
        // A waiting lock: the bsd-like (variadic) path polls, the other waits on the pool.
        const waiting = b.lockAsync(fd2, { ...shared, wait: true, length: 10 });
        await release(child);
        expect(await waiting).toBe(0);
        b.close(fd1);
        b.close(fd2);
      }
    },
  );
});
