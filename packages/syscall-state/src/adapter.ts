import { isMainThread } from "node:worker_threads";
import { errnoOf } from "./errno";
import { loadKoffi } from "./koffi";
import { nodeError } from "./node-error";
import { threadShared } from "./thread-shared";
import { windowsStateReader } from "./win32/last-error";

/** Where a failing call leaves its error number: `errno` everywhere; `GetLastError`/`WSAGetLastError` on Windows. */
export type CaptureStateName = "errno" | "GetLastError" | "WSAGetLastError";

const STATE_NAMES: readonly CaptureStateName[] = ["errno", "GetLastError", "WSAGetLastError"];
const INTEGER_KINDS = new Set([
  "Int8",
  "UInt8",
  "Int16",
  "Int16S",
  "UInt16",
  "UInt16S",
  "Int32",
  "Int32S",
  "UInt32",
  "UInt32S",
  "Int64",
  "Int64S",
  "UInt64",
  "UInt64S",
]);

/** The part of a koffi-bound function the adapter relies on. */
export interface NativeFunction {
  // biome-ignore lint/suspicious/noExplicitAny: koffi functions take any C-convertible value
  (...args: any[]): any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  async?: (...args: any[]) => void;
  readonly info: {
    readonly name: string;
    readonly arguments: readonly unknown[];
    readonly result: { readonly primitive: string };
  };
}

/** A system call adapted to return its result, or `-errno` when it fails. */
export interface AdaptedSystemCall {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors the wrapped koffi function
  (...args: any[]): number;
  /**
   * The same call on libuv's thread pool. koffi reads errno on the pool thread right after the call and
   * restores it on the main thread for the completion callback, where the adapter reads it first thing.
   */
  // biome-ignore lint/suspicious/noExplicitAny: mirrors the wrapped koffi function
  async(...args: any[]): Promise<number>;
  readonly stateName: CaptureStateName;
}

/** A capture state the caller owns: the "explicit" path, one per call or kept across calls. */
export class CaptureState {
  /** The error number the last call through an explicit adapter left (errno is meaningful only after a failure). */
  value = 0;
}

/**
 * The per-thread cached slot. Every `worker_threads` worker has its own, as libc's errno is thread-local too; every
 * copy of this package in the thread (its ESM and CJS builds) shares it, as they share the thread's errno.
 */
const slot: { errno: number } = threadShared(
  Symbol.for("@rafkit/syscall-state/errno-slot/v1"),
  () => ({
    errno: 0,
  }),
);

/**
 * koffi returns a 64-bit integer beyond 2**53 as a `bigint`, and 2**53 itself still as a number. A
 * `bigint` result is reported as `-EOVERFLOW` ("value too large for defined data type"), never handed
 * out; the one exact 2**53 is left to the caller (only `lseek` gets there, on a file system with 8 EiB
 * files, and the native `size` checks it), so that success costs no extra test here.
 */
const EOVERFLOW = errnoOf("EOVERFLOW");

function overflow(): number {
  slot.errno = EOVERFLOW;
  return -EOVERFLOW;
}

/** {@link overflow} for an explicit adapter: its caller's state, not this thread's slot, says `EOVERFLOW`. */
function overflowed(state: CaptureState): number {
  state.value = EOVERFLOW;
  return -EOVERFLOW;
}

/** The error number of the last failing adapted call on this thread (0 before the first). */
export function lastErrno(): number {
  return slot.errno;
}

/**
 * In a Bun worker an async call runs on the worker's own thread, as the sync call, settled at once: Bun 1.4 crashes
 * the whole process (a segfault) when a worker ends, by `process.exit()` or `terminate()`, with koffi async calls
 * in flight. The worker blocks for the call; the main thread, where a blocked loop costs most, keeps the pool.
 */
const INLINE_ASYNC = typeof process.versions.bun === "string" && !isMainThread;

/**
 * koffi throws once `max_async_calls` (256 by default) calls are in flight; callers of a file API
 * should not see that, so calls beyond the limit wait here, in order, for a slot. koffi counts every
 * caller's calls, other users' of koffi too, and a call whose callback is still running (it frees the slot
 * after the callback returns): a call it refuses goes back to the head of the line and is tried again after a
 * moment, or sooner when one of ours settles.
 */
let inFlight = 0;
let asyncLimit = 0;
const waiting: (() => boolean)[] = [];
/** A retry after a refusal is pending. */
let retrying = false;
/** A start on the next turn is pending. */
let startingSoon = false;
/** `startWaiting` is running: a call that settles inside its start (koffi refused its arguments) must not recurse. */
let draining = false;
const soon: (run: () => void) => void =
  typeof setImmediate === "function" ? setImmediate : (run) => setTimeout(run, 0);

