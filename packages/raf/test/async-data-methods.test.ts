import { readFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "../src/index";
import { type AnyFile, tmp } from "./support/async-ops";
import { openFdCount } from "./support/temp";

describe("AsyncRandomAccessFile: every DataInput/DataOutput method, byte-compatible with the sync class", () => {
  test.each([
    ["big", 8192],
    ["little", 5],
  ] as const)(
    "byteOrder %s, bufferSize %i: async writes, sync reads, and back",
    async (byteOrder, bufferSize) => {
      const p = tmp("all.bin");
      const a = await AsyncRandomAccessFile.open(p, "rw", { byteOrder, bufferSize });
      // All issued without awaiting: call order is file order.
      const writes = [
        a.writeBoolean(true),
        a.writeByte(-5),
        a.write(200),
        a.writeShort(-300),
        a.writeChar("é"),
        a.writeChar(0x41),
        a.writeInt(-70000),
        a.writeLong(-(2n ** 40n)),
        a.writeLong(123),
        a.writeFloat(Number.NaN),
        a.writeDouble(-0.5),
        a.writeBytes("line one\r\n"),
        a.writeChars("hé"),
        a.writeUTF("ü\0😀"),
        a.write(Uint8Array.of(9, 8, 7, 6), 1, 2),
        a.writeShorts(Int16Array.of(1, -2, 3)),
        a.writeInts(Int32Array.of(4, -5), 1),
        a.writeLongs(BigInt64Array.of(6n, -7n)),
        a.writeFloats(Float32Array.of(0.25, 8)),
        a.writeDoubles(Float64Array.of(1e300, -1e-300), 0, 1),
      ];
      await Promise.all(writes);
      await a.sync();
      await a.datasync();
      const s = new RandomAccessFile(p, "r", { byteOrder });
      const readAll = async (f: AnyFile) => {
        // biome-ignore lint/suspicious/noExplicitAny: the same names on both classes
        const g = f as any;
        const out: unknown[] = [];
        for (const m of [
          "readBoolean",
          "readByte",
          "readUnsignedByte",
          "readShort",
          "readChar",
          "readChar",
        ]) {
          out.push(await g[m]());
        }
        out.push(
          await g.readInt(),
          await g.readLong(),
          await g.readLongAsNumber(),
          await g.readFloat(),
        );
        out.push(
          await g.readDouble(),
          await g.readLine(),
          await g.readUnsignedShort(),
          await g.readChar(),
        );
        out.push(await g.readUTF());
        const two = new Uint8Array(2);
        out.push(await g.read(two), [...two]);
        const sh = new Int16Array(3);
        const it = new Int32Array(1);
        const lg = new BigInt64Array(2);
        const fl = new Float32Array(2);
        const db = new Float64Array(2);
        await g.readShorts(sh);
        await g.readInts(it);
        await g.readLongs(lg);
        await g.readFloats(fl);
        await g.readDoubles(db, 1, 1);
        out.push([...sh], [...it], [...lg], [...fl], [...db]);
        out.push(await g.read(), await g.getFilePointer(), await g.length());
        return out;
      };
      const fromSync = await readAll(s);
      s.close();
      await a.seek(0);
      const fromAsync = await readAll(a);
      expect(fromAsync).toEqual(fromSync);
      expect(fromSync.slice(0, 12)).toEqual([
        true,
        -5,
        200,
        -300,
        "é",
        "A",
        -70000,
        -(2n ** 40n),
        123,
        Number.NaN,
        -0.5,
        "line one",
      ]);
      expect(fromSync.at(-3)).toBe(-1);
      // skipBytes never passes EOF; readFully past it is an EOFError that consumed what there was.
      await a.seek(3);
      expect(await a.skipBytes(-1)).toBe(0);
      expect(await a.skipBytes(1 << 20)).toBe((fromSync.at(-1) as number) - 3);
      await a.seek((fromSync.at(-1) as number) - 1);
      await expect(a.readFully(new Uint8Array(4))).rejects.toBeInstanceOf(EOFError);
      expect(await a.getFilePointer()).toBe(fromSync.at(-1));
      await a.close();
    },
  );

  test.each([
    ["from the window", {}],
    ["unbuffered", { bufferSize: 0 }],
  ] as const)(
    "primitives reject, never throw, %s: an unsafe readLongAsNumber, an unencodable value, a throwing valueOf",
    async (_, options) => {
      const p = tmp("reject.bin");
      const f = await AsyncRandomAccessFile.open(p, "rw", options);
      await f.writeLong(2n ** 60n);
      await f.writeInt(1);
      const boom = {
        valueOf() {
          throw new SyntaxError("boom");
        },
      } as unknown as number;
      const refused = { name: "TypeError", code: "ERR_INVALID_ARG_TYPE" };
      // A throw would escape `expect` and fail the test before `rejects` sees a promise.
      for (const write of [
        "writeByte",
        "writeShort",
        "writeChar",
        "writeInt",
        "writeFloat",
        "writeDouble",
      ] as const) {
        await expect(f[write](boom)).rejects.toMatchObject(refused);
        await expect(f[`${write}At`](0, boom)).rejects.toMatchObject(refused);
      }
      await expect(f.writeBoolean(1 as unknown as boolean)).rejects.toMatchObject(refused);
      await expect(f.writeBytes(null as unknown as string)).rejects.toMatchObject(refused);
      await expect(f.writeInt(3n as unknown as number)).rejects.toMatchObject(refused);
      await expect(f.writeLong(2 ** 60)).rejects.toThrow(RangeError);
      expect(await f.getFilePointer()).toBe(12);
      await f.writeShort(2);
      for (let k = 0; k < 2; k++) {
        // The second time the bytes are in the window (when buffered).
        await f.seek(0);
        await expect(f.readLongAsNumber()).rejects.toThrow(RangeError);
        expect(await f.readInt()).toBe(1);
        expect(await f.readShort()).toBe(2);
      }
      await f.close();
      expect(readFileSync(p).length).toBe(14);
    },
  );

  test("OS failures of length, setLength, sync, datasync and close reject with Node-shaped errors; the file stays usable", async () => {
    const backend = faultBackend(getBackend("native"), [
      { call: "sync", errno: "EIO", times: 1 },
      { call: "truncate", errno: "EFBIG", times: 1 },
      { call: "size", errno: "EIO", times: 1 },
      { call: "datasync", errno: "EIO", times: 1 },
    ]);
    const before = openFdCount();
    const f = await AsyncRandomAccessFile.open(tmp("fail.bin"), "rw", { backend });
    await f.writeInt(1);
    await expect(f.sync()).rejects.toMatchObject({ code: "EIO", syscall: "fsync" });
    await expect(f.datasync()).rejects.toMatchObject({ code: "EIO", syscall: "fdatasync" });
    await expect(f.setLength(10)).rejects.toMatchObject({ code: "EFBIG", syscall: "ftruncate" });
    await expect(f.setLength(-1)).rejects.toMatchObject({ code: "EINVAL", syscall: "ftruncate" });
    await expect(f.length()).rejects.toMatchObject({ code: "EIO", syscall: "fstat" });
    await expect(f.skipBytes(1)).resolves.toBe(0);
    expect(await f.length()).toBe(4);
    await f.setLength(2);
    expect(await f.getFilePointer()).toBe(2);
    await f.writeInt(5);
    backend.inject({ call: "pwrite", errno: "ENOSPC" });
    await expect(f.close()).rejects.toMatchObject({ code: "ENOSPC" });
    expect(f.closed).toBe(true);
    expect(openFdCount()).toBe(before);
  });
});
