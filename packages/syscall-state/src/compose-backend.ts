import type { Advice, Backend, BackendFeatures, FileMode, LockRequest } from "./backend";
import { errnoOf } from "./errno";
import { nodeError } from "./node-error";
import { PRIMITIVES, type Primitives } from "./primitives";
import { bufferOf, byteLengthOf, byteOffsetOf } from "./typed-array";

const EINTR = -errnoOf("EINTR");
const EAGAIN = -errnoOf("EAGAIN");
const EACCES = -errnoOf("EACCES");
const EIO = -errnoOf("EIO");
const EBADF = -errnoOf("EBADF");
const EOVERFLOW = -errnoOf("EOVERFLOW");
/** The last position a number holds exactly: a loop that would go on past it stops with `-EOVERFLOW`. */
const MAX_POSITION = Number.MAX_SAFE_INTEGER;

function outOfRange(message: string): RangeError {
  return nodeError(RangeError, "ERR_OUT_OF_RANGE", message);
}

/**
 * A descriptor as the kernel takes one. koffi would convert anything else (2**32 + 3 wraps to 3, 3.5 and
 * 3n become 3, NaN becomes 0) and act on another file; the node backend answers `EBADF`, as C would.
 */
function isFd(fd: number): boolean {
  return typeof fd === "number" && (fd | 0) === fd && fd >= 0;
}

function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/** A `Uint8Array` made in another realm (a `vm` context, an iframe), which `node:fs` takes too: told by its tag. */
function isUint8ArrayOfAnotherRealm(buffer: unknown): boolean {
  return (
    ArrayBuffer.isView(buffer) && Object.prototype.toString.call(buffer) === "[object Uint8Array]"
  );
}

/**
 * Throws before any system call when a transfer would step outside `buffer` (native code would not check); returns
 * the buffer to hand on: a subclass's (or another realm's) as a plain view of its memory, since a runtime's
 * `node:fs` may call its overridden methods (Deno's `fs.write` used a subclass's `subarray` and wrote its bytes).
 */
