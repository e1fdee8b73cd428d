import type { Advice, Backend, BackendFeatures, FileMode, LockRequest } from "./backend";
import { errnoOf } from "./errno";
import { PRIMITIVES, type Primitives } from "./primitives";
import { byteLengthOf } from "./typed-array";

const EINTR = -errnoOf("EINTR");
const EAGAIN = -errnoOf("EAGAIN");
const EACCES = -errnoOf("EACCES");
const EIO = -errnoOf("EIO");
const EBADF = -errnoOf("EBADF");
const EOVERFLOW = -errnoOf("EOVERFLOW");
/** The last position a number holds exactly: a loop that would go on past it stops with `-EOVERFLOW`. */
const MAX_POSITION = Number.MAX_SAFE_INTEGER;

function outOfRange(message: string): RangeError {
  const error = new RangeError(message);
  (error as RangeError & { code: string }).code = "ERR_OUT_OF_RANGE";
  return error;
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

/** Throws before any system call when a transfer would step outside `buffer` (native code would not check). */
function checkTransfer(buffer: Uint8Array, offset: number, length: number, position: number): void {
  if (!(buffer instanceof Uint8Array)) {
    const error = new TypeError("buffer must be a Uint8Array (or Buffer)");
    (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  // Its real size: native code must not trust a `length` it may shadow.
  const size = byteLengthOf.call(buffer);
  if (!isCount(offset) || !isCount(length) || offset + length > size) {
    throw outOfRange(
      `offset ${offset} and length ${length} must be non-negative integers within the buffer's ${size} bytes`,
    );
  }
  if (!isCount(position)) {
    throw outOfRange(`position must be a non-negative safe integer, got ${position}`);
  }
}

/**
 * `node:fs`'s checks, with its errors: C would stop at a NUL and open (or create) another file, and the
 * native backend would take a `Buffer` for a C string without its end, or a number for a pointer.
 */
function checkPath(path: string): void {
  if (typeof path !== "string") {
    const error = new TypeError(
      `The "path" argument must be of type string. Received ${path === null ? "null" : typeof path}`,
    );
    (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  if (path.includes("\u0000")) {
    const error = new TypeError(
      `The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received ${JSON.stringify(path)}`,
    );
    (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
}

function checkRange(what: string, position: number, length: number): void {
  if (!isCount(position) || !isCount(length)) {
    throw outOfRange(`${what}: position and length must be non-negative safe integers`);
  }
}

/** A non-waiting lock that meets a conflicting holder fails with EAGAIN or EACCES, as POSIX allows: one answer. */
function lockResult(result: number, request: LockRequest): number {
  return result === EACCES && !request.wait ? EAGAIN : result;
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

  open(path: string, mode: FileMode): number {
    checkPath(path);
    let r: number;
    do r = this.#p.open(path, mode);
    while (r === EINTR);
    return r;
  }

  close(fd: number): number {
    if (!isFd(fd)) return EBADF;
    return this.#p.close(fd);
  }

  pread(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number {
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.pread(fd, buffer, offset, length, position);
    while (r === EINTR);
    return r;
  }

  pwrite(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number {
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.pwrite(fd, buffer, offset, length, position);
    while (r === EINTR);
    return r;
  }

  preadFully(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number {
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return this.pread(fd, buffer, offset, 0, position);
    let done = 0;
    while (done < length) {
      if (position + done > MAX_POSITION) return EOVERFLOW;
      const r = this.#p.pread(fd, buffer, offset + done, length - done, position + done);
      if (r === EINTR) continue;
      if (r < 0) return r;
      if (r === 0) break;
      done += r;
    }
    return done;
  }

  pwriteFully(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number {
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return this.pwrite(fd, buffer, offset, 0, position);
    let done = 0;
    while (done < length) {
      if (position + done > MAX_POSITION) return EOVERFLOW;
      const r = this.#p.pwrite(fd, buffer, offset + done, length - done, position + done);
      if (r === EINTR) continue;
      if (r < 0) return r;
      if (r === 0) return EIO;
      done += r;
    }
    return done;
  }

  size(fd: number): number {
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.size(fd);
    while (r === EINTR);
    return r;
  }

  truncate(fd: number, length: number): number {
    checkRange("truncate", 0, length);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.truncate(fd, length);
    while (r === EINTR);
    return r;
  }

  sync(fd: number): number {
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.sync(fd);
    while (r === EINTR);
    return r;
  }

  datasync(fd: number): number {
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.datasync(fd);
    while (r === EINTR);
    return r;
  }

  lock(fd: number, request: LockRequest): number {
    checkRange("lock", request.position, request.length);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.lock(fd, request);
    while (r === EINTR);
    return lockResult(r, request);
  }

  unlock(fd: number, position: number, length: number): number {
    checkRange("unlock", position, length);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.unlock(fd, position, length);
    while (r === EINTR);
    return r;
  }

  fadvise(fd: number, position: number, length: number, advice: Advice): number {
    checkRange("fadvise", position, length);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.fadvise(fd, position, length, advice);
    while (r === EINTR);
    return r;
  }

  allocate(fd: number, position: number, length: number): number {
    checkRange("allocate", position, length);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = this.#p.allocate(fd, position, length);
    while (r === EINTR);
    return r;
  }

  async openAsync(path: string, mode: FileMode): Promise<number> {
    checkPath(path);
    let r: number;
    do r = await this.#p.openAsync(path, mode);
    while (r === EINTR);
    return r;
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
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = await this.#p.preadAsync(fd, buffer, offset, length, position);
    while (r === EINTR);
    return r;
  }

  async pwriteAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number> {
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = await this.#p.pwriteAsync(fd, buffer, offset, length, position);
    while (r === EINTR);
    return r;
  }

  async preadFullyAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number> {
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return this.preadAsync(fd, buffer, offset, 0, position);
    let done = 0;
    while (done < length) {
      if (position + done > MAX_POSITION) return EOVERFLOW;
      const r = await this.#p.preadAsync(fd, buffer, offset + done, length - done, position + done);
      if (r === EINTR) continue;
      if (r < 0) return r;
      if (r === 0) break;
      done += r;
    }
    return done;
  }

  async pwriteFullyAsync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<number> {
    checkTransfer(buffer, offset, length, position);
    if (!isFd(fd)) return EBADF;
    if (length === 0) return this.pwriteAsync(fd, buffer, offset, 0, position);
    let done = 0;
    while (done < length) {
      if (position + done > MAX_POSITION) return EOVERFLOW;
      const r = await this.#p.pwriteAsync(
        fd,
        buffer,
        offset + done,
        length - done,
        position + done,
      );
      if (r === EINTR) continue;
      if (r < 0) return r;
      if (r === 0) return EIO;
      done += r;
    }
    return done;
  }

  async sizeAsync(fd: number): Promise<number> {
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = await this.#p.sizeAsync(fd);
    while (r === EINTR);
    return r;
  }

  async truncateAsync(fd: number, length: number): Promise<number> {
    checkRange("truncate", 0, length);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = await this.#p.truncateAsync(fd, length);
    while (r === EINTR);
    return r;
  }

  async syncAsync(fd: number): Promise<number> {
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = await this.#p.syncAsync(fd);
    while (r === EINTR);
    return r;
  }

  async datasyncAsync(fd: number): Promise<number> {
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = await this.#p.datasyncAsync(fd);
    while (r === EINTR);
    return r;
  }

  async lockAsync(fd: number, request: LockRequest): Promise<number> {
    checkRange("lock", request.position, request.length);
    if (!isFd(fd)) return EBADF;
    let r: number;
    do r = await this.#p.lockAsync(fd, request);
    while (r === EINTR);
    return lockResult(r, request);
  }
}
