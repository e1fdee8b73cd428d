// The dedicated worker of the Chromium run: the conformance cases over OPFS with the sync class, and the
// JDK interop files (through raf's own interop log code, test/support/interop-log.ts, as on Node).
import { DEFAULT_BUFFER_SIZE, RandomAccessFile } from "@rafkit/raf";
import { verifyWithLog, writeRandom } from "../../../packages/raf/test/support/interop-log";
import { type CaseResult, eq, runCases } from "./check";
import { opfsCases } from "./opfs-cases";
import { logs } from "./shims/node-fs";
import { fileBytes, syncCases } from "./sync-cases";

/** The Node interop test's configurations that exist here (no native backend): unbuffered, default, tiny. */
const CONFIGS = [{ bufferSize: 0 }, { bufferSize: DEFAULT_BUFFER_SIZE }, { bufferSize: 5 }];

interface Job {
  readonly javaData: ArrayBuffer;
  readonly javaLog: string;
}

async function interop(
  job: Job,
): Promise<{ results: CaseResult[]; files: Record<string, ArrayBuffer> }> {
  const files: Record<string, ArrayBuffer> = {};
  const cases: Record<string, () => unknown> = {};
  logs.set("java.log", job.javaLog);
  const w = await RandomAccessFile.open("interop/java.bin", "rw");
  w.setLength(0);
  w.write(new Uint8Array(job.javaData));
  w.close();
  for (const options of CONFIGS) {
    cases[`Java writes, rafkit reads back every value (bufferSize ${options.bufferSize})`] =
      async () => {
        const f = await RandomAccessFile.open("interop/java.bin", "r", options);
        if (verifyWithLog(f as never, "java.log") < 1000)
          throw new Error("too few entries checked");
        f.close();
      };
  }
  CONFIGS.forEach((options, k) => {
    cases[`rafkit writes for Java (bufferSize ${options.bufferSize})`] = async () => {
      const path = `interop/rafkit-${k}.bin`;
      const f = await RandomAccessFile.open(path, "rw", options);
      f.setLength(0);
      writeRandom(f as never, `rafkit-${k}.log`, 77 + k, 2500);
      f.close();
      const g = await RandomAccessFile.open(path, "r", CONFIGS[(k + 1) % CONFIGS.length]);
      eq(verifyWithLog(g as never, `rafkit-${k}.log`) > 1000, true, "entries read back");
      g.close();
      files[`rafkit-${k}.bin`] = Uint8Array.from(await fileBytes(path)).buffer;
      files[`rafkit-${k}.log`] = new TextEncoder().encode(logs.get(`rafkit-${k}.log`)).buffer;
    };
  });
  return { results: await runCases("worker interop: ", cases), files };
}

self.onmessage = async ({ data }: MessageEvent<Job>) => {
  const results: CaseResult[] = [];
  for (const options of [{ bufferSize: 0 }, { bufferSize: 3 }, {}]) {
    results.push(
      ...(await runCases(`worker sync ${JSON.stringify(options)}: `, syncCases(options))),
    );
  }
  results.push(...(await runCases("worker opfs: ", opfsCases)));
  const { results: more, files } = await interop(data);
  results.push(...more);
  self.postMessage({ results, files });
};
