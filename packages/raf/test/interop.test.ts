import { beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_BUFFER_SIZE, RandomAccessFile } from "../src/index";
import { verifyWithLog, writeRandom } from "./support/interop-log";
import { hasJava, runJava } from "./support/java";
import { tempDir } from "./support/temp";

const tmp = tempDir();
const CONFIGS = [
  { backend: "node", bufferSize: 0 },
  { backend: "node", bufferSize: DEFAULT_BUFFER_SIZE },
  { backend: "native", bufferSize: 0 },
  { backend: "native", bufferSize: DEFAULT_BUFFER_SIZE },
  { backend: "native", bufferSize: 5 },
] as const;

describe.skipIf(!hasJava)("interop with the real JDK (java.io.RandomAccessFile)", () => {
  const javaData = tmp("java.bin");
  const javaLog = tmp("java.log");

  beforeAll(() => {
    runJava("Interop", ["write", javaData, javaLog, "20261129", "3000"]);
  }, 180_000);

  test.each(CONFIGS)(
    "Java writes, rafkit reads back every value ($backend, bufferSize $bufferSize)",
    (options) => {
      const f = new RandomAccessFile(javaData, "r", options);
      expect(verifyWithLog(f, javaLog)).toBeGreaterThan(1000);
      f.close();
    },
  );

  test("rafkit writes (every config), Java reads back every value", () => {
    const pairs: string[] = [];
    CONFIGS.forEach((options, k) => {
      const data = tmp(`rafkit-${k}.bin`);
      const log = tmp(`rafkit-${k}.log`);
      const f = new RandomAccessFile(data, "rw", options);
      writeRandom(f, log, 77 + k, 2500);
      f.close();
      // rafkit reads its own output back too, in another config.
      const g = new RandomAccessFile(data, "r", CONFIGS[(k + 1) % CONFIGS.length]!);
      expect(verifyWithLog(g, log)).toBeGreaterThan(1000);
      g.close();
      pairs.push(data, log);
    });
    expect(runJava("Interop", ["verify", ...pairs]).trim()).toBe("OK");
  }, 180_000);
});
