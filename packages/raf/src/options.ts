import type { ByteOrder } from "@rafkit/bits";
import type { Backend } from "@rafkit/syscall-state";

/**
 * The default window size in bytes: 8 KiB. A quick local measurement of buffered `readInt`/`writeInt`
 * over a 1 MiB file showed no gain past 8 KiB while larger windows cost more per refill on random
 * access; `@rafkit/bench` owns the definitive measurement.
 */
export const DEFAULT_BUFFER_SIZE = 8192;

/** Options of `new RandomAccessFile(path, mode, options)`. */
export interface RandomAccessFileOptions {
  /**
   * Size in bytes of the one window that buffers reads and writes. Default {@link DEFAULT_BUFFER_SIZE}.
   * `0` turns buffering off: the JDK's exact behaviour, one system call per primitive.
   */
  bufferSize?: number | undefined;
  /** Byte order of numeric primitives and bulk arrays. Default `"big"`, the `DataInput` contract. UTF stays Java's format. */
  byteOrder?: ByteOrder | undefined;
  /**
   * Which syscall-state backend performs the I/O: `"auto"` (default: native where koffi loads,
   * else `node:fs`), `"native"`, `"node"`, or a `Backend` object (e.g. syscall-state's fault-injecting one).
   */
  backend?: "auto" | "native" | "node" | Backend | undefined;
}
