// Run as a program: workers that end, by process.exit() or terminate(), while AsyncRandomAccessFile writes of theirs
// are still running; prints "alive" when the process outlived them all (Bun 1.4 crashed it, koffi calls in flight).
import * as fs from "node:fs";
import * as path from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { AsyncRandomAccessFile } from "@rafkit/raf";

if (isMainThread) {
  const [dir, backend] = process.argv.slice(2);
  fs.mkdirSync(dir, { recursive: true });
  for (const end of ["exit", "terminate"]) {
    for (let round = 0; round < 8; round++) {
      const file = path.join(dir, `${end}-${round}.bin`);
      const w = new Worker(new URL(import.meta.url), { workerData: { file, backend, end } });
      if (end === "terminate") w.once("message", () => w.terminate());
      await new Promise((resolve) => w.once("exit", resolve));
    }
  }
  console.log("alive");
} else {
  const { file, backend, end } = workerData;
  const f = await AsyncRandomAccessFile.open(file, "rw", { backend });
  for (let i = 0; i < 50; i++) void f.writeAt(i * 65536, new Uint8Array(65536));
  if (end === "exit") setTimeout(() => process.exit(0), 1);
  else parentPort.postMessage("writing");
}
