import type { Flavor, Result } from "./result";

/**
 * Java's `DataOutput`, written at the file pointer (which each write moves past its bytes), plus bulk
 * writes from typed arrays. Numbers go in the file's `byteOrder`. Writes are buffered (see the README's
 * "Guarantees and limits"); in modes `rws`/`rwd`, and with `bufferSize: 0`, each write call reaches the OS
 * before it returns. In mode `r` a write fails with `EBADF` before any I/O. Bad `off`/`len`/`count` fail
 * with a `RangeError` (`ERR_OUT_OF_RANGE`) before any I/O. Values are never converted: another type than a
 * writer's own (a string or an object for a number, a number for a boolean), or bytes that are not a
 * `Uint8Array`, or a bulk array of another kind, is a `TypeError` (`ERR_INVALID_ARG_TYPE`) before any I/O.
 */
export interface DataOutputApi<R extends Flavor> {
  /**
   * `write(byte)`: writes the low 8 bits of a number. `write(buf, off?, len?)`: writes `len` bytes
   * (default: the rest of `buf`) of `buf[off…]`.
   */
  write(b: number | Uint8Array, off?: number, len?: number): Result<R, void>;
  /** Writes 1 for true, 0 for false. */
  writeBoolean(v: boolean): Result<R, void>;
  /** Writes the low 8 bits of `v`. */
  writeByte(v: number): Result<R, void>;
  /** Writes the low 16 bits of `v`. */
  writeShort(v: number): Result<R, void>;
  /** Writes a `char`: the first code unit of a string, or the low 16 bits of a number. */
  writeChar(v: string | number): Result<R, void>;
  /** Writes the low 32 bits of `v`. */
  writeInt(v: number): Result<R, void>;
  /** Writes a 64-bit integer: a `bigint` modulo 2^64, or a safe-integer `number` (a `RangeError` otherwise, nothing written). */
  writeLong(v: bigint | number): Result<R, void>;
  /** Writes a 32-bit float; NaN as Java's canonical `0x7fc00000`. */
  writeFloat(v: number): Result<R, void>;
  /** Writes a 64-bit double; NaN as Java's canonical `0x7ff8000000000000`. */
  writeDouble(v: number): Result<R, void>;
  /** Java's `writeBytes`: the low 8 bits of each UTF-16 code unit of `s`, in one write. */
  writeBytes(s: string): Result<R, void>;
  /** Java's `writeChars`: each UTF-16 code unit of `s` as 2 bytes (in this file's byte order), in one write. */
  writeChars(s: string): Result<R, void>;
  /**
   * Java's `writeUTF`: a big-endian 2-byte length, then `s` in modified UTF-8, in one write. Fails with
   * `UTFDataFormatError` (Java's message) and writes nothing when that exceeds 65535 bytes.
   */
  writeUTF(s: string): Result<R, void>;
  /** Writes `src[off … off+count)` (default: the rest of `src`) as 16-bit integers. */
  writeShorts(src: Int16Array | Uint16Array, off?: number, count?: number): Result<R, void>;
  /** {@link writeShorts} for 32-bit integers. */
  writeInts(src: Int32Array | Uint32Array, off?: number, count?: number): Result<R, void>;
  /** {@link writeShorts} for 64-bit integers. */
  writeLongs(src: BigInt64Array | BigUint64Array, off?: number, count?: number): Result<R, void>;
  /** {@link writeShorts} for floats, each NaN as Java's canonical `0x7fc00000` (as `writeFloat`). */
  writeFloats(src: Float32Array, off?: number, count?: number): Result<R, void>;
  /** {@link writeShorts} for doubles, each NaN as Java's canonical `0x7ff8000000000000` (as `writeDouble`). */
  writeDoubles(src: Float64Array, off?: number, count?: number): Result<R, void>;
}
