// A worker holding an exclusive lock on the whole file until the main thread says "release".
import { parentPort, workerData } from "node:worker_threads";
import { RandomAccessFile } from "@rafkit/raf";

const f = new RandomAccessFile(workerData.path, "rw", { backend: "native" });
const lock = f.lock();
parentPort.postMessage("locked");
parentPort.once("message", () => {
  f.writeIntAt(0, 4242);
  lock.release();
  f.close();
  parentPort.postMessage("released");
});
