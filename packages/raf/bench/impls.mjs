// How each implementation in rafkit's suites does one op (raf.bench.mjs has the suites): the codecs per
// primitive, rafkit's RandomAccessFile, node:fs, and the floors.
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { RandomAccessFile } from "@rafkit/raf";
import { isNativeAvailable, nativeBackend, nodeBackend } from "@rafkit/syscall-state";
import { BufferedFloorFile } from "./buffered-floor.mjs";

/**
 * The native floor's memory: 16 bytes at a fixed address (a `SharedArrayBuffer`'s never move), as the
 * address koffi's `intptr_t` form of pread/pwrite takes, and a view of it.
 */
export function directMemory() {
  const memory = new SharedArrayBuffer(16);
  const koffi = createRequire(import.meta.url)("koffi");
  return { address: Number(koffi.address(new Uint8Array(memory))), view: new DataView(memory) };
}

export const WIDTH = { Short: 2, Int: 4, Long: 8 };
export const CODECS = {
  Short: {
    read: (f) => f.readShort(),
    write: (f, v) => f.writeShort(v),
    bufferRead: (b) => b.readInt16BE(0),
    bufferWrite: (b, v) => void b.writeInt16BE(v, 0),
    viewGet: (d, o) => d.getInt16(o),
    viewSet: (d, o, v) => d.setInt16(o, v),
    values: (bytes) => new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2),
  },
  Int: {
    read: (f) => f.readInt(),
    write: (f, v) => f.writeInt(v),
    bufferRead: (b) => b.readInt32BE(0),
    bufferWrite: (b, v) => void b.writeInt32BE(v, 0),
    viewGet: (d, o) => d.getInt32(o),
    viewSet: (d, o, v) => d.setInt32(o, v),
    values: (bytes) => new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
  },
  Long: {
    read: (f) => f.readLong(),
    write: (f, v) => f.writeLong(v),
    bufferRead: (b) => b.readBigInt64BE(0),
    bufferWrite: (b, v) => void b.writeBigInt64BE(v, 0),
    viewGet: (d, o) => d.getBigInt64(o),
    viewSet: (d, o, v) => d.setBigInt64(o, v),
    values: (bytes) => new BigInt64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8),
  },
};

/** The backend for the floors and rafkit: native where it loads (the default's choice). */
export const fastBackend = () => (isNativeAvailable() ? nativeBackend() : nodeBackend());
export const backendName = () => (isNativeAvailable() ? "native" : "node");

// Every measured loop is the last statement of its own function. When a loop is followed by code (a pwrite,
// a flush, a close), V8 may enter the loop's on-stack-replacement code on every call, code compiled before
// what follows the loop ever ran: it deoptimises there on each op, and the op costs tens of microseconds
// more (BENCHMARKS.md, "Loops end their functions").

/** The floor's fill: a `DataView` set per value at a local offset. */
function fillView(s, codec) {
  for (let k = 0, off = 0; k < s.count; k++, off += s.width)
    codec.viewSet(s.view, off, s.values[k]);
}

/** pointerOnly's fill: the floor with the offset in an object's field. */
function fillViewAtPointer(s, codec) {
  const c = s.cursor;
  c.pointer = 0;
  for (let k = 0; k < s.count; k++) {
    codec.viewSet(s.view, c.pointer, s.values[k]);
    c.pointer += s.width;
  }
}

/** rafkit's writes of every value at the pointer. */
function writeAll(f, s, codec) {
  for (let k = 0; k < s.count; k++) codec.write(f, s.values[k]);
}

/** rafkit's reads of `count` primitives at the pointer, each to the blackhole. */
function readAll(f, s, codec, bh) {
  for (let k = 0; k < s.count; k++) bh.consume(codec.read(f));
}

/** node:fs's reads of `count` primitives, one `readSync` each. */
function readSyncAll(fd, s, codec, bh) {
  for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
    readSync(fd, s.small, 0, s.width, pos);
    bh.consume(codec.bufferRead(s.small));
  }
}

/** The floor's decode loop over the view. */
function decodeView(s, codec, bh) {
  for (let k = 0, off = 0; k < s.count; k++, off += s.width) bh.consume(codec.viewGet(s.view, off));
}

/**
 * How each Node impl opens the iteration's file, reads `count` primitives after seek(0) and writes them. Each
 * fork runs one impl and one primitive, so every call site below sees one function.
 */
