import type { PlatformLayout } from "./layout";

/** FreeBSD (`<sys/fcntl.h>`): process-associated fcntl locks only. */
export function freebsdLayout(_arch: string): PlatformLayout {
  return {
    os: "freebsd",
    library: "libc.so.7",
    O_RDONLY: 0,
    O_RDWR: 0x2,
    O_CREAT: 0x200,
    O_CLOEXEC: 0x100000,
    O_SYNC: 0x80,
    O_DSYNC: 0x1000000,
    SEEK_END: 2,
    F_GETFD: 1,
    F_SETLK: 12,
    F_SETLKW: 13,
    F_RDLCK: 1,
    F_WRLCK: 3,
    F_UNLCK: 2,
    flock: {
      l_start: "int64_t",
      l_len: "int64_t",
      l_pid: "int",
      l_type: "short",
      l_whence: "short",
      l_sysid: "int",
    },
    variadicAbi: "fixed",
    fadvise: { normal: 0, random: 1, sequential: 2, willneed: 3, dontneed: 4, noreuse: 5 },
    allocate: "posix_fallocate",
    datasync: "fdatasync",
  };
}