function checkTransfer(
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Uint8Array {
  if (!(buffer instanceof Uint8Array) && !isUint8ArrayOfAnotherRealm(buffer)) {
    throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", "buffer must be a Uint8Array (or Buffer)");
  }
  // Its real size: native code must not trust a `length` it may shadow.
  const size = byteLengthOf.call(buffer);
  if (!isCount(offset) || !isCount(length) || offset + length > size) {
    checkNumbers(offset, length, position);
    throw outOfRange(
      `offset ${offset} and length ${length} must be non-negative integers within the buffer's ${size} bytes`,
    );
  }
  if (!isCount(position)) {
    checkNumbers(offset, length, position);
    throw outOfRange(`position must be a non-negative safe integer, got ${position}`);
  }
  const own = Object.getPrototypeOf(buffer);
  if (own === Uint8Array.prototype || own === BUFFER_PROTOTYPE) return buffer;
  return new Uint8Array(bufferOf.call(buffer), byteOffsetOf.call(buffer), size);
}

/** `Buffer.prototype` where there is one (Node, Bun, Deno; not a browser): a `Buffer` is handed on as it is. */
const BUFFER_PROTOTYPE = (globalThis as { Buffer?: { prototype: object } }).Buffer?.prototype;

/** On the failure path only: a value that is no number is a `TypeError`, as `node:fs` answers (`"0"`, `null`, `1n`). */
function checkNumbers(offset: unknown, length: unknown, position: unknown): void {
  const names = ["offset", "length", "position"] as const;
  [offset, length, position].forEach((value, k) => {
    if (typeof value !== "number") {
      const got = value === null ? "null" : typeof value;
      throw nodeError(
        TypeError,
        "ERR_INVALID_ARG_TYPE",
        `${names[k]} must be a number, got ${got}`,
      );
    }
  });
}

/**
 * `node:fs`'s checks, with its errors: C would stop at a NUL and open (or create) another file, and the
 * native backend would take a `Buffer` for a C string without its end, or a number for a pointer.
 */
function checkPath(path: string): void {
  if (typeof path !== "string") {
    throw nodeError(
      TypeError,
      "ERR_INVALID_ARG_TYPE",
      `The "path" argument must be of type string. Received ${path === null ? "null" : typeof path}`,
    );
  }
  if (path.includes("\u0000")) {
    throw nodeError(
      TypeError,
      "ERR_INVALID_ARG_VALUE",
      `The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received ${JSON.stringify(path)}`,
    );
  }
}

function checkRange(what: string, position: number, length: number): void {
  if (!isCount(position) || !isCount(length)) {
    checkNumbers(0, length, position);
    throw outOfRange(`${what}: position and length must be non-negative safe integers`);
  }
}

/** A non-waiting lock that meets a conflicting holder fails with EAGAIN or EACCES, as POSIX allows: one answer. */
function lockResult(result: number, request: LockRequest): number {
  return result === EACCES && !request.wait ? EAGAIN : result;
}

/** A one-shot primitive, as {@link retry} calls it: up to five arguments (extra ones are ignored). */
type Call = (a: never, b: never, c: never, d: never, e: never) => number;
type AsyncCall = (a: never, b: never, c: never, d: never, e: never) => Promise<number>;

/**
 * The one EINTR retry: calls `call` until it answers anything but `-EINTR` (a signal interrupted it
 * before it did anything; POSIX says to call again). Fixed arguments, so no array per call.
 */
function retry(
  call: Call,
  a?: unknown,
  b?: unknown,
  c?: unknown,
  d?: unknown,
  e?: unknown,
): number {
  const f = call as (...args: unknown[]) => number;
  let r: number;
  do r = f(a, b, c, d, e);
  while (r === EINTR);
  return r;
}

/** {@link retry}'s async twin. */
async function retryAsync(
  call: AsyncCall,
  a?: unknown,
  b?: unknown,
  c?: unknown,
  d?: unknown,
  e?: unknown,
): Promise<number> {
  const f = call as (...args: unknown[]) => Promise<number>;
  let r: number;
  do r = await f(a, b, c, d, e);
  while (r === EINTR);
  return r;
}

/** A full read stops at a zero-byte step (EOF); a full write fails there (`-EIO`), or it would loop forever. */
type Direction = "read" | "write";
type Transfer = (
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
) => number;
type AsyncTransfer = (...args: Parameters<Transfer>) => Promise<number>;

/**
 * The one full-transfer loop: `step` (one pread or pwrite) until `length` bytes have moved, retrying
 * EINTR; a zero-byte step ends a read (EOF: the bytes so far) and fails a write (`-EIO`). `-EOVERFLOW`
 * once the position would pass `Number.MAX_SAFE_INTEGER`. Arguments are checked by the caller.
 */
function transferFully(
  step: Transfer,
  zero: Direction,
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
): number {
  let done = 0;
  while (done < length) {
    if (position + done > MAX_POSITION) return EOVERFLOW;
    const r = step(fd, buffer, offset + done, length - done, position + done);
    if (r === EINTR) continue;
    if (r < 0) return r;
    if (r === 0) return zero === "read" ? done : EIO;
    done += r;
  }
  return done;
}

/** {@link transferFully}'s async twin. */
async function transferFullyAsync(
  step: AsyncTransfer,
  zero: Direction,
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  let done = 0;
  while (done < length) {
    if (position + done > MAX_POSITION) return EOVERFLOW;
    const r = await step(fd, buffer, offset + done, length - done, position + done);
    if (r === EINTR) continue;
    if (r < 0) return r;
    if (r === 0) return zero === "read" ? done : EIO;
    done += r;
  }
  return done;
}

/**
 * A complete {@link Backend} over one-shot {@link Primitives}: validates arguments, retries EINTR (every
 * call but `close`), loops `preadFully`/`pwriteFully` over short transfers, and normalises lock
 * conflicts to `-EAGAIN`. Both real backends and the fault-injecting one are built this way, so the
 * loops are the same code whichever backend runs.
 */
export class ComposedBackend implements Backend {
  readonly name: string;
  readonly features: BackendFeatures;
  readonly [PRIMITIVES]: Primitives;
  readonly #p: Primitives;

  constructor(primitives: Primitives, features: BackendFeatures, name: string = primitives.name) {
    this.name = name;
    this.features = features;
    this[PRIMITIVES] = primitives;
    this.#p = primitives;
  }

  /**
   * The primitives under `backend` when it is a composed backend whose `pread` and `pwrite` are this class's
   * own: not a wrapper (a spread copy, a `Proxy`, a subclass, an own property or a patched prototype
   * overriding either), whose version of the calls must run instead.
   */
  static transfersOf(backend: unknown): Primitives | undefined {
    if (typeof backend !== "object" || backend === null || !(#p in backend)) return undefined;
    const b = backend as ComposedBackend;
    return b.pread === ComposedBackend.#pread && b.pwrite === ComposedBackend.#pwrite
      ? b.#p
      : undefined;
  }

  /** The class's own transfers as defined: a patch of the prototype counts as a wrapper too. */
  static readonly #pread = ComposedBackend.prototype.pread;
  static readonly #pwrite = ComposedBackend.prototype.pwrite;

  open(path: string, mode: FileMode): number {
    checkPath(path);
    return retry(this.#p.open, path, mode);
  }

  close(fd: number): number {
    if (!isFd(fd)) return EBADF;
    return this.#p.close(fd);
  }

  pread(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.pread, fd, bytes, offset, length, position);
  }

  pwrite(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.pwrite, fd, bytes, offset, length, position);
  }

  preadFully(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return retry(this.#p.pread, fd, bytes, offset, 0, position);
    return transferFully(this.#p.pread, "read", fd, bytes, offset, length, position);
  }

  pwriteFully(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return retry(this.#p.pwrite, fd, bytes, offset, 0, position);
    return transferFully(this.#p.pwrite, "write", fd, bytes, offset, length, position);
  }

  size(fd: number): number {
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.size, fd);
  }

  truncate(fd: number, length: number): number {
    checkRange("truncate", 0, length);
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.truncate, fd, length);
  }

  sync(fd: number): number {
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.sync, fd);
  }

  datasync(fd: number): number {
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.datasync, fd);
  }

  lock(fd: number, request: LockRequest): number {
    checkRange("lock", request.position, request.length);
    if (!isFd(fd)) return EBADF;
    return lockResult(retry(this.#p.lock, fd, request), request);
  }

  unlock(fd: number, position: number, length: number): number {
    checkRange("unlock", position, length);
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.unlock, fd, position, length);
  }

  fadvise(fd: number, position: number, length: number, advice: Advice): number {
    checkRange("fadvise", position, length);
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.fadvise, fd, position, length, advice);
  }

  allocate(fd: number, position: number, length: number): number {
    checkRange("allocate", position, length);
    if (!isFd(fd)) return EBADF;
    return retry(this.#p.allocate, fd, position, length);
  }

  async openAsync(path: string, mode: FileMode): Promise<number> {
    checkPath(path);
    return retryAsync(this.#p.openAsync, path, mode);
  }

  closeAsync(fd: number): Promise<number> {
    if (!isFd(fd)) return Promise.resolve(EBADF);
    return this.#p.closeAsync(fd);
  }

  async preadAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number> {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    return retryAsync(this.#p.preadAsync, fd, bytes, offset, length, position);
  }

  async pwriteAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number> {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    return retryAsync(this.#p.pwriteAsync, fd, bytes, offset, length, position);
  }

  async preadFullyAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number> {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return retryAsync(this.#p.preadAsync, fd, bytes, offset, 0, position);
    return transferFullyAsync(this.#p.preadAsync, "read", fd, bytes, offset, length, position);
  }

  async pwriteFullyAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number> {
    const bytes = checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return retryAsync(this.#p.pwriteAsync, fd, bytes, offset, 0, position);
    return transferFullyAsync(this.#p.pwriteAsync, "write", fd, bytes, offset, length, position);
  }

  async sizeAsync(fd: number): Promise<number> {
    if (!isFd(fd)) return EBADF;
    return retryAsync(this.#p.sizeAsync, fd);
  }

  async truncateAsync(fd: number, length: number): Promise<number> {
    checkRange("truncate", 0, length);
    if (!isFd(fd)) return EBADF;
    return retryAsync(this.#p.truncateAsync, fd, length);
  }

  async syncAsync(fd: number): Promise<number> {
    if (!isFd(fd)) return EBADF;
    return retryAsync(this.#p.syncAsync, fd);
  }

  async datasyncAsync(fd: number): Promise<number> {
    if (!isFd(fd)) return EBADF;
    return retryAsync(this.#p.datasyncAsync, fd);
  }

  async lockAsync(fd: number, request: LockRequest): Promise<number> {
    checkRange("lock", request.position, request.length);
    if (!isFd(fd)) return EBADF;
    return lockResult(await retryAsync(this.#p.lockAsync, fd, request), request);
  }
}
