// A worker that holds or asks for a lock on a file when the page tells it to (the contended-lock cases):
// through the async class's lock/tryLock, or the sync class's lockAsync/tryLockAsync.
import {
  type AsyncFileLock,
  AsyncRandomAccessFile,
  type FileLock,
  LockUnsupportedError,
  RandomAccessFile,
  SyncLockUnsupportedError,
} from "@rafkit/raf";

type Message = { op: string; path?: string; kind?: "async" | "sync"; shared?: boolean };

let sync: RandomAccessFile | undefined;
let async: AsyncRandomAccessFile | undefined;
let lock: FileLock | AsyncFileLock | null = null;
/** What the last lock call resolved to: granted, or null (refused). */
let granted = false;

async function take(op: "lock" | "tryLock", shared: boolean): Promise<void> {
  const options = { shared };
  const got = sync
    ? await (op === "lock" ? sync.lockAsync(options) : sync.tryLockAsync(options))
    : await (op === "lock" ? async!.lock(options) : async!.tryLock(options));
  granted = got !== null;
  if (got !== null) lock = got;
}

/** The sync class's lock()/tryLock() must throw the typed error that names the async twins. */
function syncLockRefused(): string {
  const refusals: string[] = [];
  for (const call of [() => sync!.lock(), () => sync!.tryLock()]) {
    try {
      call();
      refusals.push("no error");
    } catch (error) {
      const ok =
        error instanceof SyncLockUnsupportedError &&
        error instanceof LockUnsupportedError &&
        /await file\.(lockAsync|tryLockAsync)\(options\)/.test(error.message);
      refusals.push(ok ? "ok" : String(error));
    }
  }
  return refusals.join(", ");
}

self.onmessage = async ({ data }: MessageEvent<Message>) => {
  try {
    let said: string | undefined;
    switch (data.op) {
      case "open":
        if (data.kind === "sync") sync = await RandomAccessFile.open(data.path!, "rw");
        else async = await AsyncRandomAccessFile.open(data.path!, "rw");
        break;
      case "lock":
      case "tryLock":
        await take(data.op, data.shared === true);
        break;
      case "syncLock":
        said = syncLockRefused();
        break;
      case "write":
        // Appends one int: the other holder's flushed writes count in length().
        if (sync) {
          sync.seek(sync.length());
          sync.writeInt(sync.length() / 4);
        } else {
          const n = await async!.length();
          await async!.writeIntAt(n, n / 4);
        }
        break;
      case "bump":
        // Lock, read, change, write, release: the int at 0 must be the last holder's, not this window's.
        await take("lock", false);
        if (sync) {
          const n = sync.length() < 4 ? 0 : sync.readIntAt(0);
          sync.writeIntAt(0, n + 1);
        } else {
          const n = (await async!.length()) < 4 ? 0 : await async!.readIntAt(0);
          await async!.writeIntAt(0, n + 1);
        }
        await lock?.release();
        break;
      case "release":
        await lock?.release();
        break;
      case "close":
        if (sync) sync.close();
        else await async!.close();
        break;
    }
    // The sync class's release()/close() are synchronous; navigator.locks lets the lock go once this task yields.
    if (sync && (data.op === "release" || data.op === "close"))
      await new Promise((r) => setTimeout(r));
    const file = sync ?? async;
    const value = data.op === "bump" ? await file!.readIntAt(0) : undefined;
    self.postMessage({
      value,
      ok: true,
      granted,
      held: lock?.isValid() === true,
      shared: lock?.shared,
      said,
      length: file === undefined || file.closed ? -1 : await file.length(),
    });
  } catch (error) {
    self.postMessage({ ok: false, error: `${(error as Error).name}: ${(error as Error).message}` });
  }
};
