import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import {
  ClosedError,
  EOFError,
  OffsetRangeError,
  RandomAccessFile,
  SystemCallError,
} from "../src/index";
import { prng } from "./support/interop-log";
import { hasJava, runJava } from "./support/java";
import { tempDir } from "./support/temp";

const tmp = tempDir();

const hex = (s: string) =>
  s.length === 0
    ? "-"
    : Array.from(s, (c) => c.charCodeAt(0).toString(16).padStart(4, "0")).join("");
const unhex = (h: string) =>
  h === "-"
    ? ""
    : String.fromCharCode(...(h.match(/.{4}/g) ?? []).map((x) => Number.parseInt(x, 16)));
const bytesHex = (b: Uint8Array) => (b.length === 0 ? "-" : Buffer.from(b).toString("hex"));

/** A random op script over a small file, so EOF, line ends, truncation and overlap come up often. */
function script(seed: number, mode: "r" | "rw", withReadBuf: boolean): string[] {
  const r = prng(seed);
  const pos = () => (r.int(10) === 0 ? -r.int(3) - 1 : r.int(72));
  const str = (max: number) => {
    const alphabet = ["a", "\n", "\r", "\0", "\u00e9", "\u0800", "\ud83d", "\ude00", "\u00ff", "Z"];
    let s = "";
    for (let n = r.int(max + 1); n > 0; n--) s += alphabet[r.int(alphabet.length)];
    return hex(s);
  };
  const ops: string[] = [mode];
  const gens: (() => string)[] = [
    () =>
      `write ${bytesHex(Uint8Array.from({ length: r.int(12) }, () => [10, 13, 65, 0, 255][r.int(5)]!))}`,
    () => `writeByte ${r.int(512) - 256}`,
    () => `writeShort ${r.int(1 << 17) - (1 << 16)}`,
    () => `writeChar ${r.int(65536)}`,
    () => `writeInt ${(r.int(2 ** 32) | 0) >> r.int(20)}`,
    () => `writeLong ${BigInt.asIntN(64, BigInt(r.int(2 ** 32)) * BigInt(r.int(2 ** 32)) * 3n)}`,
    () =>
      `writeFloat ${[0x7fc00000, 0x7f800001, 0xff800000, 0x3fc00000, r.int(2 ** 32)][r.int(5)]!.toString(16)}`,
    () =>
      `writeDouble ${["7ff8000000000001", "fff0000000000000", "3ff8000000000000", "8000000000000000"][r.int(4)]}`,
    () => `writeUTF ${str(6)}`,
    () => (r.int(4) === 0 ? `writeUTFRepeat 2048 ${21845 + r.int(2)}` : `writeBytes ${str(8)}`),
    () => `writeChars ${str(4)}`,
    () => "read",
    () => `readFully ${r.int(10)}`,
    () =>
      ["readBoolean", "readByte", "readUnsignedByte", "readShort", "readUnsignedShort", "readChar"][
        r.int(6)
      ]!,
    () => ["readInt", "readLong", "readFloat", "readDouble"][r.int(4)]!,
    () => "readLine",
    () => "readLine",
    () => "readUTF",
    () => `seek ${pos()}`,
    () => `seek ${pos()}`,
    () => `skipBytes ${r.int(40) - 5}`,
    () => `setLength ${pos()}`,
    () => "length",
    () => "getFilePointer",
    // Out of bounds (any instance must throw the same); in-bounds variants only where read(byte[]) is compared.
    () =>
      [`readBufOff 3 -1 1`, `readBufOff 3 2 2`, `readBufOff 3 0 -1`, `readBufOff 0 1 0`][r.int(4)]!,
  ];
  if (withReadBuf) {
    gens.push(() => `readBuf ${r.int(12)}`);
    gens.push(() => `readBufOff ${r.int(6)} ${r.int(8) - 1} ${r.int(8) - 1}`);
  }
  for (let n = 0; n < 150; n++) ops.push(gens[r.int(gens.length)]!());
  if (r.int(2) === 0)
    ops.push("close", "readInt", "writeInt 1", "seek 0", "length", "getFilePointer");
  return ops;
}

