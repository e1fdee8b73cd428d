import { constants } from "node:os";
import type { NativeFunction } from "./adapter";
import { shareClassIdentity } from "./class-identity";
import { loadKoffi } from "./koffi";
import type { PlatformLayout } from "./platform/layout";
import { platformLayout } from "./platform/select";

/**
 * The raw koffi-bound C functions the native backend calls, unadapted: a failing call returns -1 and
 * leaves errno (posix_fadvise/posix_fallocate return the error number instead). For benchmarks of the
 * adapter against "no adapter at all", and for callers who want a call the backend does not wrap.
 */
export interface NativeLibc {
  /** The OS numbers and layouts in use. */
  readonly layout: PlatformLayout;
  readonly open: NativeFunction;
  readonly close: NativeFunction;
  readonly pread: NativeFunction;
  readonly pwrite: NativeFunction;
  /**
   * `pread` and `pwrite` with the buffer as its address, an integer: for memory at a fixed address (a
   * direct buffer), where koffi then has no typed array to inspect per call.
   */
  readonly preadAddress: NativeFunction;
  readonly pwriteAddress: NativeFunction;
  readonly lseek: NativeFunction;
  readonly ftruncate: NativeFunction;
  readonly fsync: NativeFunction;
  readonly fdatasync?: NativeFunction;
  /**
   * `fcntl` with an integer argument (`F_GETFD`, `F_FULLFSYNC`): `fcntl(fd, cmd, arg)`. Where the ABI lets
   * it be declared with a fixed third argument (everywhere but Apple arm64), this is the koffi function
   * itself, with no JavaScript in between.
   */
  readonly fcntl: (fd: number, cmd: number, arg: number) => number;
  /**
   * `fcntl` with a `struct flock *` argument, as koffi binds it (a plain object is converted per call).
   * Where the ABI is variadic it is the variadic binding, and the pointer type goes before the value.
   */
  readonly fcntlLock: NativeFunction;
  /** koffi's type for `struct flock *`, for the variadic `fcntlLock` binding. */
  readonly flockPointer: unknown;
  readonly posix_fadvise?: NativeFunction;
  readonly fallocate?: NativeFunction;
}

let bound: NativeLibc | undefined;
let failure: Error | undefined;

/** Why the native backend cannot load here, as a stable-coded error. */
export class NativeUnavailableError extends Error {
  static {
    shareClassIdentity(this, "@rafkit/syscall-state.NativeUnavailableError");
  }
  readonly code = "ERR_RAFKIT_NATIVE_UNAVAILABLE";
  constructor(reason: string, options?: { cause: unknown }) {
    super(
      `The native syscall-state backend is unavailable: ${reason}. Use nodeBackend() instead.`,
      options,
    );
    this.name = "NativeUnavailableError";
  }
}

/**
 * Binds the C library on first call (lazily, so importing this package never loads koffi) and returns
 * the raw functions. Throws {@link NativeUnavailableError} where koffi or the platform is unsupported.
 */
export function nativeLibc(): NativeLibc {
  if (bound !== undefined) return bound;
  if (failure !== undefined) throw failure;
  try {
    bound = bind(process.platform, process.arch);
    return bound;
  } catch (cause) {
    failure =
      cause instanceof NativeUnavailableError
        ? cause
        : new NativeUnavailableError((cause as Error).message, { cause });
    throw failure;
  }
}

function bind(platform: string, arch: string): NativeLibc {
  const layout = platformLayout(platform, arch);
  if (typeof layout === "string") throw new NativeUnavailableError(layout);
  return bindLibc(layout);
}

/**
 * Binds the C library described by `layout`. Internal: tests use it to run other platforms' code paths
 * (classic locks, the variadic ABI, no fadvise) against the real Linux kernel.
 */
export function bindLibc(layout: PlatformLayout): NativeLibc {
  const koffi = loadKoffi();
  const lib = koffi.load(layout.library);
  const flock = koffi.struct(layout.flock);
  const flockPtr = koffi.pointer(flock);
  const optional = (declaration: string): NativeFunction | undefined => {
    try {
      return lib.func(declaration) as NativeFunction;
    } catch {
      return undefined;
    }
  };
  const fixed = layout.variadicAbi === "fixed";
  const fcntlInt = fixed
    ? (lib.func("int fcntl(int fd, int cmd, intptr_t arg)") as NativeLibc["fcntl"])
    : variadicFcntl(lib.func("int fcntl(int fd, int cmd, ...)") as NativeFunction);
  const libc: NativeLibc = {
    layout,
    open: lib.func(
      fixed
        ? "int open(const char *path, int flags, uint32_t mode)"
        : "int open(const char *path, int flags, ...)",
    ) as NativeFunction,
    close: lib.func("int close(int fd)") as NativeFunction,
    pread: lib.func("int64_t pread(int fd, void *buf, size_t n, int64_t offset)") as NativeFunction,
    pwrite: lib.func(
      "int64_t pwrite(int fd, const void *buf, size_t n, int64_t offset)",
    ) as NativeFunction,
    preadAddress: lib.func("pread", "int64_t", [
      "int",
      "intptr_t",
      "size_t",
      "int64_t",
    ]) as NativeFunction,
    pwriteAddress: lib.func("pwrite", "int64_t", [
      "int",
      "intptr_t",
      "size_t",
      "int64_t",
    ]) as NativeFunction,
    lseek: lib.func("int64_t lseek(int fd, int64_t offset, int whence)") as NativeFunction,
    ftruncate: lib.func("int ftruncate(int fd, int64_t length)") as NativeFunction,
    fsync: lib.func("int fsync(int fd)") as NativeFunction,
    fcntl: fcntlInt,
    flockPointer: flockPtr,
    fcntlLock: (fixed
      ? lib.func("fcntl", "int", ["int", "int", flockPtr])
      : lib.func("int fcntl(int fd, int cmd, ...)")) as NativeFunction,
  };
  const extra: Record<"fdatasync" | "posix_fadvise" | "fallocate", NativeFunction | undefined> = {
    fdatasync: undefined,
    posix_fadvise: undefined,
    fallocate: undefined,
  };
  if (layout.datasync === "fdatasync") extra.fdatasync = optional("int fdatasync(int fd)");
  if (layout.fadvise !== undefined) {
    extra.posix_fadvise = optional(
      "int posix_fadvise(int fd, int64_t offset, int64_t len, int advice)",
    );
  }
  if (layout.allocate === "fallocate") {
    extra.fallocate = optional("int fallocate(int fd, int mode, int64_t offset, int64_t len)");
  } else if (layout.allocate === "posix_fallocate") {
    extra.fallocate = optional("int posix_fallocate(int fd, int64_t offset, int64_t len)");
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value !== undefined) (libc as unknown as Record<string, unknown>)[key] = value;
  }
  // Prove errno capture works here before anyone relies on it.
  const r = libc.fcntl(-1, layout.F_GETFD, 0);
  const errno = koffi.errno();
  if (r !== -1 || errno !== constants.errno.EBADF) {
    throw new NativeUnavailableError(
      `fcntl(-1, F_GETFD) returned ${r} with errno ${errno}, not -1 with EBADF; the C library binding is wrong`,
    );
  }
  return libc;
}

function variadicFcntl(fn: NativeFunction): NativeLibc["fcntl"] {
  return (fd, cmd, arg) => fn(fd, cmd, "intptr_t", arg) as number;
}
