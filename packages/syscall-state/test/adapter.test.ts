import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  adaptSystemCall,
  adaptSystemCallExplicit,
  CaptureState,
  lastErrno,
  type NativeFunction,
} from "../src/adapter";
import { loadKoffi } from "../src/koffi";
import { nativeLibc } from "../src/libc";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { neg, tempDir } from "./helpers";

const available = isNativeAvailable();
if (!available) console.warn("native backend unavailable here: adapter tests are skipped");

describe.skipIf(!available)("adaptSystemCall", () => {
  const dir = tempDir("adapter");
  const libc = () => nativeLibc();
  const F_GETFD = () => libc().layout.F_GETFD;

  test("returns the result on success, -errno on failure, and keeps it in the thread's slot", () => {
    const fcntl = adaptSystemCall(libc().fcntl as unknown as NativeFunction, "errno");
    const fd = openSync(__filename, "r");
    try {
      // Node opens with O_CLOEXEC: F_GETFD reports FD_CLOEXEC (1).
      expect(fcntl(fd, F_GETFD(), 0)).toBe(1);
      expect(fcntl(-1, F_GETFD(), 0)).toBe(neg("EBADF"));
      expect(lastErrno()).toBe(-neg("EBADF"));
      expect(fcntl(fd, 0x7fff, 0)).toBe(neg("EINVAL"));
      expect(lastErrno()).toBe(-neg("EINVAL"));
      expect(fcntl.stateName).toBe("errno");
    } finally {
      closeSync(fd);
    }
  });

  test('"zero" convention: a call that fails with 0 (a Win32 BOOL; isatty here) gives -errno, sync and async', async () => {
    const isatty = adaptSystemCall(
      loadKoffi().load(null).func("int isatty(int fd)") as NativeFunction,
      "errno",
      "zero",
    );
    const fd = openSync(__filename, "r");
    try {
      expect(isatty(-1)).toBe(neg("EBADF"));
      expect(lastErrno()).toBe(-neg("EBADF"));
      expect(isatty(fd)).toBe(neg("ENOTTY"));
      expect(await isatty.async(fd)).toBe(neg("ENOTTY"));
      expect(await isatty.async(-1)).toBe(neg("EBADF"));
    } finally {
      closeSync(fd);
    }
  });

  test("adapts functions of any arity", () => {
    const close = adaptSystemCall(libc().close, "errno");
    const lseek = adaptSystemCall(libc().lseek, "errno");
    const ftruncate = adaptSystemCall(libc().ftruncate, "errno");
    const pread = adaptSystemCall(libc().pread, "errno");
    expect(close(-1)).toBe(neg("EBADF"));
    expect(lseek(-1, 0, 0)).toBe(neg("EBADF"));
    expect(ftruncate(-1, 0)).toBe(neg("EBADF"));
    expect(pread(-1, new Uint8Array(1), 1, 0)).toBe(neg("EBADF"));
    const variadic = loadKoffi()
      .load(null)
      .func("int fcntl(int fd, int cmd, ...)") as NativeFunction;
    const adapted = adaptSystemCall(variadic, "errno");
    expect(adapted(-1, F_GETFD(), "int", 0)).toBe(neg("EBADF"));
    return expect(adapted.async(-1, F_GETFD(), "int", 0)).rejects.toThrow(/variadic/);
  });

  test.runIf(process.platform === "linux")(
    "adapts calls of no arguments and passes every argument of five- and six-argument calls, in both conventions",
    () => {
      const lib = loadKoffi().load(null);
      const getpid = adaptSystemCall(lib.func("int getpid()") as NativeFunction, "errno", "zero");
      expect(getpid()).toBe(process.pid);

      // Five arguments under "zero", the shape of Win32's ReadFile and WriteFile: select(2) answers 0 on a
      // timeout and 1 here (a regular file is always readable), so nfds and the read set must arrive in place.
      const select = adaptSystemCall(
        lib.func(
          "int select(int nfds, void *readfds, void *writefds, void *exceptfds, void *timeout)",
        ) as NativeFunction,
        "errno",
        "zero",
      );
      const AT_FDCWD = -100;
      const from = join(dir, "from");
      writeFileSync(from, "abcdef");
      const dirFd = openSync(dir, "r");
      const input = openSync(from, "r");
      const output = openSync(join(dir, "to"), "w");
      try {
        const readSet = new Uint8Array(128);
        readSet[input >> 3] = 1 << (input & 7);
        expect(select(input + 1, readSet, null, null, new Uint8Array(16))).toBe(1);

        // Five arguments under "negative": the two directories differ, so swapping them fails.
        const linkat = adaptSystemCall(
          lib.func(
            "int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)",
          ) as NativeFunction,
          "errno",
        );
        expect(linkat(AT_FDCWD, from, dirFd, "link", 0)).toBe(0);
        expect(readFileSync(join(dir, "link"), "utf8")).toBe("abcdef");
        expect(linkat(AT_FDCWD, from, dirFd, "link", 0)).toBe(neg("EEXIST"));

        // Six arguments: the input offset (2) and the length (3) must arrive in place.
        const copyFileRange = adaptSystemCall(
          lib.func(
            "intptr_t copy_file_range(int fd_in, void *off_in, int fd_out, void *off_out, size_t len, unsigned int flags)",
          ) as NativeFunction,
          "errno",
        );
        expect(copyFileRange(input, new BigInt64Array([2n]), output, null, 3, 0)).toBe(3);
        expect(readFileSync(join(dir, "to"), "utf8")).toBe("cde");
        expect(copyFileRange(-1, null, output, null, 3, 0)).toBe(neg("EBADF"));
      } finally {
        closeSync(dirFd);
        closeSync(input);
        closeSync(output);
      }
    },
  );

  test("rejects unknown state names and non-integer targets, naming what is valid", () => {
    const fcntl = libc().fcntl as unknown as NativeFunction;
    expect(() => adaptSystemCall(fcntl, "errnoo" as never)).toThrow(
      /valid names are errno, GetLastError, WSAGetLastError/,
    );
    // A misspelt convention read as "negative" would pass a failing BOOL call (0) as success.
    for (const failure of ["Zero", "zer0", 0, null]) {
      expect(() => adaptSystemCall(fcntl, "errno", failure as never)).toThrow(
        expect.objectContaining({
          name: "TypeError",
          code: "ERR_INVALID_ARG_VALUE",
          message: expect.stringMatching(/valid conventions are negative, zero/),
        }),
      );
    }
    if (process.platform !== "win32") {
      expect(() => adaptSystemCall(fcntl, "GetLastError")).toThrow(/Windows only/);
      expect(() => adaptSystemCallExplicit(fcntl, "WSAGetLastError")).toThrow(/Windows only/);
    }
    const lib = loadKoffi().load(null);
    const strerror = lib.func("const char *strerror(int errnum)") as NativeFunction;
    const voidFn = lib.func("void sync(void)") as NativeFunction;
    expect(() => adaptSystemCall(strerror, "errno")).toThrow(
      /returning an integer \(Int8.*strerror returns String/,
    );
    expect(() => adaptSystemCall(voidFn, "errno")).toThrow(/returns Void/);
    expect(() => adaptSystemCall((() => 1) as never, "errno")).toThrow(/koffi-bound function/);
    for (const target of [null, undefined, 5, {}]) {
      for (const adapt of [adaptSystemCall, adaptSystemCallExplicit]) {
        expect(() => adapt(target as never, "errno")).toThrow(
          expect.objectContaining({ name: "TypeError", code: "ERR_INVALID_ARG_TYPE" }),
        );
      }
    }
  });

  test("explicit path: a state per call captures errno on every call", () => {
    const explicit = adaptSystemCallExplicit(libc().fcntl as unknown as NativeFunction, "errno");
    const state = new CaptureState();
    expect(explicit(state, -1, F_GETFD(), 0)).toBe(neg("EBADF"));
    expect(state.value).toBe(-neg("EBADF"));
    const fresh = new CaptureState();
    expect(explicit(fresh, 0x7fffffff, F_GETFD(), 0)).toBe(neg("EBADF"));
    expect(explicit(fresh, 0, 0x7fff, 0)).toBe(neg("EINVAL"));
    expect(fresh.value).toBe(-neg("EINVAL"));
    const close = adaptSystemCallExplicit(libc().close, "errno");
    expect(close(new CaptureState(), -1)).toBe(neg("EBADF"));
    const pread = adaptSystemCallExplicit(libc().pread, "errno");
    expect(pread(new CaptureState(), -1, new Uint8Array(1), 1, 0)).toBe(neg("EBADF"));
  });
});

describe.skipIf(!available)("results too large for a number", () => {
  // labs(3) returns its argument's magnitude and leaves errno alone: a 64-bit result past 2^53, on demand.
  const labs = () => loadKoffi().load(null).func("int64_t labs(int64_t)") as NativeFunction;

  test("are -EOVERFLOW, in the thread's slot or the caller's state", () => {
    const cached = adaptSystemCall(labs(), "errno");
    expect(cached(2n ** 62n)).toBe(neg("EOVERFLOW"));
    expect(lastErrno()).toBe(-neg("EOVERFLOW"));
    expect(cached(-5)).toBe(5);

    const explicit = adaptSystemCallExplicit(labs(), "errno");
    const state = new CaptureState();
    state.value = 9; // what an earlier failure left
    expect(explicit(state, 2n ** 62n)).toBe(neg("EOVERFLOW"));
    expect(state.value).toBe(-neg("EOVERFLOW"));
  });
});

describe.skipIf(!available)("async errno capture (koffi reads errno on the pool thread)", () => {
  const dir = tempDir("async-errno");

  test("concurrent async failures each resolve to their own errno, despite sync failures in between", async () => {
    const backend = nativeBackend();
    const sub = join(dir, "d");
    mkdirSync(sub);
    const dirFd = backend.open(sub, "r");
    const file = join(dir, "f");
    const fileFd = backend.open(file, "rw");
    const buf = new Uint8Array(8);
    const fcntl = adaptSystemCall(nativeLibc().fcntl as unknown as NativeFunction, "errno");
    const cases: [() => Promise<number>, number][] = [
      [() => backend.preadAsync(dirFd, buf, 0, 8, 0), neg("EISDIR")],
      [() => backend.preadAsync(-1, buf, 0, 8, 0), neg("EBADF")],
      [() => backend.openAsync(join(dir, "missing", "x"), "r"), neg("ENOENT")],
      [() => backend.openAsync(join(file, "x"), "r"), neg("ENOTDIR")],
      [() => backend.truncateAsync(dirFd, 0), neg("EINVAL")],
      [() => fcntl.async(fileFd, 0x7fff, 0), neg("EINVAL")],
    ];
    const pending: Promise<[number, number]>[] = [];
    for (let round = 0; round < 200; round++) {
      for (const [call, expected] of cases) {
        pending.push(call().then((r) => [r, expected]));
        // A sync failure on the main thread leaves a different errno there meanwhile.
        expect(fcntl(-1, 1, 0)).toBe(neg("EBADF"));
      }
    }
    const results = await Promise.all(pending);
    const mismatches = results.filter(([r, expected]) => r !== expected);
    expect(mismatches).toEqual([]);
    expect(results).toHaveLength(200 * cases.length);
    backend.close(dirFd);
    backend.close(fileFd);
  });
});

describe.skipIf(!available)("async calls past koffi's limit", () => {
  const usleep = () =>
    loadKoffi().load(null).func("int usleep(uint32_t usec)") as unknown as NativeFunction & {
      async: (usec: number, cb: (error: unknown, r: number) => void) => void;
    };

  test("wait for a slot when another koffi user holds them all, and then run", async () => {
    const sleep = usleep();
    const limit = loadKoffi().config().max_async_calls ?? 256;
    const others: Promise<void>[] = [];
    for (let i = 0; i < limit; i++) {
      others.push(new Promise((resolve) => sleep.async(20_000, () => resolve())));
    }
    // Every slot is another user's: the adapter has none of its own in flight to wait for.
    const backend = nativeBackend();
    const path = join(tempDir("koffi-slots"), "f");
    writeFileSync(path, "12345");
    const fd = backend.open(path, "r");
    await expect(backend.sizeAsync(fd)).resolves.toBe(5);
    await Promise.all(others);
    backend.close(fd);
  });

  test("a call refused for its arguments lets the ones queued behind it start", async () => {
    const close = adaptSystemCall(nativeLibc().close as unknown as NativeFunction, "errno");
    const limit = loadKoffi().config().max_async_calls ?? 256;
    const sleep = adaptSystemCall(usleep(), "errno");
    const slow = Array.from({ length: limit }, () => sleep.async(20_000));
    // Queued behind the sleeps: each of these throws in koffi when it starts (no argument), and the last is valid.
    const bad = Array.from({ length: 2 * limit }, () =>
      close.async().then(
        () => "resolved",
        () => "rejected",
      ),
    );
    const good = close.async(-1);
    await Promise.all(slow);
    expect(new Set(await Promise.all(bad))).toEqual(new Set(["rejected"]));
    await expect(good).resolves.toBe(neg("EBADF"));
  });

  test("a call koffi refused starts once a slot frees, not when our own longest call returns", async () => {
    const sleep = adaptSystemCall(usleep(), "errno");
    const limit = loadKoffi().config().max_async_calls ?? 256;
    const order: string[] = [];
    // Ours, for 1.5 s; another koffi user takes every other slot for 1 ms each.
    const long = sleep.async(1_500_000).then(() => order.push("long"));
    const raw = usleep();
    const others = Array.from(
      { length: limit - 1 },
      () => new Promise<void>((resolve) => raw.async(1000, () => resolve())),
    );
    const backend = nativeBackend();
    const path = join(tempDir("koffi-refused"), "f");
    writeFileSync(path, "123");
    const fd = backend.open(path, "r");
    const size = backend.sizeAsync(fd).then((r) => order.push(`size ${r}`));
    await Promise.all([long, size, ...others]);
    expect(order).toEqual(["size 3", "long"]);
    backend.close(fd);
  });

  test("calls that koffi refuses for their argument types, queued by the thousand, all settle", async () => {
    const close = adaptSystemCall(nativeLibc().close as unknown as NativeFunction, "errno");
    const limit = loadKoffi().config().max_async_calls ?? 256;
    const sleep = adaptSystemCall(usleep(), "errno");
    const slow = Array.from({ length: limit }, () => sleep.async(10_000));
    // Each fails inside its start, calling back at once: no recursion per queued call.
    const bad = Array.from({ length: 50_000 }, () =>
      close.async("not a descriptor").then(
        () => "resolved",
        () => "rejected",
      ),
    );
    const good = close.async(-1);
    await Promise.all(slow);
    expect(new Set(await Promise.all(bad)).size).toBeGreaterThan(0);
    await expect(good).resolves.toBe(neg("EBADF"));
  });
});
