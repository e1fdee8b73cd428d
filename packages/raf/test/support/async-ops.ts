import { mkdirSync } from "node:fs";
import type { Backend } from "@rafkit/syscall-state";
import type fc from "fast-check";
import { AsyncRandomAccessFile, EOFError, RandomAccessFile } from "../../src/index";
import type { opArb } from "./model";
import { tempDir } from "./temp";

// Shared by the async-*.test.ts files; each test file gets its own copy of this module (and temp directory).

/** Names in this test file's temp directory. */
export const tmp = tempDir();

/** One generated operation (./model's `opArb`). */
export type AnyOp = typeof opArb extends fc.Arbitrary<infer T> ? T : never;
/** Either class: the same method names, sync or async. */
export type AnyFile = RandomAccessFile | AsyncRandomAccessFile;

/** Calls the method `o` names; the same code for both classes (same names), sync or async. */
function call(f: AnyFile, o: AnyOp): unknown {
  // biome-ignore lint/suspicious/noExplicitAny: one call site for both classes
  const g = f as any;
  switch (o.op) {
    case "seek":
      return g.seek(o.pos);
    case "read1":
      return g.read();
    case "readShort":
      return g.readShort();
    case "readInt":
      return g.readInt();
    case "readLong":
      return g.readLong();
    case "readFully": {
      const buf = new Uint8Array(o.n);
      return then(g.readFully(buf), () => [...buf]);
    }
    case "readSome": {
      const buf = new Uint8Array(o.n);
      return then(g.read(buf), (n) => [n, [...buf]]);
    }
    case "readLine":
      return g.readLine();
    case "skip":
      return g.skipBytes(o.n);
    case "writeByte":
      return g.writeByte(o.v);
    case "writeShort":
      return g.writeShort(o.v);
    case "writeInt":
      return g.writeInt(o.v);
    case "writeLong":
      return g.writeLong(o.v);
    case "write":
      return g.write(o.data);
    case "setLength":
      return g.setLength(o.n);
    case "length":
      return g.length();
    case "flush":
      return g.flush();
    case "pointer":
      return g.getFilePointer();
    case "readInts": {
      const dst = new Int32Array(o.n);
      return then(g.readInts(dst), () => [...dst]);
    }
    case "writeInts":
      return g.writeInts(o.values);
    case "readDoubles": {
      const dst = new Float64Array(o.n);
      return then(g.readDoubles(dst), () => [...dst]);
    }
    case "writeUTF":
      return g.writeUTF(o.s);
    case "readUTF":
      return g.readUTF();
    case "writeDouble":
      return g.writeDouble(o.v);
    case "readDouble":
      return g.readDouble();
    case "writeIntAt":
      return g.writeIntAt(o.pos, o.v);
    case "readIntAt":
      return g.readIntAt(o.pos);
  }
}

function then(r: unknown, f: (v: unknown) => unknown): unknown {
  return r instanceof Promise ? r.then(f) : f(r);
}

const outcome = (e: unknown) => (e instanceof EOFError ? "EOF" : `${(e as Error).name}`);

/** Runs `ops` on the sync class, each result or the name of what it threw ("EOF" for EOFError). */
export function syncOutcomes(path: string, ops: readonly AnyOp[], bufferSize: number): unknown[] {
  const f = new RandomAccessFile(path, "rw", { bufferSize });
  const out = ops.map((o) => {
    try {
      const r = call(f, o);
      return r === undefined ? null : r;
    } catch (e) {
      return outcome(e);
    }
  });
  f.close();
  return out;
}

/** Runs `ops` on the async class: all issued at once (`pipelined`) or awaited one by one. */
export async function asyncOutcomes(
  path: string,
  ops: readonly AnyOp[],
  bufferSize: number,
  backend: Backend,
  pipelined: boolean,
): Promise<unknown[]> {
  const f = await AsyncRandomAccessFile.open(path, "rw", { bufferSize, backend });
  const settle = (p: unknown) =>
    Promise.resolve(p).then(
      (r) => (r === undefined ? null : r),
      (e: unknown) => outcome(e),
    );
  let out: unknown[];
  if (pipelined) out = await Promise.all(ops.map((o) => settle(call(f, o))));
  else {
    out = [];
    for (const o of ops) out.push(await settle(call(f, o)));
  }
  await f.close();
  return out;
}

let dirCount = 0;
/** A fresh empty directory in the temp directory. */
export function tmpDirPath(): string {
  const d = tmp(`dir-${dirCount++}`);
  mkdirSync(d);
  return d;
}
