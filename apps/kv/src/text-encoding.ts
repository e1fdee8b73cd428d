import { constants } from "node:buffer";
import { utf8 } from "./bytes";
import { KvError } from "./errors";

/** How the CLI prints keys and values as text: UTF-8 (lossy for binary data), hex or base64 (both exact). */
export type TextEncoding = "utf8" | "hex" | "base64";

/** The choices of {@link TextEncoding}, for option parsing and help. */
export const TEXT_ENCODINGS: readonly TextEncoding[] = ["utf8", "hex", "base64"];

/** The most bytes {@link encodeText} can spell in `encoding`: JavaScript strings have a maximum length. */
export function maxEncodable(encoding: TextEncoding): number {
  const max = constants.MAX_STRING_LENGTH;
  if (encoding === "hex") return Math.floor(max / 2);
  if (encoding === "base64") return Math.floor(max / 4) * 3;
  return max; // UTF-8 never decodes to more UTF-16 units than it has bytes
}

/**
 * `bytes` as text in `encoding`. `ERR_KV_INVALID_ARG` for bytes too many for one string in that encoding (a value
 * of hundreds of MiB as hex, say), naming `what`.
 */
export function encodeText(bytes: Uint8Array, encoding: TextEncoding, what = "value"): string {
  const max = maxEncodable(encoding);
  if (bytes.length > max) {
    throw new KvError(
      "ERR_KV_INVALID_ARG",
      `${what} of ${bytes.length} bytes is too large to print as ${encoding} (at most ${max} bytes); print it raw, without --encoding`,
    );
  }
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

/** C0 and C1 control characters, DEL, and the backslash that starts an escape. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\\\u0000-\u001f\u007f-\u009f]/g;
const NAMED: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/**
 * `text` safe to show on a terminal, one line: control characters (which could move the cursor or recolour it,
 * or split a `key<TAB>value` line) as `\t`, `\n`, `\r` or `\xHH`, and a backslash doubled, so the escaping is
 * unambiguous.
 */
export function escapeControls(text: string): string {
  return text.replace(
    CONTROL,
    (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}
