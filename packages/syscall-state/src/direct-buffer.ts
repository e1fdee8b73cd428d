import type { SyncBackend } from "./backend";
import { ComposedBackend } from "./compose-backend";
import { nodeError } from "./node-error";

/**
 * A direct buffer, as Java NIO's `ByteBuffer.allocateDirect` makes one: memory at an address that never
 * changes, which `pread` and `pwrite` fill and send in place. Native code gets the address, taken once,
 * instead of a typed array to inspect on every call (BENCHMARKS.md, "Direct buffers").
 */
export interface DirectBuffer {
  /** The memory, over a `SharedArrayBuffer`: never detached, never moved, alive as long as this object. */
  readonly bytes: Uint8Array;
  /**
   * One `pread(2)` of `length` bytes at `position` into `bytes[0, length)`: the byte count, or `-errno`.
   * As {@link oneShotTransfers}' calls: no EINTR retry, and `position` must be a safe integer.
   * Throws `ERR_OUT_OF_RANGE` for a `length` that is not an integer in `[0, bytes.length]` (`ERR_INVALID_ARG_TYPE`
   * for one that is not a number), before any
   * system call.
   */
  pread(fd: number, length: number, position: number): number;
  /** One `pwrite(2)` of `bytes[0, length)` at `position` (see {@link DirectBuffer.pread}). */
  pwrite(fd: number, length: number, position: number): number;
}

/** A system call on memory named by its address: `(fd, address, length, position)`. */
export type AddressTransfer = (
  fd: number,
  address: number,
  length: number,
  position: number,
) => number;

/** The largest direct buffer: the largest window raf allows. */
const MAX_CAPACITY = 2 ** 30;

/**
 * A direct buffer over `address`, the start of `memory`. Internal: a backend makes one for memory it
 * allocated and whose address it took. The calls read the address from `this`, so a method taken off
 * the object throws instead of reaching memory nothing holds any more.
 */
export class AddressedBuffer implements DirectBuffer {
  readonly bytes: Uint8Array;
  readonly #address: number;
  readonly #capacity: number;
  readonly #pread: AddressTransfer;
  readonly #pwrite: AddressTransfer;

  /** `memory` may run past `capacity`: a backend's own per-call state can live there, behind the bytes. */
  constructor(
    memory: SharedArrayBuffer,
    capacity: number,
    address: number,
    pread: AddressTransfer,
    pwrite: AddressTransfer,
  ) {
    this.bytes = new Uint8Array(memory, 0, capacity);
    this.#address = address;
    this.#capacity = capacity;
    this.#pread = pread;
    this.#pwrite = pwrite;
  }

  pread(fd: number, length: number, position: number): number {
    checkLength(length, this.#capacity);
    return this.#pread(fd, this.#address, length, position);
  }

  pwrite(fd: number, length: number, position: number): number {
    checkLength(length, this.#capacity);
    return this.#pwrite(fd, this.#address, length, position);
  }
}

/** The count is what keeps the kernel inside the buffer: an integer in [0, capacity], nothing koffi converts. */
function checkLength(length: unknown, capacity: number): void {
  if (typeof length !== "number") {
    const shown =
      typeof length === "bigint" ? `${length}n` : (JSON.stringify(length) ?? String(length));
    throw nodeError(
      TypeError,
      "ERR_INVALID_ARG_TYPE",
      `The "length" argument must be of type number. Received ${length === null || length === undefined ? String(length) : `type ${typeof length} (${shown})`}`,
    );
  }
  if (length >>> 0 !== length || length > capacity) {
    throw nodeError(
      RangeError,
      "ERR_OUT_OF_RANGE",
      `The value of "length" is out of range. It must be an integer >= 0 && <= ${capacity}. Received ${String(length)}`,
    );
  }
}

/**
 * A {@link DirectBuffer} of `capacity` bytes for the files of `backend`, or `undefined` where the backend
 * has none: any backend but this package's native one (or a testing wrapper of it, as for {@link oneShotTransfers}).
 * For a file object's own scratch memory, the buffer an unbuffered primitive is encoded into and sent from.
 * Throws `ERR_OUT_OF_RANGE` for a `capacity` that is not an integer in `[1, 2**30]`.
 *
 * @example
 * const direct = allocateDirect(nativeBackend(), 8);
 * if (direct !== undefined) {
 *   new DataView(direct.bytes.buffer).setBigInt64(0, 42n);
 *   direct.pwrite(fd, 8, 0); // 8
 * }
 */
export function allocateDirect(backend: SyncBackend, capacity: number): DirectBuffer | undefined {
  if (!Number.isSafeInteger(capacity) || capacity < 1 || capacity > MAX_CAPACITY) {
    throw nodeError(
      RangeError,
      "ERR_OUT_OF_RANGE",
      `The value of "capacity" is out of range. It must be an integer >= 1 && <= ${MAX_CAPACITY}. Received ${String(capacity)}`,
    );
  }
  return ComposedBackend.transfersOf(backend)?.allocateDirect?.(capacity);
}
