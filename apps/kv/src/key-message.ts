import { keyIdBytes } from "./bytes";
import { escapeControls } from "./text-encoding";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A key as a message shows it: its UTF-8 text quoted, control characters escaped as the CLI escapes them (a key
 * could otherwise drive the terminal that shows the error); a key that is not UTF-8, as `0x` and its bytes in hex.
 */
export function keyForMessage(id: string): string {
  const bytes = keyIdBytes(id);
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return `0x${Buffer.from(bytes).toString("hex")}`;
  }
  return `"${escapeControls(text).replaceAll('"', '\\"')}"`;
}
