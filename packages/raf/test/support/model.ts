/** The in-memory model of Java's RandomAccessFile, the op generator, and the runner comparing the two. */

import { readFileSync, rmSync } from "node:fs";
import fc from "fast-check";
import { expect } from "vitest";
import { EOFError, RandomAccessFile } from "../../src/index";

/** The in-memory model: Java's RandomAccessFile semantics over a growable byte array. */
class Model {
  bytes = new Uint8Array(0);
  pointer = 0;

  /** Reads `n` bytes like readFully: all of them, or consume what remains and report EOF. */
  take(n: number): Uint8Array | "EOF" {
    const avail = Math.max(0, Math.min(n, this.bytes.length - this.pointer));
    const out = this.bytes.slice(this.pointer, this.pointer + avail);
    this.pointer += avail;
    return avail < n ? "EOF" : out;
  }

  put(src: Uint8Array): void {
    if (src.length === 0) return;
    const end = this.pointer + src.length;
    if (end > this.bytes.length) this.setLength(end);
    this.bytes.set(src, this.pointer);
    this.pointer = end;
  }

  /** `pwrite`: `src` at `pos`, growing the array; the pointer stays. */
  putAt(pos: number, src: Uint8Array): void {
    const end = pos + src.length;
    if (end > this.bytes.length) {
      const next = new Uint8Array(end);
      next.set(this.bytes);
      this.bytes = next;
    }
    this.bytes.set(src, pos);
  }

  /** All `n` bytes at `pos`, or EOF; the pointer stays. */
  takeAt(pos: number, n: number): Uint8Array | "EOF" {
    return pos + n > this.bytes.length ? "EOF" : this.bytes.slice(pos, pos + n);
  }

  setLength(n: number): void {
    const next = new Uint8Array(n);
    next.set(this.bytes.subarray(0, Math.min(n, this.bytes.length)));
    this.bytes = next;
    if (this.pointer > n) this.pointer = n;
  }
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

type Op =
  | { op: "seek"; pos: number }
  | { op: "read1" }
  | { op: "readShort" }
  | { op: "readInt" }
  | { op: "readLong" }
  | { op: "readFully"; n: number }
  | { op: "readSome"; n: number }
  | { op: "readLine" }
  | { op: "skip"; n: number }
  | { op: "writeByte"; v: number }
  | { op: "writeShort"; v: number }
  | { op: "writeInt"; v: number }
  | { op: "writeLong"; v: bigint }
  | { op: "write"; data: Uint8Array }
  | { op: "setLength"; n: number }
  | { op: "length" }
  | { op: "flush" }
  | { op: "pointer" }
  | { op: "readInts"; n: number }
  | { op: "writeInts"; values: Int32Array }
  | { op: "readDoubles"; n: number }
  | { op: "writeUTF"; s: string }
  | { op: "readUTF" }
  | { op: "writeDouble"; v: number }
  | { op: "readDouble" }
  | { op: "writeIntAt"; pos: number; v: number }
  | { op: "readIntAt"; pos: number };

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  // Seeks are frequent and mostly short, so writes and reads land inside, before and after the window.
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("seek" as const),
      pos: fc.oneof(fc.nat(40), fc.nat(300)),
    }),
  },
  fc.constant({ op: "read1" as const }),
  fc.constant({ op: "readShort" as const }),
  fc.constant({ op: "readInt" as const }),
  fc.constant({ op: "readLong" as const }),
  fc.record({ op: fc.constant("readFully" as const), n: fc.nat(40) }),
  fc.record({ op: fc.constant("readSome" as const), n: fc.integer({ min: 1, max: 40 }) }),
  fc.constant({ op: "readLine" as const }),
  fc.record({ op: fc.constant("skip" as const), n: fc.integer({ min: -2, max: 50 }) }),
  fc.record({ op: fc.constant("writeByte" as const), v: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant("writeShort" as const), v: fc.integer({ min: -32768, max: 32767 }) }),
  fc.record({ op: fc.constant("writeInt" as const), v: fc.integer() }),
  fc.record({
    op: fc.constant("writeLong" as const),
    v: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  }),
  fc.record({
    op: fc.constant("write" as const),
    // Bytes 10 and 13 often, so readLine has lines to split.
    data: fc
      .uint8Array({ maxLength: 40 })
      .map((a) => a.map((x) => (x % 7 === 0 ? 10 : x % 11 === 0 ? 13 : x))),
  }),
  fc.record({ op: fc.constant("setLength" as const), n: fc.nat(300) }),
  fc.constant({ op: "length" as const }),
  fc.constant({ op: "flush" as const }),
  fc.constant({ op: "pointer" as const }),
  fc.record({ op: fc.constant("readInts" as const), n: fc.nat(20) }),
  fc.record({ op: fc.constant("writeInts" as const), values: fc.int32Array({ maxLength: 20 }) }),
  fc.record({ op: fc.constant("readDoubles" as const), n: fc.nat(6) }),
  fc.record({
    op: fc.constant("writeUTF" as const),
    s: fc.string({ unit: "binary", maxLength: 12 }),
  }),
  fc.constant({ op: "readUTF" as const }),
  fc.record({ op: fc.constant("writeDouble" as const), v: fc.double() }),
  fc.constant({ op: "readDouble" as const }),
  // Positional ops leave the pointer alone, so they land inside write runs and windows.
  fc.record({ op: fc.constant("writeIntAt" as const), pos: fc.nat(300), v: fc.integer() }),
  fc.record({ op: fc.constant("readIntAt" as const), pos: fc.nat(300) }),
);

