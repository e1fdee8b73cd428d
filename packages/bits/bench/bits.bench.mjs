// Suites for @rafkit/bits against what Node offers out of the box: DataView and Buffer. Each fork runs one
// benchmark with one type, so the accessor picked in `state` is the only one its call site ever sees.
//
// Every receiver comes from the state, as JMH's benchmarks take their `@State` fields: the codec as the
// DataView and the Buffer. Where a caller keeps them moves the ratios (`bench/import-cost.bench.mjs`
// keeps both in four places alike). The `…Import` benchmarks call the codec through this module's import.

import { defineSuite } from "@rafkit/bench";
import { BigEndian, BigEndianView, decodeArray, ModifiedUtf8 } from "@rafkit/bits";

/** Accesses per benchmark call: 128 values spaced by their width (at most 1 KiB). */
const ACCESSES = 128;
const TYPES = ["Int16", "Int32", "Int64", "Float32", "Float64"];
const WIDTH = { Int16: 2, Int32: 4, Int64: 8, Float32: 4, Float64: 8 };
const bitsGet = {
  Int16: (c, b, o) => c.getInt16(b, o),
  Int32: (c, b, o) => c.getInt32(b, o),
  Int64: (c, b, o) => c.getBigInt64(b, o),
  Float32: (c, b, o) => c.getFloat32(b, o),
  Float64: (c, b, o) => c.getFloat64(b, o),
};
const importGet = {
  Int16: (b, o) => BigEndian.getInt16(b, o),
  Int32: (b, o) => BigEndian.getInt32(b, o),
  Int64: (b, o) => BigEndian.getBigInt64(b, o),
  Float32: (b, o) => BigEndian.getFloat32(b, o),
  Float64: (b, o) => BigEndian.getFloat64(b, o),
};
const bitsViewGet = {
  Int16: (c, v, o) => c.getInt16(v, o),
  Int32: (c, v, o) => c.getInt32(v, o),
  Int64: (c, v, o) => c.getBigInt64(v, o),
  Float32: (c, v, o) => c.getFloat32(v, o),
  Float64: (c, v, o) => c.getFloat64(v, o),
};
const viewGet = {
  Int16: (v, o) => v.getInt16(o),
  Int32: (v, o) => v.getInt32(o),
  Int64: (v, o) => v.getBigInt64(o),
  Float32: (v, o) => v.getFloat32(o),
  Float64: (v, o) => v.getFloat64(o),
};
const bufferGet = {
  Int16: (b, o) => b.readInt16BE(o),
  Int32: (b, o) => b.readInt32BE(o),
  Int64: (b, o) => b.readBigInt64BE(o),
  Float32: (b, o) => b.readFloatBE(o),
  Float64: (b, o) => b.readDoubleBE(o),
};
const bitsSet = {
  Int16: (c, b, o, v) => c.setInt16(b, o, v),
  Int32: (c, b, o, v) => c.setInt32(b, o, v),
  Int64: (c, b, o, v) => c.setBigInt64(b, o, v),
  Float32: (c, b, o, v) => c.setFloat32(b, o, v),
  Float64: (c, b, o, v) => c.setFloat64(b, o, v),
};
const importSet = {
  Int16: (b, o, v) => BigEndian.setInt16(b, o, v),
  Int32: (b, o, v) => BigEndian.setInt32(b, o, v),
  Int64: (b, o, v) => BigEndian.setBigInt64(b, o, v),
  Float32: (b, o, v) => BigEndian.setFloat32(b, o, v),
  Float64: (b, o, v) => BigEndian.setFloat64(b, o, v),
};
const bitsViewSet = {
  Int16: (c, d, o, v) => c.setInt16(d, o, v),
  Int32: (c, d, o, v) => c.setInt32(d, o, v),
  Int64: (c, d, o, v) => c.setBigInt64(d, o, v),
  Float32: (c, d, o, v) => c.setFloat32(d, o, v),
  Float64: (c, d, o, v) => c.setFloat64(d, o, v),
};
const viewSet = {
  Int16: (d, o, v) => d.setInt16(o, v),
  Int32: (d, o, v) => d.setInt32(o, v),
  Int64: (d, o, v) => d.setBigInt64(o, v),
  Float32: (d, o, v) => d.setFloat32(o, v),
  Float64: (d, o, v) => d.setFloat64(o, v),
};
const bufferSet = {
  Int16: (b, o, v) => void b.writeInt16BE(v, o),
  Int32: (b, o, v) => void b.writeInt32BE(v, o),
  Int64: (b, o, v) => void b.writeBigInt64BE(v, o),
  Float32: (b, o, v) => void b.writeFloatBE(v, o),
  Float64: (b, o, v) => void b.writeDoubleBE(v, o),
};
/**
 * The floor of a setter that takes a `Uint8Array` and an offset: the least any such accessor must do beyond the
 * DataView call. It finds the array's view in a one-entry cache and rejects an offset that is not a small
 * integer (DataView would truncate it), and a float setter tests for NaN (Java writes the canonical NaN). No
 * fallback and no error of its own: a real codec needs both, off the hot path. `last` is a parameter, as in
 * the codecs (a constant to the optimiser). Shaped as the codecs are (an empty frozen object over the frozen
 * methods) so that `BitsSet.floor` calls it exactly as `BitsSet.bigEndian` calls `BigEndian`: through the
 * same `bitsSet` arrow, from the state. Called any other way, the ratio measured the call paths' difference
 * too (BENCHMARKS.md, "The floor is called as the codec is").
 */
