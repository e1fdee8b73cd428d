// The async class on a page's main thread: over OPFS (a worker owns the sync handles) and over a File.
import { AsyncFileLock, AsyncRandomAccessFile, RandomAccessFile } from "@rafkit/raf";
import { eq, pendingOn, throwsCode } from "./check";

const dir = `async-cases-${Date.now()}`;

export const asyncCases: Record<string, () => unknown> = {
  "a lock with a bad signal is refused and leaves nothing held: the next lock is granted":
    async () => {
      const f = await AsyncRandomAccessFile.open(`${dir}/bad-signal.bin`, "rw");
      let refused = false;
      try {
        await f.lock({ signal: {} as AbortSignal });
      } catch {
        refused = true;
      }
      eq(refused, true, "a signal that is no AbortSignal is refused");
      const lock = await f.tryLock();
      eq(lock instanceof AsyncFileLock, true, "the range of the refused lock was not kept");
      await f.close();
    },
  "lock()/tryLock() called just before close(): granted when free (the close releases them), else ERR_RAF_CLOSED, as on Node":
    async () => {
      const path = `${dir}/before-close.bin`;
      const f = await AsyncRandomAccessFile.open(path, "rw");
      const tried = f.tryLock({ shared: true, position: 0, size: 8 });
      const locked = f.lock({ shared: true, position: 8, size: 8 });
      await f.close();
      const a = await tried;
      const b = await locked;
      eq([a?.isValid(), b.isValid()], [false, false], "both granted, then released by the close");
      const other = await AsyncRandomAccessFile.open(path, "rw");
      const held = await other.tryLock();
      eq(held instanceof AsyncFileLock, true, "nothing of the closed instance is still held");
      const g = await AsyncRandomAccessFile.open(path, "rw");
      void g.length(); // ahead in the queue: the lock's turn comes after close() is called
      const refused = g.lock().catch((e: { code?: string }) => e.code);
      await g.close();
      eq(await refused, "ERR_RAF_CLOSED", "a lock that would wait is cancelled");
      await other.close();
    },
  "the sync class cannot work on a page's main thread: its open is ENOSYS, naming the async class":
    async () => {
      for (const target of [`${dir}/sync-on-main.bin`, new File([Uint8Array.of(1)], "x.bin")]) {
        let error: { code?: string; message?: string } = {};
        try {
          await RandomAccessFile.open(target, "r");
        } catch (e) {
          error = e as typeof error;
        }
        eq(error.code, "ENOSYS", `open of ${String(target)}`);
        eq(error.message?.includes("use AsyncRandomAccessFile"), true, "names the async class");
      }
    },
  "a File whose file changed since it was picked reads as EIO, a typed error": async () => {
    const path = `${dir}/stale.bin`;
    const w = await AsyncRandomAccessFile.open(path, "rw");
    await w.writeInt(1);
    await w.close();
    const root = await navigator.storage.getDirectory();
    const handle = await (await root.getDirectoryHandle(dir)).getFileHandle("stale.bin");
    const picked = await handle.getFile();
    const again = await AsyncRandomAccessFile.open(path, "rw");
    await again.writeInt(2); // the file changes under the File
    await again.close();
    const f = await AsyncRandomAccessFile.open(picked, "r");
    await throwsCode(() => f.readInt(), "EIO");
    await f.close();
  },
  "primitives, UTF, bulk arrays round-trip over OPFS, with Java's bytes": async () => {
    const f = await AsyncRandomAccessFile.open(`${dir}/a.bin`, "rw");
    await f.writeInt(-123456789);
    await f.writeUTF("hé\0");
    await f.writeDoubles(Float64Array.of(Math.PI, Number.NaN));
    await f.writeLong(-(2n ** 63n));
    await f.seek(0);
    eq([await f.readInt(), await f.readUTF()], [-123456789, "hé\0"]);
    const d = new Float64Array(2);
    await f.readDoubles(d);
    eq([...d, await f.readLong(), await f.length()], [Math.PI, Number.NaN, -(2n ** 63n), 35]);
    await f.close();
    const g = await AsyncRandomAccessFile.open(`${dir}/a.bin`, "r", { bufferSize: 0 });
    const head = new Uint8Array(11);
    await g.readFully(head);
    eq([...head], [0xf8, 0xa4, 0x32, 0xeb, 0, 5, 0x68, 0xc3, 0xa9, 0xc0, 0x80]);
    await g.close();
  },
  "readLine and little-endian over OPFS, unbuffered and buffered": async () => {
    for (const bufferSize of [0, 3, 8192]) {
      const f = await AsyncRandomAccessFile.open(`${dir}/l-${bufferSize}.bin`, "rw", {
        bufferSize,
        byteOrder: "little",
      });
      await f.writeBytes("a\r\nb\n");
      await f.writeInt(0x01020304);
      await f.seek(0);
      eq([await f.readLine(), await f.readLine(), await f.readInt()], ["a", "b", 0x01020304]);
      await f.close();
    }
  },
  "r does not create (ENOENT); a write to a file opened r is EBADF": async () => {
    await throwsCode(() => AsyncRandomAccessFile.open(`${dir}/none.bin`, "r"), "ENOENT");
    const f = await AsyncRandomAccessFile.open(`${dir}/a.bin`, "r");
    await throwsCode(() => f.writeInt(1), "EBADF");
    await f.close();
  },
  "a File opens read-only: every read method, buffered through slice()": async () => {
    const bytes = Uint8Array.of(
      0xca,
      0xfe,
      0xba,
      0xbe,
      0,
      0,
      0,
      0x41,
      0,
      2,
      0x68,
      0x69,
      0x0a,
      0x7a,
    );
    const f = await AsyncRandomAccessFile.open(new File([bytes], "Hello.class"), "r");
    eq(f.path.endsWith("/Hello.class"), true, "path names the file");
    eq(
      [await f.readInt(), await f.readUnsignedShort(), await f.readShort(), await f.readUTF()],
      [0xcafebabe | 0, 0, 0x41, "hi"],
    );
    eq([await f.readLine(), await f.readLine(), await f.readLine()], ["", "z", null]);
    eq(await f.readIntAt(0), 0xcafebabe | 0);
    eq(await f.length(), 14);
    await throwsCode(() => f.writeInt(1), "EBADF");
    await f.close();
  },
  "a File opened for writing is EACCES": async () => {
    await throwsCode(() => AsyncRandomAccessFile.open(new File([], "x"), "rw"), "EACCES");
  },
  "a File larger than the window: reads across window refills": async () => {
    const big = new Int32Array(100_000).map((_, k) => k * 31);
    const f = await AsyncRandomAccessFile.open(new Blob([new Uint8Array(big.buffer)]), "r", {
      byteOrder: "little",
    });
    const back = new Int32Array(100_000);
    await f.readInts(back);
    eq(
      back.every((v, k) => v === k * 31),
      true,
      "every int",
    );
    eq(await f.readIntAt(4 * 77_777), 77_777 * 31);
    await f.close();
  },
  "lock/tryLock on the main thread: Node's AsyncFileLock over a Web Lock, null under an exclusive holder, whole-file overlaps, close releases":
    async () => {
      const path = `${dir}/lock.bin`;
      const a = await AsyncRandomAccessFile.open(path, "rw");
      const b = await AsyncRandomAccessFile.open(path, "rw");
      const held = await a.lock();
      eq(held instanceof AsyncFileLock, true, "an AsyncFileLock");
      eq([held.isValid(), held.shared, held.position, held.size], [true, false, 0, Infinity]);
      eq(await b.tryLock(), null);
      eq(await b.tryLock({ shared: true, position: 100, size: 1 }), null);
      // Web Locks are by name: a range this instance does not hold still conflicts with its lock.
      await throwsCode(() => a.tryLock({ position: 1000, size: 1 }), "ERR_RAF_OVERLAPPING_LOCK");
      await a.writeInt(0x2a);
      await a.close();
      eq(held.isValid(), false, "closing invalidated it");
      const first = await b.tryLock({ shared: true, size: 10 });
      eq([first?.isValid(), first?.shared, first?.position, first?.size], [true, true, 0, 10]);
      const second = await b.tryLock({ shared: true, position: 10, size: 5 });
      eq([second?.shared, second?.position, second?.size], [true, 10, 5], "shared + shared");
      await throwsCode(() => b.lock({ shared: true, position: 12 }), "ERR_RAF_OVERLAPPING_LOCK");
      eq(await b.readIntAt(0), 0x2a, "the closed holder's write");
      await first?.release();
      eq(first?.isValid(), false, "released");
      const c = await AsyncRandomAccessFile.open(path, "rw");
      eq(await c.tryLock(), null, "b still holds a shared lock");
      await second?.release();
      const third = await c.tryLock();
      eq(third?.isValid(), true, "granted once b released both");
      await third?.release();
      await b.close();
      await c.close();
      const r = await AsyncRandomAccessFile.open(path, "r");
      await throwsCode(() => r.lock(), "ERR_RAF_LOCK_MODE");
      await throwsCode(() => r.tryLock({ shared: true, size: -1 }), "ERR_OUT_OF_RANGE");
      await r.close();
    },
  "lock() takes its turn among the file's operations; close or a signal cancels it while it waits":
    async () => {
      const path = `${dir}/lock-order.bin`;
      const a = await AsyncRandomAccessFile.open(path, "rw");
      const b = await AsyncRandomAccessFile.open(path, "rw");
      const held = await a.lock();
      const order: string[] = [];
      const granted = b.lock().then((l) => {
        order.push("lock");
        return l;
      });
      const read = b.length().then((n) => {
        order.push("length");
        return n;
      });
      await pendingOn(path);
      eq(order, [], "nothing after the waiting lock ran");
      await a.writeInt(7);
      await held.release();
      const lock = await granted;
      eq(
        [await read, order],
        [4, ["lock", "length"]],
        "length ran after the grant, and saw a's write",
      );

      const aborts = new AbortController();
      const waiting = a.lock({ signal: aborts.signal }).catch((e: Error) => e.message);
      await pendingOn(path);
      aborts.abort(new Error("gave up"));
      eq(await waiting, "gave up", "the signal's reason");
      const cancelled = a.lock().catch((e: { code?: string }) => e.code);
      await pendingOn(path);
      await a.close();
      eq(await cancelled, "ERR_RAF_CLOSED", "close cancelled the waiting lock");
      eq(lock.isValid(), true, "b still holds its lock");
      await lock.release();
      await b.close();
    },
};
