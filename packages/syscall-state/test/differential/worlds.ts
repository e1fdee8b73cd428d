// The two sides of the differential test: each backend's twin files and fd table, and how one call runs
// on one of them and what it gives back.
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { Backend } from "../../src/backend";
import { errnoName } from "../../src/errno";
import { neg, removeTemp } from "../helpers";
import { BUFFER_SIZE, type Op, type Target } from "./ops";

/** Beyond any fd table: what a slot holds once closed. */
const DEAD_FD = 2 ** 31 - 1;

/** One backend's side: its own directory of twin files and its own fd table. */
export interface World {
  readonly backend: Backend;
  readonly place: Place;
  readonly dir: string;
  readonly entries: { fd: number; open: boolean }[];
  missing: number;
}

/** Slots past the table: descriptors no open ever returned. */
const NEVER_OPENED = [-1, 999_999, 3.5, Number.NaN, 2 ** 32 + 1];

/** What a call gave back: its value or -errno, or how it threw. */
export type Outcome = number | string;

/** Where the twin files live, with a directory and a FIFO to open too. */
interface Place {
  readonly root: string;
  readonly emptyDir: string;
  readonly fifo: string;
}

function place(root: string): Place {
  return { root, emptyDir: join(root, "empty-dir"), fifo: join(root, "fifo") };
}

// os.tmpdir() (ext4 here: files stop at 16 TiB, EFBIG beyond) and, where there is one, a tmpfs (files up
// to 8 EiB: sizes and positions past 2**53 become reachable).
/** The places the twin files go, by name: each a function that makes a fresh one. */
// Made inside the running test, so removed when it finishes (an afterAll registered there never runs).
const fresh = (parent: string) => (): Place => {
  const root = mkdtempSync(join(parent, "rafkit-ss-differential-"));
  onTestFinished(() => removeTemp(root));
  return place(root);
};
export const places: [string, () => Place][] = [["tmpdir", fresh(tmpdir())]];
if (existsSync("/dev/shm") && statSync("/dev/shm").isDirectory())
  places.push(["/dev/shm", fresh("/dev/shm")]);
/** Whether this platform can make the FIFO the test opens. */
export const canFifo = process.platform === "linux" || process.platform === "darwin";

function pathOf(world: World, target: Target): string {
  const { emptyDir, fifo } = world.place;
  switch (target) {
    case "file":
      return join(world.dir, "file");
    case "missing":
      return join(world.dir, `new-${world.missing}`);
    case "dir":
      return emptyDir;
    case "fifo":
      return fifo;
  }
}

/** A slot picks one of the fds opened so far (open or closed), or one never opened. */
export function fdOf(world: World, slot: number): { fd: number; open: boolean } {
  const index = slot % (world.entries.length + 1);
  return world.entries[index] ?? { fd: NEVER_OPENED[slot % NEVER_OPENED.length]!, open: false };
}

/** An outcome with the errno name of a -errno. */
export const describeOutcome = (r: Outcome): string =>
  typeof r === "number" && r < 0 ? `${r} (${errnoName(r)})` : String(r);

