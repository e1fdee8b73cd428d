import { fileURLToPath } from "node:url";
import { type ByteOrder, OutOfRangeError, type ViewCodec, viewCodecFor } from "@rafkit/bits";
import {
  type Backend,
  errnoOf,
  type FileMode,
  getBackend,
  type SyncBackend,
  systemCallError,
} from "@rafkit/syscall-state";
import { checkOptions, invalidArgType } from "./errors";
import { parseMode } from "./modes";
import { DEFAULT_BUFFER_SIZE, type RandomAccessFileOptions } from "./options";
import { identifierOf } from "./thread-locks";
import { Window } from "./window/window";

const EISDIR = errnoOf("EISDIR");

/** Everything both classes decide from their arguments before any I/O. */
export interface OpenPlan {
  readonly path: string;
  readonly mode: FileMode;
  readonly bufferSize: number;
  readonly order: ByteOrder;
  readonly codec: ViewCodec;
  readonly backend: Backend;
}

/**
 * Checks the arguments of an open, as Java's constructor does, before any I/O: the mode (Java's
 * message), the path (`string` or `file:` URL), the buffer size, the byte order and the backend.
 */
export function planOpen(
  path: string | URL,
  mode: FileMode,
  options: RandomAccessFileOptions,
): OpenPlan {
  const m = parseMode(mode);
  const p = typeof path === "string" ? path : fileURLToPath(path);
  checkOptions(options);
  const bufferSize = options.bufferSize === undefined ? DEFAULT_BUFFER_SIZE : options.bufferSize;
  if (typeof bufferSize !== "number") throw invalidArgType("bufferSize", "a number", bufferSize);
  if (!Number.isSafeInteger(bufferSize) || bufferSize < 0 || bufferSize > 2 ** 30) {
    throw new OutOfRangeError(`bufferSize must be an integer in [0, 2^30], got ${bufferSize}`);
  }
  const order = options.byteOrder === undefined ? "big" : options.byteOrder;
  const codec = viewCodecFor(order);
  const given: unknown = options.backend;
  // An object must at least open and close, or the open would fail with an engine TypeError.
  if (
    given === null ||
    (typeof given === "object" &&
      !["open", "openAsync", "close", "closeAsync"].every(
        (m) => typeof (given as Record<string, unknown>)[m] === "function",
      ))
  ) {
    throw invalidArgType("backend", '"auto", "native", "node" or a Backend', given);
  }
  const backend =
    typeof options.backend === "object" ? options.backend : getBackend(options.backend ?? "auto");
  return { path: p, mode: m, bufferSize, order, codec, backend };
}

/**
 * The window over a freshly opened `fd`; an unbuffered one over `memory` when given (a direct buffer's). When its
 * memory cannot be allocated (a large `bufferSize`), closes `fd` before the error goes on: no descriptor may outlive
 * a failed open.
 */
export function openWindow(
  plan: OpenPlan,
  backend: SyncBackend,
  fd: number,
  memory?: ArrayBufferLike,
): Window {
  try {
    return new Window(fd, plan.path, plan.bufferSize, {
      readOnly: plan.mode === "r",
      writeThrough: plan.mode === "rws" || plan.mode === "rwd",
      codec: plan.codec,
      memory,
      identify: identifierOf(backend, fd),
    });
  } catch (error) {
    closeQuietly(backend, fd);
    throw error;
  }
}

/** Closes `fd` after a failed open, keeping that failure the one reported (a close error is dropped). */
export function closeQuietly(backend: SyncBackend, fd: number): void {
  try {
    backend.close(fd);
  } catch {
    // The open's own error is the one to report.
  }
}

/**
 * Java refuses to open a directory even read-only, which `open(2)` allows: one `pread` tells. A buffered
 * window makes it the read of its first bytes (up to the default buffer size), which it then holds, so the check is no extra
 * system call for a file read from the start. Throws `EISDIR` (syscall `open`) when it is a directory (the
 * caller closes `fd`); any other failure is left to the first read, which repeats the call.
 */
export function rejectDirectory(backend: SyncBackend, w: Window): void {
  // At most the default window: a large bufferSize should not make every open read megabytes it may never use.
  const r = backend.pread(
    w.fd,
    w.buf,
    0,
    Math.min(Math.max(w.capacity, 1), DEFAULT_BUFFER_SIZE),
    0,
  );
  if (r === -EISDIR) throw systemCallError(-EISDIR, "open", w.path);
  if (r > 0 && w.capacity > 0) w.holdFirst(r);
}

/** {@link rejectDirectory} off the main thread (the caller closes `fd` when it throws). */
export async function rejectDirectoryAsync(
  backend: Backend,
  fd: number,
  path: string,
): Promise<void> {
  if ((await backend.preadAsync(fd, new Uint8Array(1), 0, 1, 0)) === -EISDIR) {
    throw systemCallError(-EISDIR, "open", path);
  }
}

/** A latin-1 decoder over the window's bytes, for `readLine`. */
export function latin1Of(w: Window): (buf: Uint8Array, from: number, to: number) => string {
  const view = Buffer.from(w.buf.buffer, w.buf.byteOffset, w.buf.byteLength);
  return (_buf, from, to) => view.toString("latin1", from, to);
}
