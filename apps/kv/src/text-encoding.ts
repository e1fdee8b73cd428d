import { utf8 } from "./bytes";
import { KvError } from "./errors";

/** How the CLI prints keys and values as text: UTF-8 (lossy for binary data), hex or base64 (both exact). */
export type TextEncoding = "utf8" | "hex" | "base64";

/** The choices of {@link TextEncoding}, for option parsing and help. */
export const TEXT_ENCODINGS: readonly TextEncoding[] = ["utf8", "hex", "base64"];

/** `bytes` as text in `encoding`. */
export function encodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === "utf8") return utf8(bytes);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The bytes that `text` spells in `encoding`, the inverse of {@link encodeText} for hex and base64. Node's decoders
 * skip what they cannot read, which would turn a typo into another key; so malformed text (odd length or non-hex
 * digits; base64 that is not the padded standard alphabet, as {@link encodeText} writes it) throws
 * `ERR_KV_INVALID_ARG`, naming `what` (e.g. "key").
 */
export function decodeText(
  text: string,
  encoding: TextEncoding,
  what: string,
): Uint8Array | string {
  if (encoding === "utf8") return text; // the store encodes strings as UTF-8
  const valid = encoding === "hex" ? HEX.test(text) : BASE64.test(text);
  const bytes = Buffer.from(text, encoding);
  // Base64's last character may carry bits past the last byte: only the canonical spelling is one key.
  if (!valid || (encoding === "base64" && bytes.toString("base64") !== text)) {
    const spec = encoding === "hex" ? "pairs of hex digits" : "padded standard base64";
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `${what} ${JSON.stringify(text)} is not ${encoding} (expected ${spec})`,
    );
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}