/** Runs one op on rafkit, with the same result text Script.java prints. */
function run(f: RandomAccessFile, a: string[]): string {
  const n = (k: number) => Number(a[k]);
  const fbits = new DataView(new ArrayBuffer(8));
  switch (a[0]) {
    case "write":
      f.write(a[1] === "-" ? new Uint8Array(0) : Buffer.from(a[1]!, "hex"));
      return "";
    case "writeByte":
      f.writeByte(n(1));
      return "";
    case "writeShort":
      f.writeShort(n(1));
      return "";
    case "writeChar":
      f.writeChar(n(1));
      return "";
    case "writeInt":
      f.writeInt(n(1));
      return "";
    case "writeLong":
      f.writeLong(BigInt(a[1]!));
      return "";
    case "writeFloat":
      fbits.setUint32(0, Number.parseInt(a[1]!, 16));
      f.writeFloat(fbits.getFloat32(0));
      return "";
    case "writeDouble":
      fbits.setBigUint64(0, BigInt(`0x${a[1]}`));
      f.writeDouble(fbits.getFloat64(0));
      return "";
    case "writeUTF":
      f.writeUTF(unhex(a[1]!));
      return "";
    case "writeUTFRepeat":
      f.writeUTF(String.fromCharCode(n(1)).repeat(n(2)));
      return "";
    case "writeBytes":
      f.writeBytes(unhex(a[1]!));
      return "";
    case "writeChars":
      f.writeChars(unhex(a[1]!));
      return "";
    case "read":
      return String(f.read());
    case "readBuf": {
      const b = new Uint8Array(n(1));
      const k = f.read(b);
      return `${k} ${k <= 0 ? "-" : bytesHex(b.subarray(0, k))}`;
    }
    case "readBufOff":
      return String(f.read(new Uint8Array(n(1)), n(2), n(3)));
    case "readFully": {
      const b = new Uint8Array(n(1));
      f.readFully(b);
      return bytesHex(b);
    }
    case "readBoolean":
      return f.readBoolean() ? "1" : "0";
    case "readByte":
      return String(f.readByte());
    case "readUnsignedByte":
      return String(f.readUnsignedByte());
    case "readShort":
      return String(f.readShort());
    case "readUnsignedShort":
      return String(f.readUnsignedShort());
    case "readChar":
      return String(f.readChar().charCodeAt(0));
    case "readInt":
      return String(f.readInt());
    case "readLong":
      return String(f.readLong());
    case "readFloat":
      fbits.setFloat32(0, f.readFloat());
      return fbits.getUint32(0).toString(16);
    case "readDouble":
      fbits.setFloat64(0, f.readDouble());
      return fbits.getBigUint64(0).toString(16);
    case "readLine": {
      const s = f.readLine();
      return s === null ? "null" : hex(s);
    }
    case "readUTF":
      return hex(f.readUTF());
    case "seek":
      f.seek(n(1));
      return "";
    case "skipBytes":
      return String(f.skipBytes(n(1)));
    case "setLength":
      f.setLength(n(1));
      return "";
    case "length":
      return String(f.length());
    case "getFilePointer":
      return String(f.getFilePointer());
    case "close":
      f.close();
      return "";
    default:
      throw new Error(`unknown op ${a[0]}`);
  }
}

/** Java's exception, as Script.java prints it. */
function javaStyle(e: unknown): string {
  if (e instanceof EOFError) return "EOF";
  if (e instanceof ClosedError) return `IOE:${e.message}`;
  if (e instanceof OffsetRangeError)
    return e.message === "Negative seek offset" ? `IOE:${e.message}` : "IOOBE";
  if (e instanceof SystemCallError) {
    const text = e.message.slice(
      e.message.indexOf(": ") + 2,
      e.message.lastIndexOf(`, ${e.syscall}`),
    );
    return `IOE:${text[0]!.toUpperCase()}${text.slice(1)}`;
  }
  if ((e as Error).name === "UTFDataFormatError") return "UTF";
  throw e;
}

function runScript(
  ops: readonly string[],
  data: string,
  bufferSize: number,
  backend: "node" | "native",
): string[] {
  const f = new RandomAccessFile(data, ops[0] as "r" | "rw", { bufferSize, backend });
  const out: string[] = [];
  for (const line of ops.slice(1)) {
    try {
      out.push(`ok ${run(f, line.split(" "))}`.trimEnd());
    } catch (e) {
      out.push(javaStyle(e));
    }
  }
  f.close();
  out.push(`bytes ${bytesHex(readFileSync(data))}`);
  return out;
}

const SEED_FILE = Uint8Array.from(Buffer.from("ab\r\ncd\n\re\u00e9\0\0\0\u0007 tail\r", "latin1"));
const CONFIGS = [
  { bufferSize: 0, backend: "native" },
  { bufferSize: 0, backend: "node" },
  { bufferSize: 5, backend: "native" },
  { bufferSize: 8192, backend: "native" },
  { bufferSize: 8192, backend: "node" },
] as const;

describe.skipIf(!hasJava)("differential: random op scripts give the JDK's exact results", () => {
  const scripts: { ops: string[]; data: string; java: string[] }[] = [];

  beforeAll(() => {
    const args: string[] = [];
    for (let k = 0; k < 24; k++) {
      const ops = script(1000 + k, k % 6 === 5 ? "r" : "rw", k % 2 === 0);
      const file = tmp(`script-${k}.txt`);
      const data = tmp(`script-${k}.bin`);
      writeFileSync(file, `${ops.join("\n")}\n`);
      writeFileSync(data, SEED_FILE);
      scripts.push({ ops, data, java: [] });
      args.push(file, data);
    }
    const out = runJava("Script", args).split("end\n");
    scripts.forEach((s, k) => {
      s.java = out[k]!.trimEnd().split("\n");
    });
  }, 60_000);

  test.each(CONFIGS)("bufferSize $bufferSize, $backend backend", ({ bufferSize, backend }) => {
    let compared = 0;
    for (const [k, s] of scripts.entries()) {
      // Buffered, read(byte[]) may legally return fewer bytes than the JDK: those scripts run unbuffered only.
      if (bufferSize !== 0 && s.ops.some((o) => o.startsWith("readBuf "))) continue;
      const data = tmp(`ours-${k}.bin`);
      writeFileSync(data, SEED_FILE);
      const ours = runScript(s.ops, data, bufferSize, backend);
      const labelled = (lines: string[]) =>
        lines.map((l, i) => `${s.ops[i + 1] ?? "final"} => ${l}`);
      expect(labelled(ours), `script ${k}`).toEqual(labelled(s.java));
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });
});