/** Runs `op` on one world; returns what came back, as a comparable value, and the buffer after it. */
export async function apply(world: World, op: Op): Promise<[Outcome, string]> {
  const b = world.backend;
  const buffer = new Uint8Array(BUFFER_SIZE).fill(0xaa);
  const attempt = async (call: () => number | Promise<number>): Promise<Outcome> => {
    try {
      return await call();
    } catch (error) {
      const e = error as { name?: string; code?: string };
      return `threw ${e.name}/${e.code}`;
    }
  };
  let result: Outcome;
  if (op.kind === "open") {
    const mode = op.target === "fifo" && op.mode === "r" ? "rw" : op.mode; // O_RDONLY would block
    const path = pathOf(world, op.target);
    if (op.target === "missing") world.missing++;
    const fd = op.async ? await b.openAsync(path, mode) : b.open(path, mode);
    if (fd >= 0) {
      world.entries.push({ fd, open: true });
      return ["fd", ""];
    }
    return [fd, ""];
  }
  const entry = fdOf(world, op.slot);
  const fd = entry.fd;
  switch (op.kind) {
    case "close":
      result = await attempt(() => (op.async ? b.closeAsync(fd) : b.close(fd)));
      // The number is free for anyone in this process now (vitest, a module load): later calls on the
      // slot get one no open can return, which the kernel answers as it does a just-closed fd.
      entry.open = false;
      entry.fd = DEAD_FD;
      break;
    case "pread":
    case "preadFully":
    case "pwrite":
    case "pwriteFully": {
      if (op.kind.startsWith("pwrite"))
        for (let i = 0; i < BUFFER_SIZE; i++) buffer[i] = (op.fill + i) & 0xff;
      const method = (op.async ? `${op.kind}Async` : op.kind) as "pread";
      result = await attempt(() => b[method](fd, buffer, op.offset, op.length, op.position));
      break;
    }
    case "size":
    case "sync":
    case "datasync": {
      const method = (op.async ? `${op.kind}Async` : op.kind) as "size";
      result = await attempt(() => b[method](fd));
      break;
    }
    case "truncate":
      result = await attempt(() =>
        op.async ? b.truncateAsync(fd, op.length) : b.truncate(fd, op.length),
      );
      break;
    case "fadvise":
      result = await attempt(() => b.fadvise(fd, op.position, op.length, op.advice));
      break;
    case "allocate":
      result = await attempt(() => b.allocate(fd, op.position, op.length));
      break;
    case "lock": {
      const request = { shared: op.shared, wait: false, position: op.position, length: op.length };
      result = await attempt(() => (op.async ? b.lockAsync(fd, request) : b.lock(fd, request)));
      break;
    }
    case "unlock":
      result = await attempt(() => b.unlock(fd, op.position, op.length));
      break;
  }
  return [result, Buffer.from(buffer).toString("hex")];
}

/**
 * What the node backend must answer, given the native one's answer: the same, but where the contract
 * says node has no locks and no `allocate`. Those still look the fd up first (`-EBADF` for one that is
 * not open), as the kernel does; the checks after that (a read-only fd, a FIFO, a zero length, a lock
 * conflict) are the missing call's own, which node never reaches: `-ENOTSUP`.
 */
export function expectedNode(op: Op, native: Outcome, open: boolean): Outcome {
  if (typeof native !== "number") return native;
  if (op.kind === "lock" || op.kind === "unlock" || op.kind === "allocate") {
    if (!open && native === neg("EBADF")) return native;
    return neg("ENOTSUP");
  }
  return native;
}

/** Size, then the bytes: whole for small files, the first and last 64 KiB of a sparse giant. */
export function contents(path: string): string {
  if (!existsSync(path)) return "absent";
  const size = Number(statSync(path, { bigint: true }).size);
  const fd = openSync(path, "r");
  try {
    const chunk = Buffer.alloc(Math.min(size, 1 << 16));
    const head = readSync(fd, chunk, 0, chunk.length, 0);
    let text = `${size}:${chunk.subarray(0, head).toString("hex")}`;
    if (size > chunk.length) {
      // A tmpfs file can end past 2**53, where only a bigint position is exact.
      const at = BigInt(statSync(path, { bigint: true }).size) - BigInt(chunk.length);
      const tail = readSync(fd, chunk, 0, chunk.length, at);
      text += `...${chunk.subarray(0, tail).toString("hex")}`;
    }
    return text;
  } finally {
    closeSync(fd);
  }
}

/** A fresh world in `dir`: the twin file (bytes 0..99) and an empty fd table. */
export function world(backend: Backend, where: Place, dir: string): World {
  mkdirSync(dir);
  writeFileSync(join(dir, "file"), Buffer.from(Array.from({ length: 100 }, (_, i) => i)));
  return { backend, place: where, dir, entries: [], missing: 0 };
}