function floorCodec(last) {
  const miss = () => {
    throw new RangeError("not the cached array");
  };
  const view = (b) => (b === last.b ? last.v : miss());
  const offset = (off) => {
    if ((off | 0) !== off) throw new RangeError("not a small integer");
  };
  const methods = Object.freeze({
    setInt16(b, o, v) {
      offset(o);
      view(b).setInt16(o, v);
    },
    setInt32(b, o, v) {
      offset(o);
      view(b).setInt32(o, v);
    },
    setBigInt64(b, o, v) {
      if (o >>> 0 !== o) throw new RangeError("not a small integer");
      view(b).setBigInt64(o, v);
    },
    setFloat32(b, o, v) {
      offset(o);
      // biome-ignore lint/suspicious/noSelfCompare: the one-branch NaN test, as in the codecs
      if (v <= v) view(b).setFloat32(o, v);
      else view(b).setInt32(o, 0x7fc00000);
    },
    setFloat64(b, o, v) {
      offset(o);
      // biome-ignore lint/suspicious/noSelfCompare: the one-branch NaN test, as in the codecs
      if (v <= v) view(b).setFloat64(o, v);
      else view(b).setBigInt64(o, 0x7ff8000000000000n);
    },
  });
  return Object.freeze(Object.create(methods));
}
/** 1 KiB of deterministic pseudo-random bytes (no NaN patterns matter: reads keep bits as they are). */
function randomBytes(length, seed = 0x9e3779b9) {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}
function primitiveState({ type }) {
  const bytes = randomBytes(ACCESSES * 8);
  const view = new DataView(bytes.buffer);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const width = WIDTH[type];
  // Values for the setters, read back from the random bytes so each type gets valid ones.
  const values = Array.from({ length: ACCESSES }, (_, i) => viewGet[type](view, i * width));
  return {
    bytes,
    view,
    buffer,
    width,
    values: values,
    codec: BigEndian,
    viewCodec: BigEndianView,
    bitsGet: bitsGet[type],
    importGet: importGet[type],
    bitsViewGet: bitsViewGet[type],
    viewGet: viewGet[type],
    bufferGet: bufferGet[type],
    bitsSet: bitsSet[type],
    importSet: importSet[type],
    bitsViewSet: bitsViewSet[type],
    viewSet: viewSet[type],
    floorCodec: floorCodec({ b: bytes, v: view }),
    bufferSet: bufferSet[type],
  };
}
/**
 * Per-primitive big-endian reads: `BigEndian.getX(bytes, off)` vs `DataView#getX` vs `Buffer#readXBE`, and
 * `BigEndianView.getX(view, off)` (the codec on a DataView the caller holds); `bigEndianImport` reaches
 * `BigEndian` through the module's import instead of the state.
 */
export const BitsGet = defineSuite({
  name: "BitsGet",
  description: "one big-endian read per op; 128 ops per call at successive offsets",
  params: { type: TYPES },
  state: primitiveState,
  options: { unit: "ns", operationsPerInvocation: ACCESSES },
  benchmarks: {
    bigEndian(bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width)
        bh.consume(s.bitsGet(s.codec, s.bytes, o));
    },
    bigEndianImport(bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) bh.consume(s.importGet(s.bytes, o));
    },
    dataView(bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) bh.consume(s.viewGet(s.view, o));
    },
    bigEndianView(bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width)
        bh.consume(s.bitsViewGet(s.viewCodec, s.view, o));
    },
    buffer(bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) bh.consume(s.bufferGet(s.buffer, o));
    },
  },
});
/**
 * Per-primitive big-endian writes: `BigEndian.setX` vs `DataView#setX` vs `Buffer#writeXBE`, and
 * `BigEndianView.setX`; `bigEndianImport` reaches `BigEndian` through the module's import; `floor` is the least
 * a `Uint8Array` setter must do (see `floorCodec`), called as `bigEndian` calls the codec.
 */
