import { utf8 } from "./bytes";

/** How the CLI prints keys and values as text: UTF-8 (lossy for binary data), hex or base64 (both exact). */
export type TextEncoding = "utf8" | "hex" | "base64";

/** The choices of {@link TextEncoding}, for option parsing and help. */
export const TEXT_ENCODINGS: readonly TextEncoding[] = ["utf8", "hex", "base64"];

/** `bytes` as text in `encoding`. */
export function encodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === "utf8") return utf8(bytes);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}
