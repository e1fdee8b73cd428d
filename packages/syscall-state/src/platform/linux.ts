import type { PlatformLayout } from "./layout";

/**
 * Linux (glibc and musl share the kernel's numbers), generic 64-bit ABI: `<asm-generic/fcntl.h>`,
 * `<linux/fadvise.h>`. Only s390x numbers fadvise's DONTNEED/NOREUSE differently.
 */
export function linuxLayout(arch: string): PlatformLayout {
  const s390x = arch === "s390x";
  return {
    os: "linux",
    library: null,
    O_RDONLY: 0,
    O_RDWR: 0o2,
    O_CREAT: 0o100,
    O_CLOEXEC: 0o2000000,
    O_SYNC: 0o4010000,
    O_DSYNC: 0o10000,
    SEEK_END: 2,
    F_GETFD: 1,
    F_SETLK: 6,
    F_SETLKW: 7,
    F_OFD_SETLK: 37,
    F_OFD_SETLKW: 38,
    F_RDLCK: 0,
    F_WRLCK: 1,
    F_UNLCK: 2,
    flock: {
      l_type: "short",
      l_whence: "short",
      l_start: "int64_t",
      l_len: "int64_t",
      l_pid: "int",
    },
    variadicAbi: "fixed",
    fadvise: {
      normal: 0,
      random: 1,
      sequential: 2,
      willneed: 3,
      dontneed: s390x ? 6 : 4,
      noreuse: s390x ? 7 : 5,
    },
    allocate: "fallocate",
    datasync: "fdatasync",
  };
}
