import type { Flavor, Result } from "./result";

/**
 * Java's `DataInput`, read at the file pointer (which each read moves past the bytes it consumed), plus
 * bulk reads into typed arrays. Numbers are in the file's `byteOrder` (big-endian, as Java, by default).
 * A read that needs more bytes than remain fails with `EOFError` after consuming the bytes that were
 * there, as Java does. Bad `off`/`len`/`count` fail with a `RangeError` (`ERR_OUT_OF_RANGE`, Java's
 * message) before any I/O; a buffer that is not a `Uint8Array`, or a bulk array of another kind than the
 * method's (`readInts` takes an `Int32Array` or a `Uint32Array`), with a `TypeError` (`ERR_INVALID_ARG_TYPE`).
 */
export interface DataInputApi<R extends Flavor> {
  /** `read()`: the next byte (0–255), or -1 at end of file. */
  read(): Result<R, number>;
  /**
   * `read(buf, off?, len?)`: reads up to `len` bytes (default: the rest of `buf`) into `buf[off…]` and
   * returns how many, or -1 at end of file (never 0 unless `len` is 0). It returns the window's bytes plus
   * at most one system call for the rest, as the JDK's one `read(2)` asks for all `len` bytes, so it is
   * short only where the OS read is: at end of file. When it moves the window or goes around it (`len` at
   * least `bufferSize`), this instance's pending writes are flushed first; if that flush fails, the read
   * fails with it and they stay pending.
   */
  read(buf: Uint8Array, off?: number, len?: number): Result<R, number>;
  /**
   * Reads exactly `len` bytes (default: the rest of `buf`) into `buf[off…]`; fails with `EOFError` if the
   * file ends first (the bytes that were there are consumed).
   */
  readFully(buf: Uint8Array, off?: number, len?: number): Result<R, void>;
  /**
   * Java's `skipBytes`: moves the pointer forward by up to `n` bytes, never past end of file; returns the
   * distance moved (0 for `n <= 0`). `n` must be an integer (a `RangeError` for NaN or a fraction, before
   * anything moves). From a pointer past end of file it moves back to the end and returns the (negative)
   * distance as Java's `int` result does, wrapped to 32 bits: from 4294967306 on an empty file, -10. A
   * positive result is never more than `n`; `n` above 2^31-1 (which Java cannot pass) returns the full distance.
   */
  skipBytes(n: number): Result<R, number>;
  /** Reads a byte: true when it is not 0. */
  readBoolean(): Result<R, boolean>;
  /** Reads a signed byte (-128–127). */
  readByte(): Result<R, number>;
  /** Reads an unsigned byte (0–255). */
  readUnsignedByte(): Result<R, number>;
  /** Reads a signed 16-bit integer. */
  readShort(): Result<R, number>;
  /** Reads an unsigned 16-bit integer. */
  readUnsignedShort(): Result<R, number>;
  /** Reads a `char`: one UTF-16 code unit, as a one-character string. */
  readChar(): Result<R, string>;
  /** Reads a signed 32-bit integer. */
  readInt(): Result<R, number>;
  /** Reads a signed 64-bit integer as a `bigint`. */
  readLong(): Result<R, bigint>;
  /**
   * Reads a signed 64-bit integer as a `number`, cheaper than {@link readLong}. Fails with a `RangeError`
   * (`ERR_OUT_OF_RANGE`) when it is not a safe integer; its 8 bytes are consumed all the same.
   */
  readLongAsNumber(): Result<R, number>;
  /**
   * Reads a 32-bit IEEE 754 float. A signalling NaN comes back quiet: widening a float32 to a JavaScript
   * number sets its quiet bit (`0x7fbfffff` reads as the NaN whose float32 bits are `0x7fffffff`), so no
   * number can carry Java's `Float.floatToRawIntBits` of it. To keep the exact bits, read them with
   * `readInt` and convert yourself, or read into a `Float32Array` with `readFloats`, which copies them untouched.
   */
  readFloat(): Result<R, number>;
  /** Reads a 64-bit IEEE 754 double. */
  readDouble(): Result<R, number>;
  /**
   * Java's `readLine`: bytes up to `\n`, `\r` or `\r\n` (consumed, not returned), each byte one Latin-1
   * character; `null` only at end of file with nothing read.
   */
  readLine(): Result<R, string | null>;
  /**
   * Reads a string in Java's `writeUTF` format: a big-endian 2-byte length, then modified UTF-8. Fails with
   * `UTFDataFormatError` when malformed (the malformed bytes are consumed, as in Java).
   */
  readUTF(): Result<R, string>;
  /**
   * Fills `dst[off … off+count)` (default: the rest of `dst`) with 16-bit integers; fails with `EOFError`
   * if the file ends first (the bytes that were there are consumed, and that range of `dst` is then unspecified).
   */
  readShorts(dst: Int16Array | Uint16Array, off?: number, count?: number): Result<R, void>;
  /** {@link readShorts} for 32-bit integers. */
  readInts(dst: Int32Array | Uint32Array, off?: number, count?: number): Result<R, void>;
  /** {@link readShorts} for 64-bit integers. */
  readLongs(dst: BigInt64Array | BigUint64Array, off?: number, count?: number): Result<R, void>;
  /**
   * {@link readShorts} for floats. Each element gets the file's 32 bits as they are, a signalling NaN's
   * included (unlike {@link readFloat}).
   */
  readFloats(dst: Float32Array, off?: number, count?: number): Result<R, void>;
  /** {@link readShorts} for doubles. */
  readDoubles(dst: Float64Array, off?: number, count?: number): Result<R, void>;
}
