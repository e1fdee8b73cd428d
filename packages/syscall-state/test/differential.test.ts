import { execFileSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import type { Advice, Backend, FileMode } from "../src/backend";
import { errnoName } from "../src/errno";
import { isNativeAvailable, nativeBackend } from "../src/native-backend";
import { nodeBackend } from "../src/node-backend";
import { neg, tempDir } from "./helpers";

// Random sequences of calls, run against both backends on twin files: every result (value, -errno or
// thrown code) and every resulting byte must agree, but for the differences the contract names (node has
// no locks and no allocate). Reproduce a failure with the seed fast-check prints:
//   RAFKIT_DIFF_SEED=<seed> RAFKIT_DIFF_RUNS=<n> pnpm vitest run test/differential.test.ts
const SEED = Number(process.env["RAFKIT_DIFF_SEED"] ?? 20261130);
const RUNS = Number(process.env["RAFKIT_DIFF_RUNS"] ?? 300);
const MAX = Number.MAX_SAFE_INTEGER;
const BUFFER_SIZE = 64;
/** Beyond any fd table: what a slot holds once closed. */
const DEAD_FD = 2 ** 31 - 1;

type Target = "file" | "missing" | "dir" | "fifo";
type Op =
  | { kind: "open"; target: Target; mode: FileMode; async: boolean }
  | { kind: "close"; slot: number; async: boolean }
  | {
      kind: "pread" | "preadFully" | "pwrite" | "pwriteFully";
      slot: number;
      offset: number;
      length: number;
      position: number;
      async: boolean;
      fill: number;
    }
  | { kind: "size" | "sync" | "datasync"; slot: number; async: boolean }
  | { kind: "truncate"; slot: number; length: number; async: boolean }
  | { kind: "fadvise"; slot: number; position: number; length: number; advice: Advice }
  | { kind: "allocate"; slot: number; position: number; length: number }
  | {
      kind: "lock";
      slot: number;
      shared: boolean;
      position: number;
      length: number;
      async: boolean;
    }
  | { kind: "unlock"; slot: number; position: number; length: number };

const slot = fc.nat(11);
const async = fc.boolean();
const position = fc.oneof(
  { weight: 10, arbitrary: fc.nat(300) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      4095,
      4096,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 32,
      2 ** 32 + 1,
      2 ** 40,
      2 ** 44 - 4096,
      2 ** 44,
      MAX - 1,
      MAX,
    ),
  },
  { weight: 4, arbitrary: fc.constantFrom(MAX - 40, MAX - 5, MAX - 1, MAX) },
  { weight: 1, arbitrary: fc.constantFrom(-1, -4096, 0.5, 7.25, Number.NaN, 2 ** 53, 2 ** 60) },
);
/** Where in the buffer: mostly a range that fits (zero-length often), sometimes one that cannot. */
const span = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.nat(BUFFER_SIZE).chain((offset) =>
      fc.record({
        offset: fc.constant(offset),
        length: fc.oneof(fc.constant(0), fc.nat(BUFFER_SIZE - offset)),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      offset: fc.constantFrom(-1, 1.5, 0, BUFFER_SIZE + 1),
      length: fc.constantFrom(-1, 0.5, BUFFER_SIZE + 1, 2 ** 32, 1),
    }),
  },
);
const small = fc.oneof(
  { weight: 8, arbitrary: fc.nat(1 << 16) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 2.5) },
);
const truncateLength = fc.oneof(
  { weight: 6, arbitrary: fc.nat(300) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 32 + 1, 2 ** 40, 2 ** 44, MAX, -1, 1.5) },
);
const advice = fc.constantFrom<Advice>(
  "normal",
  "sequential",
  "random",
  "willneed",
  "dontneed",
  "noreuse",
  "bogus" as Advice,
);

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("open" as const),
      target: fc.constantFrom<Target>("file", "file", "missing", "dir", "fifo"),
      mode: fc.constantFrom<FileMode>("r", "rw", "rws", "rwd"),
      async,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("close" as const), slot, async }) },
  {
    weight: 10,
    arbitrary: fc
      .record({
        kind: fc.constantFrom(
          "pread" as const,
          "preadFully" as const,
          "pwrite" as const,
          "pwriteFully" as const,
        ),
        slot,
        span,
        position,
        async,
        fill: fc.nat(255),
      })
      .map(({ span: { offset, length }, ...rest }) => ({ ...rest, offset, length })),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom("size" as const, "sync" as const, "datasync" as const),
      slot,
      async,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("truncate" as const),
      slot,
      length: truncateLength,
      async,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("fadvise" as const),
      slot,
      position,
      length: small,
      advice,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("allocate" as const),
      slot,
      position: small,
      length: small,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("lock" as const),
      slot,
      shared: fc.boolean(),
      position: small,
      length: small,
      async,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("unlock" as const),
      slot,
      position: small,
      length: small,
    }),
  },
);

/** Every run starts with the file open, so the calls after it have something to act on. */
const firstOpen = fc.record({
  kind: fc.constant("open" as const),
  target: fc.constant<Target>("file"),
  mode: fc.constantFrom<FileMode>("r", "rw", "rws", "rwd"),
  async,
});

