// The global `Buffer` in raf's browser build: only `Buffer.from(arrayBuffer, offset, length).toString("latin1",
// from, to)`, which readLine uses. Latin-1 by code point, not TextDecoder's "latin1" (that is windows-1252).
const CHUNK = 8192;

/** The `Buffer` members raf's shared sources use, for a browser build. */
export const Buffer = {
  from(buffer: ArrayBufferLike, offset: number, length: number) {
    const bytes = new Uint8Array(buffer, offset, length);
    return {
      toString(_encoding: "latin1", from: number, to: number): string {
        let text = "";
        for (let at = from; at < to; at += CHUNK) {
          text += String.fromCharCode(...bytes.subarray(at, Math.min(to, at + CHUNK)));
        }
        return text;
      },
    };
  },
};
