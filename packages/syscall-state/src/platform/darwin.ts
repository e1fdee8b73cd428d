import type { PlatformLayout } from "./layout";

/**
 * macOS (`<sys/fcntl.h>`). No posix_fadvise or posix_fallocate; `sync` and `datasync` both use
 * `F_FULLFSYNC`, because `fsync` there does not flush the drive's write cache.
 */
export function darwinLayout(arch: string): PlatformLayout {
  return {
    os: "darwin",
    library: "/usr/lib/libSystem.B.dylib",
    O_RDONLY: 0,
    O_RDWR: 0x2,
    O_CREAT: 0x200,
    O_CLOEXEC: 0x1000000,
    O_SYNC: 0x80,
    O_DSYNC: 0x400000,
    SEEK_END: 2,
    F_GETFD: 1,
    F_SETLK: 8,
    F_SETLKW: 9,
    F_FULLFSYNC: 51,
    F_RDLCK: 1,
    F_WRLCK: 3,
    F_UNLCK: 2,
    flock: {
      l_start: "int64_t",
      l_len: "int64_t",
      l_pid: "int",
      l_type: "short",
      l_whence: "short",
    },
    variadicAbi: arch === "arm64" ? "variadic" : "fixed",
    datasync: "fullfsync",
  };
}
