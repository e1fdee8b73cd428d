import type { Backend } from "../src/backend";
import { ComposedBackend } from "../src/compose-backend";
import { bindLibc } from "../src/libc";
import { nativePrimitives } from "../src/native-primitives";
import type { PlatformLayout } from "../src/platform/layout";
import { linuxLayout } from "../src/platform/linux";

/**
 * The native backend with another platform's choices, run against the real Linux kernel (x86-64/AArch64
 * pass variadic and fixed arguments alike, so both bindings are valid here):
 * - `"bsd-like"`: no OFD locks (classic per-process fcntl locks), the variadic ABI (Apple arm64's code
 *   path), no posix_fadvise, posix_fallocate, and F_FULLFSYNC (an unknown command on Linux, so its
 *   fallback to fsync runs).
 * - `"old-kernel"`: OFD commands the kernel rejects with EINVAL, as kernels before 3.15 do.
 */
export function emulatedBackend(kind: "bsd-like" | "old-kernel"): Backend {
  const { F_OFD_SETLK: _a, F_OFD_SETLKW: _b, fadvise: _c, ...base } = linuxLayout(process.arch);
  const layout: PlatformLayout =
    kind === "bsd-like"
      ? {
          ...base,
          variadicAbi: "variadic",
          allocate: "posix_fallocate",
          datasync: "fullfsync",
          F_FULLFSYNC: 51,
        }
      : { ...linuxLayout(process.arch), F_OFD_SETLK: 9999, F_OFD_SETLKW: 9998 };
  const libc = bindLibc(layout);
  return new ComposedBackend(
    nativePrimitives(libc),
    {
      locks: true,
      allocate: libc.fallocate !== undefined,
      fadvise: libc.posix_fadvise !== undefined,
    },
    `native(${kind})`,
  );
}

/** Whether the emulation can run: Linux on an ABI where variadic and fixed integer arguments agree. */
export const canEmulate =
  process.platform === "linux" && (process.arch === "x64" || process.arch === "arm64");
