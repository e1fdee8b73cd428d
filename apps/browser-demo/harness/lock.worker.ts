// A worker that holds or asks for a Web Lock on a file when the page tells it to (the contended-lock case).
import { RandomAccessFile, type WebFileLock } from "@rafkit/raf";

let file: RandomAccessFile | undefined;
let lock: WebFileLock | null = null;

self.onmessage = async ({
  data,
}: MessageEvent<{ op: string; path?: string; shared?: boolean }>) => {
  try {
    switch (data.op) {
      case "open":
        file = await RandomAccessFile.open(data.path!, "rw");
        break;
      case "lock":
        lock = await file!.webLock({ shared: data.shared === true });
        break;
      case "tryLock":
        lock = await file!.tryWebLock({ shared: data.shared === true });
        break;
      case "write":
        // Appends: the other holder's flushed writes count in length().
        file!.seek(file!.length());
        file!.writeInt(file!.length() / 4);
        break;
      case "release":
        await lock?.release();
        break;
      case "close":
        file!.close();
        break;
    }
    self.postMessage({
      ok: true,
      held: lock?.isValid() === true,
      length: file?.closed ? -1 : file?.length(),
    });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error) });
  }
};
