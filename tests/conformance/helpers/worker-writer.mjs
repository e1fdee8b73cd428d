// A worker_threads worker writing its own range of a shared file with both classes, then reporting its backend.
import { parentPort, workerData } from "node:worker_threads";
import { AsyncRandomAccessFile, RandomAccessFile } from "@rafkit/raf";

const { path, index, backend } = workerData;
const f = await AsyncRandomAccessFile.open(path, "rw", { backend, bufferSize: 100 });
for (let k = 0; k < 128; k++) await f.writeIntAt(index * 1024 + k * 4, index * 1000 + k);
await f.close();
const s = new RandomAccessFile(path, "rw", { backend, bufferSize: 100 });
for (let k = 128; k < 256; k++) s.writeIntAt(index * 1024 + k * 4, index * 1000 + k);
s.close();
parentPort.postMessage(f.backendName);