function schedule(start: () => void, reject: (error: unknown) => void): void {
  if (asyncLimit === 0) asyncLimit = loadKoffi().config().max_async_calls ?? 256;
  /** Starts the call; false when koffi refused it for want of a slot (it is back in line). */
  const run = (): boolean => {
    inFlight++;
    try {
      start();
      return true;
    } catch (error) {
      inFlight--;
      if (/Too many asynchronous calls/.test(String(error))) {
        waiting.unshift(run);
        retryLater();
        return false;
      }
      reject(error);
      return true;
    }
  };
  if (inFlight < asyncLimit && waiting.length === 0) run();
  else waiting.push(run);
}

/** Starts waiting calls while fewer than `room` of ours are in flight, until koffi refuses one. */
function startWaiting(room = asyncLimit): void {
  if (draining) return; // the loop below goes on
  draining = true;
  try {
    while (inFlight < room) {
      const next = waiting.shift();
      if (next === undefined || !next()) return;
    }
  } finally {
    draining = false;
  }
}

function retryLater(): void {
  if (retrying) return;
  retrying = true;
  setTimeout(() => {
    retrying = false;
    startWaiting();
  }, 1);
}

function startSoon(): void {
  if (startingSoon) return;
  startingSoon = true;
  soon(() => {
    startingSoon = false;
    startWaiting();
  });
}

/** In a call's callback: its slot is still koffi's until the callback returns, so the last start waits a turn. */
function settled(): void {
  inFlight--;
  if (waiting.length === 0) return;
  startWaiting(asyncLimit - 1);
  if (waiting.length > 0) startSoon();
}

function fail(message: string, code: string): TypeError {
  return nodeError(TypeError, code, message);
}

/** The function that reads `stateName` on the current thread. */
function stateReader(stateName: CaptureStateName): () => number {
  if (!STATE_NAMES.includes(stateName)) {
    throw fail(
      `Unknown capture state '${String(stateName)}'; valid names are ${STATE_NAMES.join(", ")} (the last two on Windows only)`,
      "ERR_INVALID_ARG_VALUE",
    );
  }
  const koffi = loadKoffi();
  if (stateName === "errno") return koffi.errno as () => number;
  if (process.platform !== "win32") {
    throw fail(
      `Capture state '${stateName}' exists on Windows only; use 'errno' on ${process.platform}`,
      "ERR_INVALID_ARG_VALUE",
    );
  }
  return windowsStateReader(stateName);
}

// A misspelt convention must not read as "negative": a failing BOOL call would pass as success.
function checkFailure(failure: FailureConvention): void {
  if (failure !== "negative" && failure !== "zero") {
    throw fail(
      `Unknown failure convention '${String(failure)}'; valid conventions are negative, zero`,
      "ERR_INVALID_ARG_VALUE",
    );
  }
}

function checkTarget(fn: NativeFunction): void {
  // The type first: `null` has no `info` to read.
  const kind =
    typeof fn === "function" ? (fn as Partial<NativeFunction>).info?.result?.primitive : undefined;
  if (kind === undefined) {
    throw fail(
      "adaptSystemCall expects a koffi-bound function (lib.func(...)) returning an integer",
      "ERR_INVALID_ARG_TYPE",
    );
  }
  if (!INTEGER_KINDS.has(kind)) {
    throw fail(
      `adaptSystemCall expects a function returning an integer (${[...INTEGER_KINDS].join(", ")}); ${fn.info.name} returns ${kind}`,
      "ERR_INVALID_ARG_TYPE",
    );
  }
}

/**
 * The synchronous wrapper: the result on success, else `-errno`, read first thing after the call. Fixed arities
 * of up to six arguments (Win32's `LockFileEx` has six, `ReadFile` five) spare a rest array per call; a
 * variadic koffi function has no `.async` and takes the rest path.
 */