export const NODE_IMPLS = {
  rafkit: rafImpl({ backend: "fast" }),
  rafkitUnbuffered: rafImpl({ bufferSize: 0, backend: "native" }),
  rafkitUnbufferedNode: rafImpl({ bufferSize: 0, backend: "node" }),
  nodeFs: {
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        readSync(fd, s.small, 0, s.width, pos);
        bh.consume(codec.bufferRead(s.small));
      }
    },
    write(fd, s, codec) {
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        codec.bufferWrite(s.small, s.values[k]);
        writeSync(fd, s.small, 0, s.width, pos);
      }
    },
  },
  nativeFloor: {
    // What rafkitUnbuffered cannot go below: libc's pread/pwrite called through koffi once per primitive
    // on memory at a fixed address (koffi's cheapest form of the call), with no errno capture, no checks
    // and no retry.
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      const { preadAddress } = s.libc;
      const { address, view } = s.direct;
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        preadAddress(fd, address, s.width, pos);
        bh.consume(codec.viewGet(view, 0));
      }
    },
    write(fd, s, codec) {
      const { pwriteAddress } = s.libc;
      const { address, view } = s.direct;
      for (let k = 0, pos = 0; k < s.count; k++, pos += s.width) {
        codec.viewSet(view, 0, s.values[k]);
        pwriteAddress(fd, address, s.width, pos);
      }
    },
  },
  floor: {
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      s.backend.pread(fd, s.bytes, 0, s.size, 0);
      for (let k = 0, off = 0; k < s.count; k++, off += s.width)
        bh.consume(codec.viewGet(s.view, off));
    },
    write(fd, s, codec) {
      fillView(s, codec);
      return s.backend.pwrite(fd, s.bytes, 0, s.size, 0);
    },
  },
  // The floor of any buffered file object (buffered-floor.mjs): rafkit's API shape with nothing else.
  bufferedFloor: {
    open: (path) => new BufferedFloorFile(openSync(path, "r+"), fastBackend()),
    close(f) {
      f.close();
      closeSync(f.fd);
    },
    read: readFromStart,
    write: writeFromStart,
  },
  pointerOnly: {
    open: (path) => openSync(path, "r+"),
    close: (fd) => closeSync(fd),
    read(fd, s, codec, bh) {
      s.backend.pread(fd, s.bytes, 0, s.size, 0);
      const c = s.cursor;
      c.pointer = 0;
      for (let k = 0; k < s.count; k++) {
        bh.consume(codec.viewGet(s.view, c.pointer));
        c.pointer += s.width;
      }
    },
    write(fd, s, codec) {
      fillViewAtPointer(s, codec);
      return s.backend.pwrite(fd, s.bytes, 0, s.size, 0);
    },
  },
};

/** rafkit's RandomAccessFile with `options`; writes include the final flush(), so the bytes reach the OS. */
function rafImpl({ backend, ...options }) {
  return {
    open: (path) =>
      new RandomAccessFile(path, "rw", {
        ...options,
        backend: backend === "fast" ? backendName() : backend,
      }),
    close: (f) => f.close(),
    read: readFromStart,
    write: writeFromStart,
  };
}

/** A file object's op of the read benchmark: seek(0), then `count` primitive reads, each to the blackhole. */
function readFromStart(f, s, codec, bh) {
  f.seek(0);
  for (let k = 0; k < s.count; k++) bh.consume(codec.read(f));
}

/** A file object's op of the write benchmark: seek(0), `count` primitive writes, then flush(). */
function writeFromStart(f, s, codec) {
  f.seek(0);
  writeAll(f, s, codec);
  f.flush();
}

/** Open "r", read all `count` primitives, close: what each impl does per op of the read benchmark. */
export const OPEN_READ_CLOSE = {
  rafkit(s, codec, bh) {
    const f = new RandomAccessFile(s.path, "r", { backend: backendName() });
    try {
      readAll(f, s, codec, bh);
    } finally {
      f.close();
    }
  },
  nodeFs(s, codec, bh) {
    const fd = openSync(s.path, "r");
    try {
      readSyncAll(fd, s, codec, bh);
    } finally {
      closeSync(fd);
    }
  },
  floor(s, codec, bh) {
    const fd = s.backend.open(s.path, "r");
    try {
      s.backend.pread(fd, s.bytes, 0, s.size, 0);
      decodeView(s, codec, bh);
    } finally {
      s.backend.close(fd);
    }
  },
};