/** One backend's side: its own directory of twin files and its own fd table. */
interface World {
  readonly backend: Backend;
  readonly place: Place;
  readonly dir: string;
  readonly entries: { fd: number; open: boolean }[];
  missing: number;
}

/** Slots past the table: descriptors no open ever returned. */
const NEVER_OPENED = [-1, 999_999, 3.5, Number.NaN, 2 ** 32 + 1];

type Outcome = number | string;

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
const places: [string, () => Place][] = [["tmpdir", () => place(tempDir("differential"))]];
if (existsSync("/dev/shm") && statSync("/dev/shm").isDirectory()) {
  places.push([
    "/dev/shm",
    () => {
      const root = mkdtempSync(join("/dev/shm", "rafkit-ss-differential-"));
      afterAll(() => rmSync(root, { recursive: true, force: true }));
      return place(root);
    },
  ]);
}
const canFifo = process.platform === "linux" || process.platform === "darwin";

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
function fdOf(world: World, slot: number): { fd: number; open: boolean } {
  const index = slot % (world.entries.length + 1);
  return world.entries[index] ?? { fd: NEVER_OPENED[slot % NEVER_OPENED.length]!, open: false };
}

const describeOutcome = (r: Outcome): string =>
  typeof r === "number" && r < 0 ? `${r} (${errnoName(r)})` : String(r);

/** Runs `op` on one world; returns what came back, as a comparable value, and the buffer after it. */
async function apply(world: World, op: Op): Promise<[Outcome, string]> {
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
function expectedNode(op: Op, native: Outcome, open: boolean): Outcome {
  if (typeof native !== "number") return native;
  if (op.kind === "lock" || op.kind === "unlock" || op.kind === "allocate") {
    if (!open && native === neg("EBADF")) return native;
    return neg("ENOTSUP");
  }
  return native;
}

/** Size, then the bytes: whole for small files, the first and last 64 KiB of a sparse giant. */
function contents(path: string): string {
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

let run = 0;

function world(backend: Backend, where: Place, dir: string): World {
  mkdirSync(dir);
  writeFileSync(join(dir, "file"), Buffer.from(Array.from({ length: 100 }, (_, i) => i)));
  return { backend, place: where, dir, entries: [], missing: 0 };
}

if (!isNativeAvailable() || !canFifo) {
  console.warn("native backend or mkfifo unavailable here: the differential test is skipped");
}

describe.skipIf(!isNativeAvailable() || !canFifo).each(places)(
  "differential on %s: native vs node",
  (_, make) => {
    test("random call sequences on twin files give the same results and bytes", async () => {
      const where = make();
      const { root } = where;
      mkdirSync(where.emptyDir);
      execFileSync("mkfifo", [where.fifo]);
      await fc.assert(
        fc.asyncProperty(
          firstOpen,
          fc.array(op, { maxLength: 30, size: "medium" }),
          async (first, rest) => {
            const ops = [first, ...rest];
            const base = join(root, `run-${run++}`);
            mkdirSync(base);
            const native = world(nativeBackend(), where, join(base, "native"));
            const node = world(nodeBackend(), where, join(base, "node"));
            const both = [native, node];
            const trace: string[] = [];
            try {
              for (const op of ops) {
                const open = op.kind !== "open" && fdOf(native, op.slot).open;
                const [n, nBuffer] = await apply(native, op);
                const [j, jBuffer] = await apply(node, op);
                trace.push(
                  `${JSON.stringify(op)} -> native ${describeOutcome(n)}, node ${describeOutcome(j)}`,
                );
                const expected = expectedNode(op, n, open);
                // The contract besides agreement: every result is a safe integer (no bigint, no rounding).
                const unsafe = [n, j].some(
                  (r) => typeof r === "number" && !Number.isSafeInteger(r),
                );
                if (
                  unsafe ||
                  j !== expected ||
                  (op.kind.startsWith("pread") && nBuffer !== jBuffer)
                ) {
                  throw new Error(`backends differ:\n${trace.join("\n")}`);
                }
                if (op.kind === "allocate" && n === 0) {
                  // fallocate(mode 0) grows the file to the range's end; node's twin gets that by hand.
                  const fd = fdOf(node, op.slot).fd;
                  const end = op.position + op.length;
                  if (fstatSync(fd).size < end) ftruncateSync(fd, end);
                }
              }
              for (const name of readdirSync(native.dir)) {
                const mine = contents(join(native.dir, name));
                const theirs = contents(join(node.dir, name));
                if (mine !== theirs)
                  throw new Error(`'${name}' differs after:\n${trace.join("\n")}`);
              }
              expect(readdirSync(node.dir).sort()).toEqual(readdirSync(native.dir).sort());
            } finally {
              for (const w of both) for (const e of w.entries) if (e.open) w.backend.close(e.fd);
              rmSync(base, { recursive: true, force: true });
            }
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: false },
      );
    }, 120_000);
  },
);