function synchronous(
  fn: NativeFunction,
  read: () => number,
  zeroFails: boolean,
): AdaptedSystemCall {
  // The failure test is written into each wrapper, so that no function of ours runs between the call and
  // `read`; the convention is a captured boolean, one test per call.
  const ok = (r: unknown): number => (typeof r === "number" ? r : overflow());
  type A = AdaptedSystemCall;
  switch (typeof fn.async === "function" ? fn.info.arguments.length : -1) {
    case 0:
      return (() => {
        const r = fn();
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
    case 1:
      return ((a: unknown) => {
        const r = fn(a);
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
    case 2:
      return ((a: unknown, b: unknown) => {
        const r = fn(a, b);
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
    case 3:
      return ((a: unknown, b: unknown, c: unknown) => {
        const r = fn(a, b, c);
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
    case 4:
      return ((a: unknown, b: unknown, c: unknown, d: unknown) => {
        const r = fn(a, b, c, d);
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
    case 5:
      return ((a: unknown, b: unknown, c: unknown, d: unknown, e: unknown) => {
        const r = fn(a, b, c, d, e);
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
    case 6:
      return ((a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown) => {
        const r = fn(a, b, c, d, e, f);
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
    default:
      return ((...args: unknown[]) => {
        const r = fn(...args);
        return (zeroFails ? r === 0 : r < 0) ? -(slot.errno = read()) : ok(r);
      }) as A;
  }
}

/**
 * How a call says it failed: `"negative"` (C's -1, Win32's `INVALID_HANDLE_VALUE`, `SOCKET_ERROR`) or
 * `"zero"` (a Win32 `BOOL` or a count where 0 means failure).
 */
export type FailureConvention = "negative" | "zero";

/**
 * Wraps a koffi-bound system call: a successful result is returned as is; a failing one (negative, or 0
 * under the `"zero"` convention) becomes `-errno` (or `-GetLastError()`), read by the very next native
 * call after the system call, before any other JavaScript or native code of ours runs. The value is also
 * kept in this thread's slot ({@link lastErrno}). Throws a `TypeError` naming the valid choices for an
 * unknown `stateName` or `failure`, or a target that does not return an integer. `.async(...)` makes the call
 * on libuv's thread pool; in a Bun worker it makes it on the worker's own thread (Bun 1.4 crashes when a worker ends with
 * koffi calls in flight), so a call that waits (`F_SETLKW`, a FIFO's open) blocks that worker.
 *
 * @example
 * const fcntl = adaptSystemCall(lib.func("int fcntl(int fd, int cmd, intptr_t arg)"), "errno");
 * fcntl(-1, 1, 0); // -9: -EBADF on Linux
 * const close = adaptSystemCall(kernel32.func("int __stdcall CloseHandle(intptr_t h)"), "GetLastError", "zero");
 * close(0); // -6: -ERROR_INVALID_HANDLE
 */
export function adaptSystemCall(
  fn: NativeFunction,
  stateName: CaptureStateName,
  failure: FailureConvention = "negative",
): AdaptedSystemCall {
  checkTarget(fn);
  checkFailure(failure);
  const read = stateReader(stateName);
  const adapted = synchronous(fn, read, failure === "zero");
  const failed = failure === "zero" ? (r: number) => r === 0 : (r: number) => r < 0;
  (adapted as { stateName: CaptureStateName }).stateName = stateName;
  const asyncFn = fn.async;
  if (INLINE_ASYNC && asyncFn !== undefined) {
    adapted.async = (...args: unknown[]) =>
      new Promise<number>((resolve) => resolve(adapted(...args)));
    return adapted;
  }
  adapted.async = (...args: unknown[]) =>
    new Promise<number>((resolve, reject) => {
      if (asyncFn === undefined) {
        reject(
          fail(
            `${fn.info.name} is variadic; koffi cannot call it asynchronously`,
            "ERR_INVALID_ARG_TYPE",
          ),
        );
        return;
      }
      schedule(
        () =>
          asyncFn(...args, (error: unknown, r: number) => {
            // First thing in the callback: koffi has just restored the pool thread's errno (and, on
            // Windows, its last-error value) here.
            const errno = read();
            settled();
            if (error) reject(error);
            else if (failed(r)) resolve(-(slot.errno = errno));
            else resolve(typeof r === "number" ? r : overflow());
          }),
        reject,
      );
    });
  return adapted;
}

/** A system call adapted the "explicit" way: the caller passes the capture state as the first argument. */
export interface ExplicitSystemCall {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors the wrapped koffi function
  (state: CaptureState, ...args: any[]): number;
  readonly stateName: CaptureStateName;
}

/**
 * The JDK's "explicit" path: like {@link adaptSystemCall}, but errno is captured on every call, success
 * or not, into the {@link CaptureState} the caller passes (a fresh one per call, or one it keeps).
 * Returns the same result-or-`-errno`. It exists for benchmarks against the cached per-thread slot and
 * for callers that want to keep a state.
 *
 * @example
 * const fcntl = adaptSystemCallExplicit(raw, "errno");
 * const state = new CaptureState();
 * fcntl(state, -1, 1, 0); // -9, and state.value === 9
 */
export function adaptSystemCallExplicit(
  fn: NativeFunction,
  stateName: CaptureStateName,
): ExplicitSystemCall {
  checkTarget(fn);
  const read = stateReader(stateName);
  const arity = typeof fn.async === "function" ? fn.info.arguments.length : -1;
  let explicit: ExplicitSystemCall;
  switch (arity) {
    case 2:
      explicit = ((state: CaptureState, a: unknown, b: unknown) => {
        const r = fn(a, b);
        state.value = read();
        return r >= 0 ? (typeof r === "number" ? r : overflowed(state)) : -state.value;
      }) as ExplicitSystemCall;
      break;
    case 3:
      explicit = ((state: CaptureState, a: unknown, b: unknown, c: unknown) => {
        const r = fn(a, b, c);
        state.value = read();
        return r >= 0 ? (typeof r === "number" ? r : overflowed(state)) : -state.value;
      }) as ExplicitSystemCall;
      break;
    default:
      explicit = ((state: CaptureState, ...args: unknown[]) => {
        const r = fn(...args);
        state.value = read();
        return r >= 0 ? (typeof r === "number" ? r : overflowed(state)) : -state.value;
      }) as ExplicitSystemCall;
  }
  (explicit as { stateName: CaptureStateName }).stateName = stateName;
  return explicit;
}
