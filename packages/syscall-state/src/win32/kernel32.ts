import type { NativeFunction } from "../adapter";
import { loadKoffi } from "../koffi";
import { NativeUnavailableError } from "../libc";

/**
 * The raw koffi-bound Win32 calls the win32 backend makes, unadapted: a failing call returns `FALSE`
 * (0) or `INVALID_HANDLE_VALUE` (-1) and leaves the thread's last-error value (`GetLastError`).
 * Handles travel as `intptr_t` numbers. For benchmarks and callers who want a call the backend does not wrap.
 */
export interface NativeKernel32 {
  readonly CreateFileW: NativeFunction;
  readonly CloseHandle: NativeFunction;
  readonly ReadFile: NativeFunction;
  readonly WriteFile: NativeFunction;
  /** `ReadFile` and `WriteFile` with the buffer, the count and the OVERLAPPED as addresses (a direct buffer's). */
  readonly ReadFileAddress: NativeFunction;
  readonly WriteFileAddress: NativeFunction;
  readonly GetFileInformationByHandleEx: NativeFunction;
  /** Fills a `BY_HANDLE_FILE_INFORMATION` (52 bytes): the volume serial number and the 64-bit file index. */
  readonly GetFileInformationByHandle: NativeFunction;
  readonly SetFileInformationByHandle: NativeFunction;
  readonly FlushFileBuffers: NativeFunction;
  readonly LockFileEx: NativeFunction;
  readonly UnlockFileEx: NativeFunction;
  readonly GetFileType: NativeFunction;
  /** `INVALID_FILE_ATTRIBUTES` (0xFFFFFFFF) on failure. */
  readonly GetFileAttributesW: NativeFunction;
  /** ws2_32's `closesocket`: `SOCKET_ERROR` (-1) on failure, with the error in `WSAGetLastError`. */
  readonly closesocket: NativeFunction;
}

let bound: NativeKernel32 | undefined;
let failure: Error | undefined;

/**
 * Binds kernel32 (and ws2_32's `closesocket`) on first call. Throws {@link NativeUnavailableError}
 * off Windows, or where koffi does not load.
 */
export function nativeKernel32(): NativeKernel32 {
  if (bound !== undefined) return bound;
  if (failure !== undefined) throw failure;
  try {
    if (process.platform !== "win32") {
      throw new NativeUnavailableError(`kernel32 exists on Windows only, not ${process.platform}`);
    }
    if (process.arch !== "x64" && process.arch !== "arm64") {
      throw new NativeUnavailableError(
        `the win32 backend supports x64 and arm64 only, not ${process.arch}`,
      );
    }
    bound = bind();
    return bound;
  } catch (cause) {
    failure =
      cause instanceof NativeUnavailableError
        ? cause
        : new NativeUnavailableError((cause as Error).message, { cause });
    throw failure;
  }
}

function bind(): NativeKernel32 {
  const koffi = loadKoffi();
  const k = koffi.load("kernel32.dll");
  const ws = koffi.load("ws2_32.dll");
  const f = (declaration: string): NativeFunction => k.func(declaration) as NativeFunction;
  return {
    CreateFileW: f(
      "intptr_t __stdcall CreateFileW(str16 path, uint32_t access, uint32_t share, void *security, uint32_t disposition, uint32_t flags, intptr_t template)",
    ),
    CloseHandle: f("int __stdcall CloseHandle(intptr_t handle)"),
    ReadFile: f(
      "int __stdcall ReadFile(intptr_t handle, void *buffer, uint32_t length, void *done, void *overlapped)",
    ),
    WriteFile: f(
      "int __stdcall WriteFile(intptr_t handle, const void *buffer, uint32_t length, void *done, void *overlapped)",
    ),
    ReadFileAddress: f(
      "int __stdcall ReadFile(intptr_t handle, intptr_t buffer, uint32_t length, intptr_t done, intptr_t overlapped)",
    ),
    WriteFileAddress: f(
      "int __stdcall WriteFile(intptr_t handle, intptr_t buffer, uint32_t length, intptr_t done, intptr_t overlapped)",
    ),
    GetFileInformationByHandleEx: f(
      "int __stdcall GetFileInformationByHandleEx(intptr_t handle, int infoClass, void *info, uint32_t size)",
    ),
    GetFileInformationByHandle: f(
      "int __stdcall GetFileInformationByHandle(intptr_t handle, void *info)",
    ),
    SetFileInformationByHandle: f(
      "int __stdcall SetFileInformationByHandle(intptr_t handle, int infoClass, void *info, uint32_t size)",
    ),
    FlushFileBuffers: f("int __stdcall FlushFileBuffers(intptr_t handle)"),
    LockFileEx: f(
      "int __stdcall LockFileEx(intptr_t handle, uint32_t flags, uint32_t reserved, uint32_t lengthLow, uint32_t lengthHigh, void *overlapped)",
    ),
    UnlockFileEx: f(
      "int __stdcall UnlockFileEx(intptr_t handle, uint32_t reserved, uint32_t lengthLow, uint32_t lengthHigh, void *overlapped)",
    ),
    GetFileType: f("uint32_t __stdcall GetFileType(intptr_t handle)"),
    GetFileAttributesW: f("uint32_t __stdcall GetFileAttributesW(str16 path)"),
    closesocket: ws.func("int __stdcall closesocket(uintptr_t socket)") as NativeFunction,
  };
}
