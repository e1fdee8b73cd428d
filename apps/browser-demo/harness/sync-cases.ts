// raf's Java-behaviour cases (packages/raf/test/behaviour.test.ts and positional.test.ts), with the same
// inputs and expected bytes, run by the sync RandomAccessFile over OPFS in a dedicated worker.
import { EOFError, RandomAccessFile, type RandomAccessFileOptions } from "@rafkit/raf";
import { eq, throwsCode } from "./check";

let serial = 0;
const latin1 = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** A fresh OPFS file holding `bytes`, opened with `options`. */
async function withBytes(
  bytes: ArrayLike<number>,
  options: RandomAccessFileOptions = {},
  mode: "r" | "rw" = "rw",
) {
  const path = `conformance/${Date.now()}-${serial++}/f.bin`;
  const w = await RandomAccessFile.open(path, "rw");
  w.write(Uint8Array.from(bytes));
  w.close();
  return { path, f: await RandomAccessFile.open(path, mode, options) };
}

/** The bytes of the OPFS file at `path`, read with a fresh instance. */
export async function fileBytes(path: string): Promise<number[]> {
  const f = await RandomAccessFile.open(path, "r");
  const out = new Uint8Array(f.length());
  f.readFully(out);
  f.close();
  return [...out];
}

/** The cases for one buffering configuration (`bufferSize` 0: the JDK's own path, one call per primitive). */
export function syncCases(options: RandomAccessFileOptions): Record<string, () => unknown> {
  return {
    "readLine splits on \\n, \\r and \\r\\n, decodes Latin-1, null only at EOF": async () => {
      const { f } = await withBytes(
        [...latin1("a\nb\rc\r\nd\n\n\r\r\n\xe9\xff"), 0, ...latin1("\rx")],
        options,
      );
      const lines: (string | null)[] = [];
      for (let k = 0; k < 10; k++) lines.push(f.readLine());
      eq(lines, ["a", "b", "c", "d", "", "", "", "\xe9\xff\0", "x", null]);
      f.close();
    },
    "readLine: a final \\r at EOF ends the line; after \\r a non-\\n byte stays unread":
      async () => {
        const { f } = await withBytes(latin1("z\r"), options);
        eq(f.readLine(), "z");
        eq(f.getFilePointer(), 2);
        eq(f.readLine(), null);
        f.close();
        const g = (await withBytes(latin1("a\rb"), options)).f;
        eq(g.readLine(), "a");
        eq(g.getFilePointer(), 2);
        eq(g.read(), 0x62);
        g.close();
      },
    "primitives round-trip, and their bytes are Java's (big-endian, canonical NaN)": async () => {
      const { path, f } = await withBytes([], options);
      f.writeBoolean(true);
      f.writeBoolean(false);
      f.writeByte(-1);
      f.writeByte(0x1ff);
      f.writeShort(-2);
      f.writeChar("é");
      f.writeChar(0x10041);
      f.writeInt(-123456789);
      f.writeLong(-(2n ** 63n));
      f.writeLong(2 ** 53 - 1);
      f.writeFloat(1.5);
      f.writeFloat(Number.NaN);
      f.writeDouble(-0);
      f.writeDouble(Number.NaN);
      f.seek(0);
      eq(
        [
          f.readBoolean(),
          f.readBoolean(),
          f.readByte(),
          f.readUnsignedByte(),
          f.readShort(),
          f.readChar(),
        ],
        [true, false, -1, 0xff, -2, "é"],
      );
      eq(
        [f.readUnsignedShort(), f.readInt(), f.readLong(), f.readLongAsNumber()],
        [0x41, -123456789, -(2n ** 63n), 2 ** 53 - 1],
      );
      eq(
        [f.readFloat(), f.readFloat(), f.readDouble(), f.readDouble()],
        [1.5, Number.NaN, -0, Number.NaN],
      );
      f.close();
      const bytes = Uint8Array.from(await fileBytes(path));
      const d = new DataView(bytes.buffer);
      eq([...bytes.subarray(0, 8)], [1, 0, 0xff, 0xff, 0xff, 0xfe, 0, 0xe9]);
      eq(
        [d.getInt32(10), d.getUint32(34), d.getBigUint64(46), bytes.length],
        [-123456789, 0x7fc00000, 0x7ff8000000000000n, 54],
      );
    },
    "UTF: writeUTF/readUTF round-trip in Java's modified UTF-8 (NUL as C0 80, surrogates as 3 bytes each)":
      async () => {
        const { path, f } = await withBytes([], options);
        f.writeUTF("a\0é€\u{1F600}");
        f.seek(0);
        eq(f.readUTF(), "a\0é€\u{1F600}");
        f.close();
        eq(
          await fileBytes(path),
          [
            0, 14, 0x61, 0xc0, 0x80, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0xbd, 0xed, 0xb8,
            0x80,
          ],
        );
      },
    "writeUTF over 65535 encoded bytes throws UTFDataFormatError and writes nothing": async () => {
      const { path, f } = await withBytes([], options);
      let name = "";
      try {
        f.writeUTF("é".repeat(40000));
      } catch (error) {
        name = (error as Error).name;
      }
      eq(name, "UTFDataFormatError");
      eq(f.length(), 0);
      f.close();
      eq((await fileBytes(path)).length, 0);
    },
    "byteOrder little applies to numeric primitives, chars and bulk arrays; UTF stays Java's":
      async () => {
        const { path, f } = await withBytes([], { ...options, byteOrder: "little" });
        f.writeInt(0x01020304);
        f.writeChar(0x0a0b);
        f.writeShorts(Int16Array.of(0x0506));
        f.writeUTF("\u00e9");
        f.seek(0);
        eq(f.readInt(), 0x01020304);
        f.close();
        eq(await fileBytes(path), [4, 3, 2, 1, 0x0b, 0x0a, 6, 5, 0, 2, 0xc3, 0xa9]);
      },
    "bulk arrays round-trip with offset and count": async () => {
      const { f } = await withBytes([], options);
      const ints = Int32Array.from({ length: 3000 }, (_, k) => k * 7919 - 5000);
      f.writeInts(ints, 10, 2000);
      f.writeLongs(BigInt64Array.of(-1n, 2n ** 62n));
      f.writeFloats(Float32Array.of(0.5, Number.NaN));
      f.writeDoubles(Float64Array.of(Math.PI));
      f.writeShorts(Uint16Array.of(65535));
      f.seek(0);
      const back = new Int32Array(2002);
      f.readInts(back, 1, 2000);
      eq([...back.subarray(1, 2001)], [...ints.subarray(10, 2010)]);
      const longs = new BigInt64Array(2);
      f.readLongs(longs);
      eq([...longs], [-1n, 2n ** 62n]);
      const floats = new Float32Array(2);
      f.readFloats(floats);
      const doubles = new Float64Array(1);
      f.readDoubles(doubles);
      const shorts = new Int16Array(1);
      f.readShorts(shorts);
      eq([floats[0], floats[1], doubles[0], shorts[0]], [0.5, Number.NaN, Math.PI, -1]);
      let threw = false;
      try {
        f.readInts(new Int32Array(1));
      } catch (error) {
        threw = error instanceof EOFError;
      }
      eq(threw, true, "EOFError past the end");
      f.close();
    },
    "EOF: read() gives -1, readInt throws EOFError after consuming what was there": async () => {
      const { f } = await withBytes([1, 2], options);
      await throwsCode(() => f.readInt(), "ERR_RAF_EOF");
      eq(f.getFilePointer(), 2);
      eq(f.read(), -1);
      eq(f.read(new Uint8Array(4)), -1);
      f.close();
    },
    "seek past EOF does not grow the file; a write there does, with zeros between": async () => {
      const { path, f } = await withBytes([7], options);
      f.seek(4);
      eq(f.length(), 1);
      f.write(9);
      eq(f.length(), 5);
      f.close();
      eq(await fileBytes(path), [7, 0, 0, 0, 9]);
    },
    "setLength truncates (clamping the pointer) and extends with zeros": async () => {
      const { path, f } = await withBytes([1, 2, 3, 4, 5], options);
      f.seek(5);
      f.setLength(2);
      eq([f.length(), f.getFilePointer()], [2, 2]);
      f.setLength(4);
      eq(f.getFilePointer(), 2);
      f.close();
      eq(await fileBytes(path), [1, 2, 0, 0]);
    },
    "writeBytes keeps the low byte of each char; writeChars writes 2 bytes per char": async () => {
      const { path, f } = await withBytes([], options);
      f.writeBytes("A\u0142");
      f.writeChars("A\u0142");
      f.close();
      eq(await fileBytes(path), [0x41, 0x42, 0, 0x41, 0x01, 0x42]);
    },
    "positional I/O (readIntAt, writeLongAt, readUTFAt) leaves the file pointer alone":
      async () => {
        const { path, f } = await withBytes([], options);
        f.writeInt(1);
        f.writeLongAt(8, 0x0102030405060708n);
        f.writeUTFAt(16, "hé");
        eq(f.getFilePointer(), 4);
        eq([f.readIntAt(0), f.readLongAt(8), f.readUTFAt(16)], [1, 0x0102030405060708n, "hé"]);
        eq(f.getFilePointer(), 4);
        f.close();
        eq((await fileBytes(path)).slice(8, 21), [1, 2, 3, 4, 5, 6, 7, 8, 0, 3, 0x68, 0xc3, 0xa9]);
      },
    "reads see unflushed writes; length() counts them; flush writes them": async () => {
      const { path, f } = await withBytes([], options);
      f.writeInt(42);
      f.writeLong(7n);
      eq(f.length(), 12);
      f.seek(0);
      eq(f.readInt(), 42);
      f.flush();
      eq((await fileBytes(path)).length, 12);
      f.close();
    },
    "ops after close throw ERR_RAF_CLOSED; close is idempotent": async () => {
      const { f } = await withBytes([1], options);
      f.close();
      f.close();
      await throwsCode(() => f.read(), "ERR_RAF_CLOSED");
    },
  };
}
