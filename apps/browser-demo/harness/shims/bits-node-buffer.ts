// Stands in for `node:buffer`'s isAscii in @rafkit/bits until its own browser build drops the import.
/** Whether every byte is below 0x80. */
export function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return false;
  return true;
}
