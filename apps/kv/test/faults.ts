import * as fs from "node:fs";
import { errnoOf, getBackend } from "@rafkit/syscall-state";
import { afterEach, expect, vi } from "vitest";
import { type OpenOptions, open, type Store } from "../src";

// Fault injection for the failure tests: the real backend, with chosen system calls replaced by spies that return
// a negative errno as the backend does. Every spy is restored after each test.

afterEach(() => {
  vi.restoreAllMocks();
});

/** `-EIO` as the backend returns it: the usual answer of a failed fsync or write. */
export const EIO = -errnoOf("EIO");

/** `-EFBIG` as the backend returns it: a write past the file size limit. */
export const EFBIG = -errnoOf("EFBIG");

/** Settles `p` to what a caller sees, its value or its error's code, so a test compares outcomes with `toEqual`. */
export function outcome(
  p: Promise<unknown>,
): Promise<{ value: unknown } | { error: string | undefined }> {
  return p.then(
    (value) => ({ value }),
    (error: { code?: string }) => ({ error: error.code }),
  );
}

/** One event-loop turn: writes issued before it and after it fall into different groups. */
export function turn(): Promise<unknown> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A promise the test opens by hand: it holds a mocked system call until another event has happened. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** `note(name, p)` settles `p` as {@link outcome} does and appends `name` to `order`: tests of issue order. */
export function settleOrder(): {
  order: string[];
  note: (name: string, p: Promise<unknown>) => ReturnType<typeof outcome>;
} {
  const order: string[] = [];
  const note = (name: string, p: Promise<unknown>) =>
    outcome(p).then((o) => {
      order.push(name);
      return o;
    });
  return { order, note };
}

/** The synchronous backend calls taking a descriptor first that the tests fail. */
export type FdCall = "datasync" | "sync" | "truncate" | "pwrite" | "pwriteFully";

/** The fdatasync a store issues for its writes: in the background under "batch", synchronously under "always". */
export function fdatasyncOf(sync: "batch" | "always"): "datasyncAsync" | "datasync" {
  return sync === "batch" ? "datasyncAsync" : "datasync";
}

/** The next `n` calls of `call` fail with EIO, running `onFail` first; the calls after them are real. */
export function failNext(call: FdCall | "datasyncAsync", n = 1, onFail?: () => void): void {
  const backend = getBackend();
  let left = n;
  const fails = () => {
    if (left <= 0) return false;
    left--;
    onFail?.();
    return true;
  };
  if (call === "datasyncAsync") {
    const real = backend.datasyncAsync.bind(backend);
    vi.spyOn(backend, "datasyncAsync").mockImplementation((fd) =>
      fails() ? Promise.resolve(EIO) : real(fd),
    );
  } else {
    failWhen(call, fails);
  }
}

/** Every call of `call` whose descriptor `when` picks (asked at the call) fails with `errno`; the others are real. */
export function failWhen(call: FdCall, when: (fd: number) => boolean, errno = EIO): void {
  const backend = getBackend();
  const real = backend[call].bind(backend) as (fd: number, ...rest: unknown[]) => number;
  // One implementation for calls of different arities: only the descriptor is looked at.
  vi.spyOn(backend, call).mockImplementation(((fd: number, ...rest: unknown[]) =>
    when(fd) ? errno : real(fd, ...rest)) as never);
}

/** Every pwrite and pwriteFully whose descriptor `when` picks fails with `errno`: an append buffer's flush fails. */
export function failWrites(when: (fd: number) => boolean, errno = EIO): void {
  failWhen("pwrite", when, errno);
  failWhen("pwriteFully", when, errno);
}

/**
 * Replaces the background fdatasync by `impl`, given the call's 1-based number, its descriptor and the real call:
 * for tests that order fdatasyncs of several groups against each other (with {@link gate}).
 */
export function mockDatasyncAsync(
  impl: (call: number, fd: number, real: (fd: number) => Promise<number>) => Promise<number>,
): void {
  const backend = getBackend();
  const real = backend.datasyncAsync.bind(backend);
  let calls = 0;
  vi.spyOn(backend, "datasyncAsync").mockImplementation((fd) => impl(++calls, fd, real));
}

/**
 * The first background fdatasync returns only after the second one failed with EIO, as do all later ones: two
 * groups' fdatasyncs in flight at once, settling out of order. The first one then fails too, or is real.
 */
export function secondFdatasyncFailsFirst(first: "fails" | "real" = "fails"): void {
  const secondFailed = gate();
  mockDatasyncAsync(async (call, fd, real) => {
    if (call === 1) {
      await secondFailed.opened;
      return first === "fails" ? EIO : real(fd);
    }
    setImmediate(secondFailed.open);
    return EIO;
  });
}

/** Whether descriptors can be listed and named (Linux's /proc/self/fd). */
export const hasProcFd = fs.existsSync("/proc/self/fd");

/** The file descriptor `fd` is open on (needs {@link hasProcFd}); throws if `fd` is not open. */
export function pathOfFd(fd: number): string {
  return fs.readlinkSync(`/proc/self/fd/${fd}`);
}

/** The files under `dir` this process still has open (needs {@link hasProcFd}): a leak check after close. */
export function openFilesUnder(dir: string): string[] {
  const real = fs.realpathSync(dir);
  return fs
    .readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return pathOfFd(Number(fd));
      } catch {
        return "";
      }
    })
    .filter((target) => target.startsWith(real));
}

/** Closes `db`, restores every spy and opens `dir` again: what the next session sees, with real system calls. */
export async function reopen(db: Store, dir: string, options?: OpenOptions): Promise<Store> {
  await db.close();
  vi.restoreAllMocks();
  return open(dir, options);
}

/**
 * {@link reopen}, then `check` on the new session, which must find nothing to recover and verify clean: a failure
 * must leave the files as a store that never took the failed writes would.
 */
export async function expectCleanReopen(
  db: Store,
  dir: string,
  check: (s: Store) => Promise<void>,
  options?: OpenOptions,
): Promise<void> {
  const again = await reopen(db, dir, options);
  await check(again);
  expect(again.recovery).toEqual([]);
  expect((await again.verify()).ok).toBe(true);
  await again.close();
}
