import { readFileSync, writeFileSync } from "node:fs";
import { expect } from "vitest";
import type { RandomAccessFile } from "../../src/index";

/**
 * rafkit's side of the interop log shared with test/fixtures/Interop.java: lines `<pos> <type> <value>`,
 * numbers decimal, floats/doubles as raw bits in hex, strings as UTF-16 code units in hex ("-" if empty).
 */

const hex = (s: string) =>
  s.length === 0
    ? "-"
    : Array.from({ length: s.length }, (_, i) =>
        s.charCodeAt(i).toString(16).padStart(4, "0"),
      ).join("");
const bytesHex = (b: Uint8Array) => (b.length === 0 ? "-" : Buffer.from(b).toString("hex"));

const scratch = new DataView(new ArrayBuffer(8));
const floatBits = (v: number) => {
  scratch.setFloat32(0, v);
  return Number.isNaN(v) ? "7fc00000" : scratch.getUint32(0).toString(16);
};
const doubleBits = (v: number) => {
  scratch.setFloat64(0, v);
  return Number.isNaN(v) ? "7ff8000000000000" : scratch.getBigUint64(0).toString(16);
};
const bitsToFloat = (h: string) => {
  scratch.setUint32(0, Number.parseInt(h, 16));
  return scratch.getFloat32(0);
};
const bitsToDouble = (h: string) => {
  scratch.setBigUint64(0, BigInt(`0x${h}`));
  return scratch.getFloat64(0);
};

/** Reads `data` back with `f` per the log at `logPath`, checking every value (floats by value and raw bits). */
export function verifyWithLog(f: RandomAccessFile, logPath: string): number {
  const lines = readFileSync(logPath, "utf8").split("\n").filter(Boolean);
  lines.forEach((line, n) => {
    const [posText, type, want] = line.split(" ", 3) as [string, string, string];
    const pos = Number(posText);
    if (f.getFilePointer() !== pos) f.seek(pos);
    let got: string;
    switch (type) {
      case "bool":
        got = f.readBoolean() ? "1" : "0";
        break;
      case "byte":
        got = String(f.readByte());
        break;
      case "short":
        got = String(f.readShort());
        break;
      case "char":
        got = String(f.readChar().charCodeAt(0));
        break;
      case "int":
        got = String(f.readInt());
        break;
      case "long":
        got = String(want.length > 15 ? f.readLong() : f.readLongAsNumber());
        break;
      case "float": {
        const v = f.readFloat();
        expect(
          Object.is(v, bitsToFloat(want)) || (Number.isNaN(v) && Number.isNaN(bitsToFloat(want))),
        ).toBe(true);
        f.seek(pos);
        got = (f.readInt() >>> 0).toString(16);
        break;
      }
      case "double": {
        const v = f.readDouble();
        expect(
          Object.is(v, bitsToDouble(want)) || (Number.isNaN(v) && Number.isNaN(bitsToDouble(want))),
        ).toBe(true);
        f.seek(pos);
        got = BigInt.asUintN(64, f.readLong()).toString(16);
        break;
      }
      case "utf":
        got = hex(f.readUTF());
        break;
      case "line":
        got = hex(f.readLine() ?? "<null>");
        break;
      case "chars": {
        const len = Number(want.slice(0, want.indexOf(":")));
        let s = "";
        for (let i = 0; i < len; i++) s += f.readChar();
        got = `${len}:${hex(s)}`;
        break;
      }
      default: {
        const b = new Uint8Array(want === "-" ? 0 : want.length / 2);
        f.readFully(b);
        got = bytesHex(b);
      }
    }
    if (got !== want) expect(`entry ${n} (${line.slice(0, 80)}): got ${got.slice(0, 80)}`).toBe("");
  });
  return lines.length;
}

/** mulberry32: a small seeded PRNG; `int(n)` is uniform in [0, n). */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int };
}

type Rng = ReturnType<typeof prng>;

function randomString(r: Rng, max: number): string {
  const n = r.int(max + 1);
  let s = "";
  for (let i = 0; i < n; i++) {
    switch (r.int(7)) {
      case 0:
        s += "\0";
        break;
      case 1:
        s += String.fromCharCode(0x20 + r.int(0x5f));
        break;
      case 2:
        s += String.fromCharCode(0x80 + r.int(0x780));
        break;
      case 3:
        s += String.fromCharCode(0x800 + r.int(0xd000 - 0x800));
        break;
      case 4:
        s += String.fromCodePoint(0x10000 + r.int(0x100000));
        break;
      case 5:
        s += String.fromCharCode(0xd800 + r.int(0x800)); // lone surrogate
        break;
      default:
        s += String.fromCharCode(0xe000 + r.int(0x2000));
    }
  }
  return s;
}