/** Java's modified UTF-8, written out independently of @rafkit/bits. */
function javaModifiedUtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 1 && c <= 0x7f) out.push(c);
    else if (c <= 0x7ff) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}

/** Runs one op on the file and on the model; returns both outcomes for comparison. */
function step(f: RandomAccessFile, m: Model, o: Op): [unknown, unknown] {
  const attempt = (fn: () => unknown) => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof EOFError) return "EOF";
      throw e;
    }
  };
  const numeric = (n: number, get: (d: DataView) => unknown) => {
    const r = m.take(n);
    return r === "EOF" ? "EOF" : get(view(r));
  };
  switch (o.op) {
    case "seek":
      f.seek(o.pos);
      m.pointer = o.pos;
      return [0, 0];
    case "read1": {
      const r = m.take(1);
      return [f.read(), r === "EOF" ? -1 : r[0]];
    }
    case "readShort":
      return [attempt(() => f.readShort()), numeric(2, (d) => d.getInt16(0))];
    case "readInt":
      return [attempt(() => f.readInt()), numeric(4, (d) => d.getInt32(0))];
    case "readLong":
      return [attempt(() => f.readLong()), numeric(8, (d) => d.getBigInt64(0))];
    case "readFully": {
      const buf = new Uint8Array(o.n);
      const got = attempt(() => {
        f.readFully(buf);
        return buf;
      });
      return [got, m.take(o.n)];
    }
    case "readSome": {
      // Java's read(byte[]) may return fewer bytes than are there: follow what the file returned.
      const buf = new Uint8Array(o.n);
      const n = f.read(buf);
      const avail = Math.min(o.n, m.bytes.length - m.pointer);
      if (avail <= 0) return [n, -1];
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(avail);
      return [buf.subarray(0, n), m.take(n)];
    }
    case "readLine": {
      let s = "";
      let c = -1;
      for (;;) {
        const r = m.take(1);
        c = r === "EOF" ? -1 : r[0]!;
        if (c === -1 || c === 10) break;
        if (c === 13) {
          const cur = m.pointer;
          const n = m.take(1);
          if (n === "EOF" || n[0] !== 10) m.pointer = cur;
          break;
        }
        s += String.fromCharCode(c);
      }
      return [f.readLine(), c === -1 && s === "" ? null : s];
    }
    case "skip": {
      const got = f.skipBytes(o.n);
      if (o.n <= 0) return [got, 0];
      const target = Math.min(m.pointer + o.n, m.bytes.length);
      const moved = target - m.pointer;
      m.pointer = target;
      return [got, moved];
    }
    case "writeByte":
      f.writeByte(o.v);
      m.put(Uint8Array.of(o.v));
      return [0, 0];
    case "writeShort": {
      f.writeShort(o.v);
      const b = new Uint8Array(2);
      view(b).setInt16(0, o.v);
      m.put(b);
      return [0, 0];
    }
    case "writeInt": {
      f.writeInt(o.v);
      const b = new Uint8Array(4);
      view(b).setInt32(0, o.v);
      m.put(b);
      return [0, 0];
    }
    case "writeLong": {
      f.writeLong(o.v);
      const b = new Uint8Array(8);
      view(b).setBigInt64(0, o.v);
      m.put(b);
      return [0, 0];
    }
    case "write":
      f.write(o.data);
      m.put(o.data);
      return [0, 0];
    case "setLength":
      f.setLength(o.n);
      m.setLength(o.n);
      return [0, 0];
    case "length":
      return [f.length(), m.bytes.length];
    case "flush":
      f.flush();
      return [0, 0];
    case "pointer":
      return [f.getFilePointer(), m.pointer];
    case "readInts": {
      const dst = new Int32Array(o.n);
      const got = attempt(() => {
        f.readInts(dst);
        return [...dst];
      });
      return [
        got,
        numeric(4 * o.n, (d) => Array.from({ length: o.n }, (_, k) => d.getInt32(4 * k))),
      ];
    }
    case "writeInts": {
      f.writeInts(o.values);
      const b = new Uint8Array(4 * o.values.length);
      for (const [k, v] of o.values.entries()) view(b).setInt32(4 * k, v);
      m.put(b);
      return [0, 0];
    }
    case "readDoubles": {
      const dst = new Float64Array(o.n);
      const got = attempt(() => {
        f.readDoubles(dst);
        return [...dst];
      });
      return [
        got,
        numeric(8 * o.n, (d) => Array.from({ length: o.n }, (_, k) => d.getFloat64(8 * k))),
      ];
    }
    case "writeUTF": {
      f.writeUTF(o.s);
      const body = javaModifiedUtf8(o.s);
      const b = new Uint8Array(2 + body.length);
      view(b).setUint16(0, body.length);
      b.set(body, 2);
      m.put(b);
      return [0, 0];
    }
    case "writeDouble": {
      f.writeDouble(o.v);
      const b = new Uint8Array(8);
      // Java's writeDouble: doubleToLongBits, so every NaN is the canonical one.
      view(b).setFloat64(0, Number.isNaN(o.v) ? Number.NaN : o.v);
      m.put(b);
      return [0, 0];
    }
    case "readDouble":
      return [attempt(() => f.readDouble()), numeric(8, (d) => d.getFloat64(0))];
    case "writeIntAt": {
      f.writeIntAt(o.pos, o.v);
      const b = new Uint8Array(4);
      view(b).setInt32(0, o.v);
      m.putAt(o.pos, b);
      return [0, 0];
    }
    case "readIntAt": {
      const r = m.takeAt(o.pos, 4);
      return [attempt(() => f.readIntAt(o.pos)), r === "EOF" ? "EOF" : view(r).getInt32(0)];
    }
    case "readUTF": {
      // The model only checks the bytes consumed and EOF: decoding is @rafkit/bits' job.
      const start = m.pointer;
      const head = m.take(2);
      let want: unknown = "EOF";
      if (head !== "EOF") {
        const body = m.take(view(head).getUint16(0));
        if (body !== "EOF") want = "decoded";
      }
      let got: unknown;
      try {
        f.readUTF();
        got = "decoded";
      } catch (e) {
        got =
          e instanceof EOFError
            ? "EOF"
            : (e as Error).name === "UTFDataFormatError"
              ? "decoded"
              : e;
      }
      void start;
      return [got, want];
    }
  }
}

/** Runs `ops` against a fresh file and the model; every result and the final bytes must agree. */
export function runModel(
  tmp: (name: string) => string,
  ops: readonly Op[],
  options: ConstructorParameters<typeof RandomAccessFile>[2],
  mode: "rw" | "rws" | "rwd" = "rw",
): void {
  const path = tmp("model.bin");
  const f = new RandomAccessFile(path, mode, options);
  const m = new Model();
  try {
    ops.forEach((o, k) => {
      const [got, want] = step(f, m, o);
      expect(
        got,
        `op #${k} ${JSON.stringify(o, (_, v) => (typeof v === "bigint" ? `${v}n` : v))}`,
      ).toEqual(want);
      expect(f.getFilePointer(), `pointer after op #${k}`).toBe(m.pointer);
    });
  } finally {
    f.close();
  }
  expect(new Uint8Array(readFileSync(path))).toEqual(m.bytes);
  rmSync(path);
}
