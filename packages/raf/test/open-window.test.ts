import { writeFileSync } from "node:fs";
import { getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { expect, test } from "vitest";
import { RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();
test('opened "r" with a window over 8 KiB, open reads its first 8 KiB and the first read past them the rest', () => {
  const p = tmp("wide-window.bin");
  const bytes = new Uint8Array(20_000);
  const view = new DataView(bytes.buffer);
  for (let k = 0; k < 5000; k++) view.setInt32(k * 4, k);
  writeFileSync(p, bytes);
  const backend = faultBackend(getBackend());
  const f = new RandomAccessFile(p, "r", { bufferSize: 1 << 16, backend });
  expect(backend.calls.pread).toBe(1);
  let sum = 0;
  for (let k = 0; k < 2048; k++) sum += f.readInt();
  expect(backend.calls.pread).toBe(1); // 8 KiB from open
  for (let k = 2048; k < 5000; k++) sum += f.readInt();
  expect(sum).toBe((4999 * 5000) / 2);
  expect(backend.calls.pread).toBe(2); // the window extended once, to the end of the file
  f.close();
});
