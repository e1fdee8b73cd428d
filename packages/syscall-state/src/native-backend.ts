import type { Backend } from "./backend";
import { ComposedBackend } from "./compose-backend";
import { nativeLibc } from "./libc";
import { nativePrimitives } from "./native-primitives";
import { win32Backend } from "./win32/win32-primitives";

let instance: Backend | undefined;

/**
 * The koffi backend: one system call per primitive, errno read right after it; on Windows, kernel32
 * calls with `GetLastError` read right after each. koffi and the C library (kernel32) load on the first
 * call (never at import). Throws a `NativeUnavailableError`
 * (`code: "ERR_RAFKIT_NATIVE_UNAVAILABLE"`) where koffi or the platform is unsupported; see
 * {@link isNativeAvailable}. Returns the same instance every time.
 */
export function nativeBackend(): Backend {
  if (instance !== undefined) return instance;
  if (process.platform === "win32") return (instance = win32Backend());
  const libc = nativeLibc();
  instance = new ComposedBackend(nativePrimitives(libc), {
    locks: true,
    allocate: libc.fallocate !== undefined,
    fadvise: libc.posix_fadvise !== undefined,
  });
  return instance;
}

/** Whether {@link nativeBackend} loads here (it tries once, and remembers). */
export function isNativeAvailable(): boolean {
  try {
    nativeBackend();
    return true;
  } catch {
    return false;
  }
}
