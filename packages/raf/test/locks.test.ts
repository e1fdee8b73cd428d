import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isNativeAvailable } from "@rafkit/syscall-state";
import { afterEach, describe, expect, test } from "vitest";
import {
  AsyncRandomAccessFile,
  LockModeError,
  LockUnsupportedError,
  OverlappingFileLockError,
  RandomAccessFile,
} from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/lock-holder.mjs", import.meta.url));
const native = isNativeAvailable();
if (!native) console.warn("lock tests skipped: the native backend (koffi) does not load here");

/** A child process holding locks on `file`, driven by messages; replies come back in order. */
class Holder {
  readonly child: ChildProcess;
  readonly #replies: unknown[] = [];
  readonly #waiting: ((v: unknown) => void)[] = [];

  constructor(file: string) {
    this.child = fork(fixture, [dist, file], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.child.on("message", (m: { reply: unknown }) => {
      const w = this.#waiting.shift();
      if (w) w(m.reply);
      else this.#replies.push(m.reply);
    });
  }

  /** The next reply (the first is "ready"). */
  next(): Promise<unknown> {
    if (this.#replies.length > 0) return Promise.resolve(this.#replies.shift());
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Whether a reply has arrived that nobody has read yet. */
  get pending(): number {
    return this.#replies.length;
  }

  async ask(cmd: string, extra: object = {}): Promise<unknown> {
    this.child.send({ cmd, ...extra });
    return this.next();
  }

  send(cmd: string, extra: object = {}): void {
    this.child.send({ cmd, ...extra });
  }
}

const holders: Holder[] = [];
afterEach(() => {
  for (const h of holders.splice(0)) h.child.kill();
});

async function holder(file: string): Promise<Holder> {
  const h = new Holder(file);
  holders.push(h);
  expect(await h.next()).toBe("ready");
  return h;
}

function lockFile(): string {
  const p = tmp("locked.bin");
  writeFileSync(p, Buffer.alloc(64));
  return p;
}

describe.skipIf(!native || !existsSync(dist))(
  "locks across real processes (native backend)",
  () => {
    test("a child's exclusive lock: tryLock gets null in both classes, for shared and exclusive, on overlapping ranges only", async () => {
      const p = lockFile();
      const h = await holder(p);
      expect(await h.ask("lock", { options: { position: 0, size: 10 } })).toBe("locked");
      const s = new RandomAccessFile(p, "rw", { backend: "native" });
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      expect(s.tryLock()).toBeNull();
      expect(s.tryLock({ shared: true, position: 9, size: 1 })).toBeNull();
      expect(await a.tryLock()).toBeNull();
      expect(await a.tryLock({ shared: true, position: 5n, size: 2n })).toBeNull();
      const beside = s.tryLock({ position: 10, size: 10 });
      expect(beside).not.toBeNull();
      expect([beside!.shared, beside!.position, beside!.size, beside!.isValid()]).toEqual([
        false,
        10,
        10,
        true,
      ]);
      beside!.release();
      expect(beside!.isValid()).toBe(false);
      s.close();
      await a.close();
    });

    test("lock() waits without blocking the event loop until the child releases, then sees what the child wrote", async () => {
      const p = lockFile();
      const h = await holder(p);
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      expect(await a.readIntAt(0)).toBe(0); // cached in the window before locking
      expect(await h.ask("lock")).toBe("locked");
      let granted = false;
      const lock = a.lock().then((l) => {
        granted = true;
        return l;
      });
      // The event loop is free: an IPC round trip completes while lock() waits, and it has not been granted.
      expect(await h.ask("ping")).toBe("pong");
      expect(await h.ask("ping")).toBe("pong");
      expect(granted).toBe(false);
      h.send("write-release", { value: 0x5eed });
      const l = await lock;
      // Granted only after the child wrote under its lock: the window was dropped, the new bytes are read.
      expect(await a.readIntAt(0)).toBe(0x5eed);
      expect(await h.next()).toBe("released");
      expect(await h.ask("tryLock")).toBe(false);
      await l.release();
      expect(await h.ask("tryLock")).toBe(true);
      await a.close();
    });

    test("the child's lock() waits for ours (sync class), and release flushes our buffered writes first", async () => {
      const p = lockFile();
      const h = await holder(p);
      const s = new RandomAccessFile(p, "rw", { backend: "native" });
      const mine = s.lock();
      s.writeInt(77); // buffered
      h.send("lock");
      expect(await h.ask("ping")).toBe("pong");
      expect(h.pending).toBe(0); // no "locked" yet: it is waiting
      mine.release();
      expect(readFileSync(p).readInt32BE(0)).toBe(77);
      expect(await h.next()).toBe("locked");
      expect(s.tryLock()).toBeNull();
      s.close();
    });

    test("shared locks coexist across processes; an exclusive one then fails", async () => {
      const p = lockFile();
      const h = await holder(p);
      expect(await h.ask("lock", { options: { shared: true } })).toBe("locked");
      const r = new RandomAccessFile(p, "r", { backend: "native" });
      const shared = r.tryLock({ shared: true });
      expect(shared?.shared).toBe(true);
      const ar = await AsyncRandomAccessFile.open(p, "r", { backend: "native" });
      expect(await ar.tryLock({ shared: true })).not.toBeNull();
      const w = new RandomAccessFile(p, "rw", { backend: "native" });
      expect(w.tryLock()).toBeNull();
      // The child's own instance refuses an overlap with its own lock, as Java does.
      expect(await h.ask("tryLock", { options: { shared: true } })).toBe("error");
      r.close();
      await ar.close();
      w.close();
    });

    test("locks are advisory on every platform (Windows too): the child's exclusive lock stops no read or write of ours", async () => {
      const p = lockFile();
      const h = await holder(p);
      expect(await h.ask("lock")).toBe("locked");
      const s = new RandomAccessFile(p, "rw", { backend: "native" });
      s.writeIntAt(4, 0x1234);
      s.flush();
      expect(s.readIntAt(4)).toBe(0x1234);
      expect(readFileSync(p).readInt32BE(4)).toBe(0x1234);
      expect(s.tryLock({ position: 4, size: 4 })).toBeNull();
      s.close();
    });

    test("close releases every lock (both classes); the child can then take them", async () => {
      const p = lockFile();
      const h = await holder(p);
      const s = new RandomAccessFile(p, "rw", { backend: "native" });
      const l1 = s.lock({ position: 0, size: 8 });
      const l2 = s.lock({ position: 8 });
      expect(await h.ask("tryLock")).toBe(false);
      s.close();
      expect([l1.isValid(), l2.isValid()]).toEqual([false, false]);
      l1.release(); // a no-op once closed
      expect(await h.ask("tryLock")).toBe(true);
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      const l3 = await a.lock({ shared: true });
      expect(await h.ask("tryLock")).toBe(false);
      await a[Symbol.asyncDispose]();
      expect(l3.isValid()).toBe(false);
      expect(await h.ask("tryLock")).toBe(true);
    });
  },
);

describe.skipIf(!native || process.platform !== "linux")(
  "a waiting async lock() holds no pool thread (Linux OFD locks: two instances conflict)",
  () => {
    test("close() cancels a waiting lock(): it rejects with ClosedError, takes nothing, and close completes", async () => {
      const p = lockFile();
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      const b = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      const held = await a.lock();
      const outcome = (l: Promise<unknown>) =>
        l.then(
          () => "granted",
          (e: { code?: string }) => e.code,
        );
      const waiting = outcome(b.lock());
      // Behind the first: it never starts waiting.
      const queued = outcome(b.lock({ position: 100, size: 1 }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await b.close();
      expect(await waiting).toBe("ERR_RAF_CLOSED");
      expect(await queued).toBe("ERR_RAF_CLOSED");
      expect(held.isValid()).toBe(true);
      // Nobody else got the lock: a third instance still conflicts until A releases.
      const c = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      expect(await c.tryLock()).toBeNull();
      await held.release();
      const mine = await c.tryLock();
      expect(mine?.isValid()).toBe(true);
      await c.close();
      await a.close();
    });

    test("a lock() whose turn comes after close() was called is granted when free, and the close releases it", async () => {
      const p = lockFile();
      const a = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      const first = a.length(); // ahead in the queue: the lock's turn comes after close() is called
      const queued = a.lock();
      await a.close();
      await first;
      const lock = await queued;
      expect(lock.isValid()).toBe(false);
      const c = await AsyncRandomAccessFile.open(p, "rw", { backend: "native" });
      const mine = await c.tryLock();
      expect(mine?.isValid()).toBe(true);
      await c.close();
    });

    test.skipIf(!existsSync(dist))(
      "with UV_THREADPOOL_SIZE=1: a release that must flush is not starved, and process.exit() does not hang",
      () => {
        const script = fileURLToPath(new URL("./fixtures/lock-wait-pool.mjs", import.meta.url));
        const r = spawnSync(process.execPath, [script, dist, lockFile()], {
          encoding: "utf8",
          env: { ...process.env, UV_THREADPOOL_SIZE: "1" },
          timeout: 20_000,
        });
        expect(r.signal, r.stderr).toBeNull();
        expect(r.status, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toEqual({
          waitedWhileHeld: true,
          fsWhileWaiting: "ok",
          release: "ok",
          bLocked: true,
          bSees: 42,
        });
      },
    );
  },
);

describe.skipIf(!native)("lock rules within one instance", () => {
  test("exclusive on an 'r' file: LockModeError; shared works; overlaps: OverlappingFileLockError; dispose releases", async () => {
    const p = lockFile();
    const r = new RandomAccessFile(p, "r", { backend: "native" });
    expect(() => r.lock()).toThrow(LockModeError);
    expect(() => r.tryLock({ position: 3 })).toThrow(
      expect.objectContaining({ code: "ERR_RAF_LOCK_MODE" }),
    );
    {
      using shared = r.lock({ shared: true, position: 0, size: 16 });
      expect(shared.isValid()).toBe(true);
      expect(() => r.tryLock({ shared: true, position: 15, size: 5 })).toThrow(
        OverlappingFileLockError,
      );
      const next = r.tryLock({ shared: true, position: 16, size: 5 });
      expect(next?.position).toBe(16);
    }
    // Released by `using`: the range is free again.
    expect(r.tryLock({ shared: true, position: 0, size: 4 })).not.toBeNull();
    r.close();

    const a = await AsyncRandomAccessFile.open(p, "r", { backend: "native" });
    await expect(a.lock()).rejects.toBeInstanceOf(LockModeError);
    const l = await a.lock({ shared: true, size: 10 });
    expect(l.size).toBe(10);
    await expect(a.tryLock({ shared: true })).rejects.toMatchObject({
      code: "ERR_RAF_OVERLAPPING_LOCK",
    });
    await l[Symbol.asyncDispose]();
    expect(l.isValid()).toBe(false);
    const l2 = await a.lock({ shared: true, size: 10 });
    l2[Symbol.dispose](); // starts the release, in call order
    await a.getFilePointer();
    expect(l2.isValid()).toBe(false);
    await l.release(); // idempotent
    const whole = await a.tryLock({ shared: true });
    expect(whole?.size).toBe(Number.POSITIVE_INFINITY);
    // Size 0 is the same range, as Java's lock(position, 0, shared) since JDK 22: to the end, however it grows.
    await expect(a.tryLock({ shared: true, size: 0 })).rejects.toMatchObject({
      code: "ERR_RAF_OVERLAPPING_LOCK",
    });
    await whole?.release();
    const zero = await a.tryLock({ shared: true, position: 5, size: 0n });
    expect([zero?.position, zero?.size]).toEqual([5, Number.POSITIVE_INFINITY]);
    await zero?.release();
    await expect(a.lock({ shared: true, position: -1 })).rejects.toMatchObject({
      code: "ERR_OUT_OF_RANGE",
    });
    await a.close();
    expect(whole?.isValid()).toBe(false);
  });
});

test("the node backend has no locks: a clear error that names the native backend (both classes)", async () => {
  const p = lockFile();
  const s = new RandomAccessFile(p, "rw", { backend: "node" });
  expect(() => s.lock()).toThrow(LockUnsupportedError);
  expect(() => s.tryLock({ shared: true })).toThrow(/native backend/);
  s.close();
  const a = await AsyncRandomAccessFile.open(p, "rw", { backend: "node" });
  await expect(a.lock()).rejects.toMatchObject({
    code: "ERR_RAF_LOCK_UNSUPPORTED",
    message: expect.stringMatching(/backend: "native"/),
  });
  expect(await a.readInt()).toBe(0); // still usable
  await a.close();
});