export const BitsSet = defineSuite({
  name: "BitsSet",
  description: "one big-endian write per op; 128 ops per call at successive offsets",
  params: { type: TYPES },
  state: primitiveState,
  options: { unit: "ns", operationsPerInvocation: ACCESSES },
  benchmarks: {
    bigEndian(_bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width)
        s.bitsSet(s.codec, s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianImport(_bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) s.importSet(s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    dataView(_bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) s.viewSet(s.view, o, s.values[i]);
      return s.bytes[0];
    },
    floor(_bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width)
        s.bitsSet(s.floorCodec, s.bytes, o, s.values[i]);
      return s.bytes[0];
    },
    bigEndianView(_bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width)
        s.bitsViewSet(s.viewCodec, s.view, o, s.values[i]);
      return s.bytes[0];
    },
    buffer(_bh, s) {
      for (let i = 0, o = 0; i < ACCESSES; i++, o += s.width) s.bufferSet(s.buffer, o, s.values[i]);
      return s.bytes[0];
    },
  },
});
const MIB = 1 << 20;
/**
 * Bulk big-endian Int32 decode of 1 MiB into an `Int32Array`: `decodeArray` vs a `DataView` loop vs a
 * `Buffer#readInt32BE` loop. One op is the whole MiB; the `·bandwidth` metric gives GB/s.
 */
export const BitsBulkDecode = defineSuite({
  name: "BitsBulkDecode",
  description: "1 MiB big-endian -> Int32Array per op; reports ·bandwidth in GB/s",
  state: () => {
    const bytes = randomBytes(MIB);
    return {
      bytes,
      view: new DataView(bytes.buffer),
      buffer: Buffer.from(bytes.buffer),
      ints: new Int32Array(MIB / 4),
    };
  },
  options: { unit: "us", bytesPerOperation: MIB },
  benchmarks: {
    decodeArray(_bh, s) {
      decodeArray(s.bytes, 0, s.ints, 0, s.ints.length, "big");
      return s.ints[s.ints.length - 1];
    },
    dataViewLoop(_bh, s) {
      const { view, ints } = s;
      for (let i = 0; i < ints.length; i++) ints[i] = view.getInt32(i * 4);
      return ints[ints.length - 1];
    },
    bufferLoop(_bh, s) {
      const { buffer, ints } = s;
      for (let i = 0; i < ints.length; i++) ints[i] = buffer.readInt32BE(i * 4);
      return ints[ints.length - 1];
    },
  },
});
/**
 * Decoding an ASCII string from bytes: `ModifiedUtf8.decode` (what `readUTF` uses) vs `TextDecoder` vs
 * `Buffer#latin1Slice` (via `toString("latin1")`), for short and long strings.
 */
export const BitsModifiedUtf8 = defineSuite({
  name: "BitsModifiedUtf8",
  description: "ASCII bytes -> string",
  params: { length: [16, 1024] },
  state: ({ length }) => {
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = 0x20 + (i % 95);
    return { bytes, buffer: Buffer.from(bytes.buffer), decoder: new TextDecoder() };
  },
  options: { unit: "ns" },
  benchmarks: {
    modifiedUtf8: (_bh, s) => ModifiedUtf8.decode(s.bytes, 0, s.bytes.length),
    textDecoder: (_bh, s) => s.decoder.decode(s.bytes),
    bufferLatin1: (_bh, s) => s.buffer.toString("latin1", 0, s.bytes.length),
  },
});
/**
 * Reads that switch arrays: `BigEndian.getInt32` over `arrays` arrays in turn (1: always the cached one; 2:
 * the view cache's two slots; 3: a `WeakMap` lookup per access) vs `DataView#getInt32` over as many views.
 */
export const BitsSwitch = defineSuite({
  name: "BitsSwitch",
  description:
    "one big-endian Int32 read per op, each from the next of `arrays` arrays; 128 ops per call",
  params: { arrays: [1, 2, 3] },
  state: ({ arrays }) => {
    const bytes = Array.from({ length: arrays }, (_, k) => randomBytes(64, 0x9e3779b9 + k));
    return { codec: BigEndian, bytes, views: bytes.map((b) => new DataView(b.buffer)) };
  },
  options: { unit: "ns", operationsPerInvocation: ACCESSES },
  benchmarks: {
    bigEndian(bh, s) {
      const { codec, bytes } = s;
      for (let i = 0, k = 0; i < ACCESSES; i++) {
        bh.consume(codec.getInt32(bytes[k], (i & 7) << 2));
        if (++k === bytes.length) k = 0;
      }
    },
    dataView(bh, s) {
      const { views } = s;
      for (let i = 0, k = 0; i < ACCESSES; i++) {
        bh.consume(views[k].getInt32((i & 7) << 2));
        if (++k === views.length) k = 0;
      }
    },
  },
});
/** The bits suites in run order. */
export default [BitsGet, BitsSet, BitsBulkDecode, BitsModifiedUtf8, BitsSwitch];
