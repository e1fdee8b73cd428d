import { basename, toNamespacedPath } from "node:path";

/** DOS device names (with any extension, trailing dots and spaces aside): `NUL`, `CON`, `COM1`, `LPT1`, … */
const DEVICE = /^(?:CON|PRN|AUX|NUL|COM[1-9¹²³]|LPT[1-9¹²³])(?:\..*)?$/i;

/**
 * `path` as Win32 should be given it: namespaced as node:fs passes it (`\\?\C:\…`, so a name ending in a dot or a
 * space keeps it), but a DOS device name as it is, which Win32 maps to the device only without `\\?\` (Java opens
 * the device; namespaced, `NUL` made a file of that name). @internal
 */
export function win32Path(path: string): string {
  return DEVICE.test(basename(path).replace(/[. ]+$/, "")) ? path : toNamespacedPath(path);
}
