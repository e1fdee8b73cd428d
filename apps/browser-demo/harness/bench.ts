// Main-thread OPFS I/O two ways, for the choice of AsyncRandomAccessFile's mechanism there: the worker that
// owns a sync access handle (syscall-state's opfs-worker backend, as raf uses it) against
// createWritable()/getFile() on the page. Run by scripts/bench-main-thread.mjs; numbers go to BENCHMARKS.md.
import { opfsBackend } from "@rafkit/syscall-state";

const SIZE = 4 << 20;
const OPS = Number(new URLSearchParams(location.search).get("ops") ?? "300");

function positions(seed: number, span: number): number[] {
  let a = seed;
  return Array.from({ length: OPS }, () => {
    a = (a * 1103515245 + 12345) >>> 0;
    return a % span;
  });
}

async function time(body: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

async function viaWorker(): Promise<Record<string, number>> {
  const b = opfsBackend();
  const fd = await b.openAsync("bench/worker.bin", "rw");
  await b.pwriteFullyAsync(fd, new Uint8Array(SIZE), 0, SIZE, 0);
  const page = new Uint8Array(4096);
  const small = Uint8Array.of(1, 2, 3, 4);
  const read4k = await time(async () => {
    for (const p of positions(1, SIZE - 4096)) await b.preadFullyAsync(fd, page, 0, 4096, p);
  });
  const write4 = await time(async () => {
    for (const p of positions(2, SIZE - 4)) await b.pwriteFullyAsync(fd, small, 0, 4, p);
    await b.syncAsync(fd);
  });
  await b.closeAsync(fd);
  return { read4k, write4 };
}

async function viaWritable(): Promise<Record<string, number>> {
  const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("bench", {
    create: true,
  });
  const file = await dir.getFileHandle("writable.bin", { create: true });
  const init = await file.createWritable();
  await init.write(new Uint8Array(SIZE));
  await init.close();
  const read4k = await time(async () => {
    for (const p of positions(1, SIZE - 4096))
      await (await file.getFile()).slice(p, p + 4096).arrayBuffer();
  });
  const write4 = await time(async () => {
    for (const p of positions(2, SIZE - 4)) {
      const w = await file.createWritable({ keepExistingData: true });
      await w.write({ type: "write", position: p, data: Uint8Array.of(1, 2, 3, 4) });
      await w.close();
    }
  });
  return { read4k, write4 };
}

Object.assign(window, {
  bench: (async () => ({
    ops: OPS,
    size: SIZE,
    worker: await viaWorker(),
    writable: await viaWritable(),
  }))(),
});
