import { spawn } from "node:child_process";
import { afterAll, beforeAll } from "vitest";

/**
 * For tests whose failure would be a thread blocked forever in a system call (no test timeout can
 * interrupt it): a separate process kills this test process if the file's tests have not finished
 * after `seconds`, so a hang fails the run instead of stalling it. Not an assertion about time.
 */
export function killIfHung(seconds: number): void {
  let dog: ReturnType<typeof spawn> | undefined;
  beforeAll(() => {
    dog = spawn(
      process.execPath,
      [
        "-e",
        "setTimeout(() => { console.error('hung: killing test process ' + process.argv[1]); try { process.kill(Number(process.argv[1]), 'SIGKILL'); } catch {} }, Number(process.argv[2]) * 1000)",
        String(process.pid),
        String(seconds),
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
  });
  afterAll(() => {
    dog?.kill();
  });
}
