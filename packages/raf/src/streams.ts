import { Readable, Writable } from "node:stream";
import { OutOfRangeError } from "@rafkit/bits";
import { checkOptions } from "./errors";
import { toCount, toPosition } from "./position";

/** Options of `createReadStream`: a byte range, as `fs.createReadStream`'s. */
export interface ReadStreamOptions {
  /** First byte to read. Default 0. */
  start?: number | bigint | undefined;
  /** Last byte to read, **inclusive** (as `fs.createReadStream`). Default: to end of file. */
  end?: number | bigint | undefined;
  /**
   * Bytes per read and the stream's buffer target, at most 2^30. Default 64 KiB; 0 reads 64 KiB chunks with no
   * read-ahead.
   */
  highWaterMark?: number | undefined;
}

/** Options of `createWriteStream`. */
export interface WriteStreamOptions {
  /** Where the first byte goes. Default 0. */
  start?: number | bigint | undefined;
  /** The stream's buffer target in bytes (backpressure), at most 2^30. Default 64 KiB. */
  highWaterMark?: number | undefined;
}

/** What a stream needs of a file: positional reads and writes, and a flush (sync or async). */
export interface PositionalFile {
  readAt(position: number, buf: Uint8Array, off: number, len: number): number | Promise<number>;
  writeAt(position: number, buf: Uint8Array, off: number, len: number): void | Promise<void>;
  flush(): void | Promise<void>;
}

const DEFAULT_HIGH_WATER_MARK = 64 * 1024;

/** Node's ceiling for a stream's buffer (its `Readable` grows a highWaterMark no further). */
const MAX_HIGH_WATER_MARK = 2 ** 30;

/** A stream's `highWaterMark`: an integer in [0, 2^30] (0: no read-ahead), 64 KiB by default. */
function checkHighWaterMark(value: number | undefined): number {
  if (value === undefined) return DEFAULT_HIGH_WATER_MARK;
  if (toCount(value, "highWaterMark") < 0) {
    throw new OutOfRangeError(`highWaterMark must not be negative, got ${value}`);
  }
  // A read stream allocates that much per read: past Node's own ceiling for streams, the engine's allocation error
  // would come at the first read, a different one on each runtime.
  if (value > MAX_HIGH_WATER_MARK) {
    throw new OutOfRangeError(`highWaterMark must be at most 2^30 (1 GiB), got ${value}`);
  }
  return value;
}

/** A `Readable` over `[start, end]` of `file`, one positional read per `_read` (so it pulls only as fast as it is consumed). */
export function createRangeReadStream(file: PositionalFile, options: ReadStreamOptions): Readable {
  checkOptions(options);
  let pos = options.start === undefined ? 0 : toPosition(options.start, "start");
  const last =
    options.end === undefined ? Number.POSITIVE_INFINITY : toPosition(options.end, "end");
  if (last < pos - 1) {
    throw new OutOfRangeError(`"end" (${last}) must be at least "start" - 1 (${pos - 1})`);
  }
  const highWaterMark = checkHighWaterMark(options.highWaterMark);
  return new Readable({
    highWaterMark,
    read(size) {
      // highWaterMark 0 (no read-ahead) asks for 0 bytes: still read a chunk, or the stream would end.
      const n = Math.min(size > 0 ? size : DEFAULT_HIGH_WATER_MARK, last + 1 - pos);
      if (n <= 0) {
        this.push(null);
        return;
      }
      const buf = Buffer.allocUnsafe(n);
      Promise.resolve()
        .then(() => file.readAt(pos, buf, 0, n))
        .then(
          (r) => {
            if (r < 0) {
              this.push(null);
              return;
            }
            pos += r;
            // A short read (the range's or the file's end) gets a buffer of its own size, as fs's does: a view
            // would keep all n bytes alive as long as the chunk.
            if (r === n) {
              this.push(buf);
              return;
            }
            const tail = Buffer.allocUnsafeSlow(r);
            buf.copy(tail, 0, 0, r);
            this.push(tail);
          },
          (error: Error) => this.destroy(error),
        );
    },
  });
}

/** A `Writable` writing at `start` onwards of `file` with positional writes; flushes `file` when it finishes. */
export function createRangeWriteStream(
  file: PositionalFile,
  options: WriteStreamOptions,
): Writable {
  checkOptions(options);
  let pos = options.start === undefined ? 0 : toPosition(options.start, "start");
  const highWaterMark = checkHighWaterMark(options.highWaterMark);
  return new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      Promise.resolve()
        .then(() => file.writeAt(pos, chunk, 0, chunk.length))
        .then(
          () => {
            pos += chunk.length;
            callback();
          },
          (error: Error) => callback(error),
        );
    },
    final(callback) {
      Promise.resolve()
        .then(() => file.flush())
        .then(
          () => callback(),
          (error: Error) => callback(error),
        );
    },
  });
}
