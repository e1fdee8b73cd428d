import { loadKoffi } from "../koffi";

let getLastError: (() => number) | undefined;
let wsaGetLastError: (() => number) | undefined;

/**
 * The reader of a Windows capture state. Both read the thread's last-error value: koffi keeps each
 * call's own copy of it, so a read through koffi right after the call (or first thing in an async
 * completion callback, where koffi restores the pool thread's value) sees that call's error. @internal
 */
export function windowsStateReader(stateName: "GetLastError" | "WSAGetLastError"): () => number {
  const koffi = loadKoffi();
  if (stateName === "GetLastError") {
    getLastError ??= koffi.load("kernel32.dll").func("uint32_t __stdcall GetLastError()");
    return getLastError;
  }
  wsaGetLastError ??= koffi.load("ws2_32.dll").func("int __stdcall WSAGetLastError()");
  return wsaGetLastError;
}