const FIXED = ["bool", "byte", "short", "char", "int", "long", "float", "double"] as const;

function writeFixed(f: RandomAccessFile, r: Rng, type: string): string {
  switch (type) {
    case "bool": {
      const v = r.int(2) === 1;
      f.writeBoolean(v);
      return v ? "1" : "0";
    }
    case "byte": {
      const v = r.int(256) - 128;
      f.writeByte(v);
      return String(v);
    }
    case "short": {
      const v = r.int(65536) - 32768;
      f.writeShort(v);
      return String(v);
    }
    case "char": {
      const v = r.int(65536);
      if (r.int(2) === 0) f.writeChar(v);
      else f.writeChar(String.fromCharCode(v));
      return String(v);
    }
    case "int": {
      const v = (r.int(2 ** 32) | 0) >> 0;
      f.writeInt(v);
      return String(v);
    }
    case "long": {
      const v = BigInt.asIntN(64, (BigInt(r.int(2 ** 32)) << 32n) | BigInt(r.int(2 ** 32)));
      if (r.int(3) === 0 && Number.isSafeInteger(Number(v >> 12n))) {
        f.writeLong(Number(v >> 12n));
        return String(v >> 12n);
      }
      f.writeLong(v);
      return String(v);
    }
    case "float": {
      const k = r.int(4);
      const v =
        k === 0
          ? Number.NaN
          : k === 1
            ? -0
            : k === 2
              ? bitsToFloat(r.int(2 ** 32).toString(16))
              : r.next() * 1e6;
      f.writeFloat(v);
      return floatBits(Math.fround(v));
    }
    default: {
      const k = r.int(4);
      const v =
        k === 0
          ? Number.NaN
          : k === 1
            ? Number.NEGATIVE_INFINITY
            : k === 2
              ? r.next() * 1e300
              : -r.next();
      f.writeDouble(v);
      return doubleBits(v);
    }
  }
}

/** Writes a random (seeded) op sequence with `f`, as Interop.java's `write` does, and the log describing it. */
export function writeRandom(
  f: RandomAccessFile,
  logPath: string,
  seed: number,
  count: number,
): void {
  const r = prng(seed);
  const entries: { pos: number; type: string; value: string }[] = [];
  for (let i = 0; i < count; i++) {
    const k = r.int(17);
    const pos = f.getFilePointer();
    if (k < 8) {
      const type = FIXED[k]!;
      entries.push({ pos, type, value: writeFixed(f, r, type) });
    } else if (k < 10) {
      const s = randomString(r, k === 8 ? 8 : 300);
      f.writeUTF(s);
      entries.push({ pos, type: "utf", value: hex(s) });
    } else if (k === 10) {
      let s = "";
      for (let n = r.int(20); n > 0; n--) {
        const c = r.int(256);
        if (c !== 10 && c !== 13) s += String.fromCharCode(c);
      }
      f.writeBytes(`${s}${r.int(2) ? "\n" : "\r\n"}`);
      entries.push({ pos, type: "line", value: hex(s) });
    } else if (k === 11) {
      const s = randomString(r, 10);
      f.writeChars(s);
      entries.push({ pos, type: "chars", value: `${s.length}:${hex(s)}` });
    } else if (k === 12) {
      f.seek(f.length() + r.int(5000));
    } else if (k === 13 && entries.length > 0) {
      const j = r.int(entries.length);
      const e = entries[j]!;
      if ((FIXED as readonly string[]).includes(e.type)) {
        const back = f.getFilePointer();
        f.seek(e.pos);
        e.value = writeFixed(f, r, e.type);
        f.seek(back);
      }
    } else if (k === 16) {
      // Bulk: Java reads these back one readInt/readDouble at a time.
      const ints = Int32Array.from({ length: r.int(3000) }, () => r.int(2 ** 32) | 0);
      f.writeInts(ints);
      for (const [n, v] of ints.entries())
        entries.push({ pos: pos + 4 * n, type: "int", value: String(v) });
      const base = f.getFilePointer();
      const doubles = Float64Array.from({ length: r.int(10) }, () =>
        r.int(3) === 0 ? Number.NaN : r.next(),
      );
      f.writeDoubles(doubles);
      for (const [n, v] of doubles.entries()) {
        entries.push({ pos: base + 8 * n, type: "double", value: doubleBits(v) });
      }
    } else {
      const b = Uint8Array.from({ length: r.int(k === 14 ? 20 : 20000) }, () => r.int(256));
      f.write(b);
      entries.push({ pos, type: "raw", value: bytesHex(b) });
    }
  }
  writeFileSync(logPath, entries.map((e) => `${e.pos} ${e.type} ${e.value}\n`).join(""));
}
