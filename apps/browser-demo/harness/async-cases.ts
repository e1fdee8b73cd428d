// The async class on a page's main thread: over OPFS (a worker owns the sync handles) and over a File.
import { AsyncRandomAccessFile } from "@rafkit/raf";
import { eq, throwsCode } from "./check";

const dir = `async-cases-${Date.now()}`;

export const asyncCases: Record<string, () => unknown> = {
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
  "Web Locks on the main thread: tryWebLock null under an exclusive holder; close releases":
    async () => {
      const a = await AsyncRandomAccessFile.open(`${dir}/lock.bin`, "rw");
      const b = await AsyncRandomAccessFile.open(`${dir}/lock.bin`, "rw");
      const held = await a.webLock();
      eq(await b.tryWebLock(), null);
      eq(await b.tryWebLock({ shared: true }), null);
      await a.close();
      eq(held.isValid(), false);
      const mine = await b.tryWebLock({ shared: true });
      eq(mine?.shared, true);
      const other = await b.tryWebLock({ shared: true, position: 10, size: 5 });
      eq(other !== null, true, "shared + shared");
      await mine?.release();
      await other?.release();
      await b.close();
      const r = await AsyncRandomAccessFile.open(`${dir}/lock.bin`, "r");
      await throwsCode(() => r.webLock(), "ERR_RAF_LOCK_MODE");
      await r.close();
    },
};
