import type { FileMode } from "../backend";
import type { Primitives } from "../primitives";
import { AsyncOpenRequiredError, unsupportedCalls } from "./primitives";
import { type OpfsRequest, opfsWorkerSource } from "./worker-host";

type Answer = { id: number; result: number; bytes?: Uint8Array };

/** A dedicated `Worker`, as far as used here (the package's types have no DOM library). */
interface PageWorker {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  onmessage: ((event: { data: Answer }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessageerror: ((event: unknown) => void) | null;
}
type WorkerConstructor = new (url: string, options: { name: string }) => PageWorker;

/**
 * {@link Primitives} for a page's main thread, where no sync access handle exists: a dedicated worker
 * owns the handles and each async call is one message to it and one back. Chosen over
 * `createWritable()`/`getFile()` by measurement (BENCHMARKS.md): a `createWritable` write commits by copying
 * the whole file, and two pages could not share it. The sync calls cannot wait for the worker: they
 * answer `-ENOSYS`, but `close` (sent, not awaited, e.g. on garbage collection). @internal
 */
export function opfsWorkerPrimitives(errno: Readonly<Record<string, number>>): Primitives {
  let worker: PageWorker | undefined;
  let nextId = 1;
  const pending = new Map<number, (answer: Answer) => void>();
  const open = new Set<number>();
  /** Every waiting call answers `result`: the worker failed, and will not. */
  const failPending = (result: number) => {
    const waiting = [...pending.entries()];
    pending.clear();
    for (const [id, done] of waiting) done({ id, result });
  };
  /** The worker, started on first use; undefined where none can be (no `Worker`: a shared or service worker). */
  const start = (): PageWorker | undefined => {
    if (worker !== undefined) return worker;
    const WorkerClass = (globalThis as unknown as { Worker?: WorkerConstructor }).Worker;
    if (typeof WorkerClass !== "function") return undefined;
    const url = URL.createObjectURL(
      new Blob([opfsWorkerSource(errno)], { type: "text/javascript" }),
    );
    const started = new WorkerClass(url, { name: "rafkit-opfs" });
    worker = started;
    URL.revokeObjectURL(url);
    let answered = false;
    started.onmessage = ({ data }) => {
      answered = true;
      const done = pending.get(data.id);
      pending.delete(data.id);
      done?.(data);
    };
    // A worker that cannot start (a Content-Security-Policy without blob: workers) or that fails while a call
    // waits: the waiting calls fail with EIO rather than wait forever. One that never answered is dropped, so
    // the next call starts another.
    const failed = () => {
      if (!answered && worker === started) worker = undefined;
      failPending(-errno["EIO"]!);
    };
    started.onerror = failed;
    started.onmessageerror = failed;
    return worker;
  };
  const ask = (request: Omit<OpfsRequest, "id">, transfer: ArrayBuffer[] = []): Promise<Answer> =>
    new Promise((resolve) => {
      const id = nextId++;
      const to = start();
      // OPFS from a shared or service worker: no dedicated worker to own the handles.
      if (to === undefined) {
        resolve({ id, result: -errno["ENOSYS"]! });
        return;
      }
      pending.set(id, resolve);
      to.postMessage({ ...request, id }, transfer);
    });
  const result = async (request: Omit<OpfsRequest, "id">) => (await ask(request)).result;
  const enosys = -errno["ENOSYS"]!;
  const rest = unsupportedCalls(errno, (fd) => open.has(fd));
  return {
    name: "opfs-worker",
    open(path: string) {
      throw new AsyncOpenRequiredError("opfs-worker", path);
    },
    close(fd) {
      if (!open.delete(fd)) return -errno["EBADF"]!;
      start()?.postMessage({ id: 0, op: "close", fd });
      return 0;
    },
    pread: () => enosys,
    pwrite: () => enosys,
    size: () => enosys,
    truncate: () => enosys,
    sync: () => enosys,
    datasync: () => enosys,
    lock: rest.lock,
    unlock: rest.unlock,
    fadvise: rest.fadvise,
    allocate: rest.allocate,
    async openAsync(path: string, mode: FileMode) {
      const fd = await result({ op: "open", fd: -1, path, mode });
      if (fd >= 0) open.add(fd);
      return fd;
    },
    async closeAsync(fd) {
      open.delete(fd);
      return result({ op: "close", fd });
    },
    async preadAsync(fd, buffer, offset, length, position) {
      const answer = await ask({ op: "read", fd, length, position });
      if (answer.result > 0) buffer.set(answer.bytes!.subarray(0, answer.result), offset);
      return answer.result;
    },
    pwriteAsync(fd, buffer, offset, length, position) {
      // A copy travels (transferred, not cloned again): the caller keeps its buffer.
      const bytes = buffer.slice(offset, offset + length);
      return ask({ op: "write", fd, bytes, position }, [bytes.buffer]).then((a) => a.result);
    },
    sizeAsync: (fd) => result({ op: "size", fd }),
    truncateAsync: (fd, length) => result({ op: "truncate", fd, length }),
    syncAsync: (fd) => result({ op: "flush", fd }),
    datasyncAsync: (fd) => result({ op: "flush", fd }),
    lockAsync: rest.lockAsync,
  };
}
