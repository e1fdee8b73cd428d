// The demo's worker: every read happens here, with the sync RandomAccessFile over the dropped File
// (FileReaderSync under the window), so the page stays responsive whatever the file's size.
import { RandomAccessFile } from "@rafkit/raf";
import { isClassFile, readClassFile } from "./class-file";
import type { Reply, Request } from "./protocol";

const files: Partial<Record<"big" | "little", RandomAccessFile>> = {};
let current: File | undefined;
let scanning = 0;

const post = (reply: Reply) => self.postMessage(reply);

async function fileIn(order: "big" | "little"): Promise<RandomAccessFile> {
  files[order] ??= await RandomAccessFile.open(current!, "r", { byteOrder: order });
  return files[order]!;
}

function hexAt(f: RandomAccessFile, offset: number): string {
  const start = offset - (offset % 16);
  const bytes = new Uint8Array(Math.max(0, Math.min(256, f.length() - start)));
  f.readFullyAt(start, bytes);
  const rows: string[] = [];
  for (let row = 0; row < bytes.length; row += 16) {
    const line = bytes.subarray(row, row + 16);
    const hex = Array.from(line, (b) => b.toString(16).padStart(2, "0")).join(" ");
    const text = Array.from(line, (b) =>
      b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".",
    ).join("");
    rows.push(`${(start + row).toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  ${text}`);
  }
  return rows.join("\n");
}

function typedAt(f: RandomAccessFile, offset: number, kind: string): string {
  switch (kind) {
    case "byte":
      return String(f.readByteAt(offset));
    case "short":
      return String(f.readShortAt(offset));
    case "unsigned short":
      return String(f.readUnsignedShortAt(offset));
    case "long":
      return String(f.readLongAt(offset));
    case "float":
      return String(f.readFloatAt(offset));
    case "double":
      return String(f.readDoubleAt(offset));
    case "char":
      return JSON.stringify(f.readCharAt(offset));
    case "UTF":
      return JSON.stringify(f.readUTFAt(offset));
    default:
      return String(f.readIntAt(offset));
  }
}

/** Reads the whole file in 1 MiB steps, reporting each: newlines and zero bytes, as a stand-in for real work. */
async function scan(f: RandomAccessFile, run: number): Promise<void> {
  const size = f.length();
  const chunk = new Uint8Array(1 << 20);
  let newlines = 0;
  let zeros = 0;
  for (let done = 0; done < size && run === scanning; ) {
    const n = Math.min(chunk.length, size - done);
    const view = chunk.subarray(0, n);
    f.readFullyAt(done, view);
    for (let i = 0; i < n; i++) {
      if (view[i] === 10) newlines++;
      else if (view[i] === 0) zeros++;
    }
    done += n;
    post({ type: "scan", done, size, newlines, zeros });
    // Between steps, let a newer request (another file, a look) in.
    await new Promise((r) => setTimeout(r, 0));
  }
  f.close();
}

self.onmessage = async ({ data }: MessageEvent<Request>) => {
  try {
    if (data.type === "open") {
      for (const f of Object.values(files)) f.close();
      delete files.big;
      delete files.little;
      current = data.file;
      const f = await fileIn("big");
      post({ type: "opened", name: data.file.name, size: f.length() });
      if (isClassFile(f)) {
        try {
          post({ type: "class", ...readClassFile(f) });
        } catch (error) {
          // The magic, but not a class file after all (truncated, or another format): say so where it would show.
          const header = `not a valid class file: ${(error as Error).name}: ${(error as Error).message}`;
          post({ type: "class", header, pool: [] });
        }
      }
      void scan(await RandomAccessFile.open(current, "r", { bufferSize: 0 }), ++scanning);
      return;
    }
    const f = await fileIn(data.order);
    const offset = Math.min(data.offset, Math.max(0, f.length() - 1));
    let value: string;
    try {
      value = typedAt(f, offset, data.kind);
    } catch (error) {
      value = `${(error as Error).name}: ${(error as Error).message}`;
    }
    post({ type: "looked", value, hex: hexAt(f, offset) });
  } catch (error) {
    post({ type: "error", message: `${(error as Error).name}: ${(error as Error).message}` });
  }
};
