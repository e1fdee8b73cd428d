import type { Advice } from "../backend";

/**
 * Everything the native backend needs to know about one OS: flag values, fcntl commands, the field order
 * of `struct flock`, and which optional calls exist. One file per OS fills it in; numbers come from that
 * OS's headers (64-bit ABIs only: `off_t` is 64 bits everywhere below).
 */
export interface PlatformLayout {
  /** `process.platform` this layout describes. */
  readonly os: "linux" | "darwin" | "freebsd";
  /** The C library to bind, or null for the symbols already loaded into the process (Linux: glibc or musl). */
  readonly library: string | null;
  readonly O_RDONLY: number;
  readonly O_RDWR: number;
  readonly O_CREAT: number;
  readonly O_CLOEXEC: number;
  readonly O_SYNC: number;
  readonly O_DSYNC: number;
  readonly SEEK_END: number;
  readonly F_GETFD: number;
  readonly F_SETLK: number;
  readonly F_SETLKW: number;
  /** Linux open-file-description locks (kernel 3.15+); absent elsewhere. */
  readonly F_OFD_SETLK?: number;
  readonly F_OFD_SETLKW?: number;
  /** macOS: flush the drive's cache too; `fsync` alone does not. */
  readonly F_FULLFSYNC?: number;
  readonly F_RDLCK: number;
  readonly F_WRLCK: number;
  readonly F_UNLCK: number;
  /**
   * `struct flock` fields in declaration order, as koffi type names. koffi computes offsets and padding
   * with the platform's C alignment rules.
   */
  readonly flock: Readonly<Record<string, string>>;
  /**
   * How `open` and `fcntl` (both variadic in C) may be bound. `"fixed"`: declared with a fixed third
   * argument, which the x86-64 SysV and standard AArch64 ABIs pass exactly like a variadic one.
   * `"variadic"`: Apple's arm64 ABI puts variadic arguments on the stack, so they must be declared
   * variadic, and koffi cannot call variadic functions asynchronously.
   */
  readonly variadicAbi: "fixed" | "variadic";
  /** `posix_fadvise` advice values, or undefined where the call does not exist. */
  readonly fadvise?: Readonly<Record<Advice, number>>;
  /** The call that reserves blocks: Linux `fallocate(fd, 0, off, len)`, or `posix_fallocate`. */
  readonly allocate?: "fallocate" | "posix_fallocate";
  /** `fdatasync` where it exists; `"fullfsync"` makes datasync the same as sync (macOS). */
  readonly datasync: "fdatasync" | "fullfsync";
}

/** The 64-bit architectures Node and koffi ship on, where `off_t` and the LP64 layouts below hold. */
export const SIXTY_FOUR_BIT_ARCHES: readonly string[] = [
  "x64",
  "arm64",
  "riscv64",
  "loong64",
  "ppc64",
  "s390x",
];
