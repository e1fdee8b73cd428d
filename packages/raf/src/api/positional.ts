import type { Flavor, Result } from "./result";

/** A file position: a `number` or a `bigint`, at most `Number.MAX_SAFE_INTEGER`. */
export type Position = number | bigint;

/**
 * Positional I/O (Java's `FileChannel.read(dst, position)` and friends): each method reads or writes at
 * an explicit `position` and the file pointer does not move. Reads see this instance's unflushed writes;
 * writes are buffered like any write. A negative, fractional or unsafe `position` fails with a
 * `RangeError` (`ERR_OUT_OF_RANGE`) before any I/O.
 */
export interface PositionalApi<R extends Flavor> {
  /**
   * Reads up to `len` bytes (default: the rest of `buf`) at `position` into `buf[off…]`: the bytes read,
   * or -1 at end of file; short only at end of file, as {@link DataInputApi.read}.
   */
  readAt(position: Position, buf: Uint8Array, off?: number, len?: number): Result<R, number>;
  /** Reads exactly `len` bytes at `position` into `buf[off…]`; fails with `EOFError` if the file ends first. */
  readFullyAt(position: Position, buf: Uint8Array, off?: number, len?: number): Result<R, void>;
  /** Writes `len` bytes (default: the rest of `buf`) of `buf[off…]` at `position`. */
  writeAt(position: Position, buf: Uint8Array, off?: number, len?: number): Result<R, void>;
  /** `readBoolean` at `position`. */
  readBooleanAt(position: Position): Result<R, boolean>;
  /** `readByte` at `position`. */
  readByteAt(position: Position): Result<R, number>;
  /** `readUnsignedByte` at `position`. */
  readUnsignedByteAt(position: Position): Result<R, number>;
  /** `readShort` at `position`. */
  readShortAt(position: Position): Result<R, number>;
  /** `readUnsignedShort` at `position`. */
  readUnsignedShortAt(position: Position): Result<R, number>;
  /** `readChar` at `position`. */
  readCharAt(position: Position): Result<R, string>;
  /** `readInt` at `position`. */
  readIntAt(position: Position): Result<R, number>;
  /** `readLong` at `position`. */
  readLongAt(position: Position): Result<R, bigint>;
  /** `readLongAsNumber` at `position` (a `RangeError` when not safe). */
  readLongAsNumberAt(position: Position): Result<R, number>;
  /**
   * `readFloat` at `position`: a signalling NaN comes back quiet, as from `readFloat`. To keep the exact
   * bits, `readIntAt` and convert yourself.
   */
  readFloatAt(position: Position): Result<R, number>;
  /** `readDouble` at `position`. */
  readDoubleAt(position: Position): Result<R, number>;
  /** `readUTF` at `position`. */
  readUTFAt(position: Position): Result<R, string>;
  /** `writeBoolean` at `position`. */
  writeBooleanAt(position: Position, v: boolean): Result<R, void>;
  /** `writeByte` at `position`. */
  writeByteAt(position: Position, v: number): Result<R, void>;
  /** `writeShort` at `position`. */
  writeShortAt(position: Position, v: number): Result<R, void>;
  /** `writeChar` at `position`. */
  writeCharAt(position: Position, v: string | number): Result<R, void>;
  /** `writeInt` at `position`. */
  writeIntAt(position: Position, v: number): Result<R, void>;
  /** `writeLong` at `position`. */
  writeLongAt(position: Position, v: bigint | number): Result<R, void>;
  /** `writeFloat` at `position`. */
  writeFloatAt(position: Position, v: number): Result<R, void>;
  /** `writeDouble` at `position`. */
  writeDoubleAt(position: Position, v: number): Result<R, void>;
  /** `writeUTF` at `position` (nothing written when too long). */
  writeUTFAt(position: Position, s: string): Result<R, void>;
}
