import { readFileSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { type AnySuite, type ParamValues, runBenchmarks } from "@rafkit/bench";
import { describe, expect, it } from "vitest";
import { benchmarkEntry, benchmarkFn, recorder, suitesOf } from "./helpers";

const { RandomAccessFileBenchmark, RandomAccessFileReadBenchmark, RafBulk } = await suitesOf(
  "raf",
  ["RandomAccessFileBenchmark", "RandomAccessFileReadBenchmark", "RafBulk"],
);
const { RafAsync, RafAsyncBulk } = await suitesOf("raf-async", ["RafAsync", "RafAsyncBulk"]);
const { CaptureStateUtilBench, NodeErrno, BackendPread } = await suitesOf("syscall-state", [
  "CaptureStateUtilBench",
  "NodeErrno",
  "BackendPread",
]);

/** The `impl` values of a suite that run in Node (the others are JDKs, external forks). */
const nodeImpls = (suite: AnySuite) =>
  ((suite.params?.impl ?? []) as string[]).filter((impl) => !impl.startsWith("jdk"));

type AnyState = Record<string, unknown> & {
  path?: string;
  values: ArrayLike<number | bigint>;
};

/**
 * Runs one benchmark body once, as the harness would within one iteration (fresh state, trial and
 * iteration hooks around it), and returns what it consumed and returned plus the file's bytes after it.
 */
async function runOnce(suite: AnySuite, name: string, params: ParamValues) {
  const state = (await suite.state?.(params)) as AnyState;
  await suite.setup?.trial?.(state, params);
  await suite.setup?.iteration?.(state, params);
  const bh = recorder();
  const returned = await benchmarkFn(suite, name)(bh, state, params);
  const path = state?.path;
  const bytes = path ? new Uint8Array(readFileSync(path)) : undefined;
  const values = Array.from(state?.values ?? []);
  const memory = state?.bytes instanceof Uint8Array ? state.bytes.slice() : undefined;
  await suite.teardown?.iteration?.(state, params);
  await suite.teardown?.trial?.(state, params);
  return { consumed: bh.values, returned, bytes, values, memory };
}

/** The benchmarks of a suite that run in Node (not the JDK's external forks). */
const nodeBenchmarks = (suite: AnySuite) =>
  Object.keys(suite.benchmarks).filter((b) => benchmarkEntry(suite, b).external === undefined);

const WIDTH: Record<string, number> = { Short: 2, Int: 4, Long: 8 };

/** Decodes big-endian primitives with DataView, independently of the code under test. */
function decode(bytes: Uint8Array, primitive: string): (number | bigint)[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const width = WIDTH[primitive]!;
  return Array.from({ length: bytes.length / width }, (_, i) =>
    primitive === "Short"
      ? view.getInt16(i * width)
      : primitive === "Int"
        ? view.getInt32(i * width)
        : view.getBigInt64(i * width),
  );
}

describe("the @rafkit/raf suites compare like with like", () => {
  it("RandomAccessFileBenchmark and RandomAccessFileReadBenchmark have the JDK's methods and params", () => {
    expect(Object.keys(RandomAccessFileBenchmark.benchmarks).sort()).toEqual([
      "readInt",
      "readLong",
      "readShort",
      "writeInt",
      "writeLong",
      "writeShort",
    ]);
    expect(Object.keys(RandomAccessFileReadBenchmark.benchmarks).sort()).toEqual([
      "readInt",
      "readLong",
      "readShort",
    ]);
    expect(RandomAccessFileBenchmark.params?.kiloBytes).toEqual([1, 5]);
    expect(RandomAccessFileBenchmark.options?.unit).toBe("us");
    expect(nodeImpls(RandomAccessFileBenchmark)).toEqual([
      "rafkit",
      "rafkitUnbuffered",
      "rafkitUnbufferedNode",
      "nodeFs",
      "nativeFloor",
      "floor",
      "bufferedFloor",
      "pointerOnly",
    ]);
    expect(RandomAccessFileBenchmark.params?.impl).toContain("jdk17");
  });

  for (const op of ["readShort", "readInt", "readLong"]) {
    it(`RandomAccessFileBenchmark: every Node impl reads the file's values (${op})`, async () => {
      for (const impl of nodeImpls(RandomAccessFileBenchmark)) {
        const { consumed, bytes } = await runOnce(RandomAccessFileBenchmark, op, {
          impl,
          kiloBytes: 1,
        });
        expect(consumed, impl).toHaveLength(1024 / WIDTH[op.slice(4)]!);
        expect(consumed, impl).toEqual(decode(bytes!, op.slice(4)));
      }
    });

    it(`RandomAccessFileReadBenchmark: every Node impl opens, reads the whole file and closes (${op})`, async () => {
      for (const impl of nodeImpls(RandomAccessFileReadBenchmark)) {
        const { consumed, bytes } = await runOnce(RandomAccessFileReadBenchmark, op, {
          impl,
          kiloBytes: 5,
        });
        expect(consumed, impl).toHaveLength(5120 / WIDTH[op.slice(4)]!);
        expect(consumed, impl).toEqual(decode(bytes!, op.slice(4)));
      }
    });
  }

  for (const op of ["writeShort", "writeInt", "writeLong"]) {
    it(`RandomAccessFileBenchmark: every Node impl leaves the values on disk, big-endian (${op})`, async () => {
      for (const impl of nodeImpls(RandomAccessFileBenchmark)) {
        const { bytes, values } = await runOnce(RandomAccessFileBenchmark, op, {
          impl,
          kiloBytes: 1,
        });
        expect(values.length, impl).toBe(1024 / WIDTH[op.slice(5)]!);
        expect(decode(bytes!, op.slice(5)), impl).toEqual(values);
      }
    });
  }

  it("RandomAccessFileBenchmark: each iteration writes fresh random values, as the JDK's per-iteration arrays", async () => {
    const params = { impl: "rafkit", kiloBytes: 1 };
    const state = (await RandomAccessFileBenchmark.state!(params)) as unknown as AnyState;
    const written: (number | bigint)[][] = [];
    for (let iteration = 0; iteration < 2; iteration++) {
      await RandomAccessFileBenchmark.setup!.iteration!(state as never, params);
      try {
        await benchmarkFn(RandomAccessFileBenchmark, "writeInt")(
          recorder(),
          state as never,
          params,
        );
        const onDisk = decode(new Uint8Array(readFileSync(state.path!)), "Int");
        expect(onDisk).toEqual(Array.from(state.values));
        written.push(onDisk);
      } finally {
        await RandomAccessFileBenchmark.teardown!.iteration!(state as never, params);
      }
    }
    expect(written[1]).not.toEqual(written[0]);
  });

  it("RafBulk: readInts and the floor decode the file's ints", async () => {
    const state = (await RafBulk.state!({})) as unknown as { ints: Int32Array; dir: string };
    const expected = Int32Array.from(
      decode(new Uint8Array(readFileSync(join(state.dir, "data.bin"))), "Int") as number[],
    );
    try {
      for (const name of nodeBenchmarks(RafBulk)) {
        state.ints.fill(0);
        const returned = benchmarkFn(RafBulk, name)(recorder(), state as never, {});
        expect(returned, name).toBe(expected.at(-1));
        // Compared as bytes: a diff of 262,144 ints would drown the report.
        expect(Buffer.from(state.ints.buffer).equals(Buffer.from(expected.buffer)), name).toBe(
          true,
        );
      }
    } finally {
      await RafBulk.teardown!.trial!(state as never, {});
    }
  });

  it("RafAsyncBulk: readInts decodes the file's ints", async () => {
    const state = (await RafAsyncBulk.state!({})) as unknown as { ints: Int32Array; path: string };
    try {
      const expected = Int32Array.from(
        decode(new Uint8Array(readFileSync(state.path)), "Int") as number[],
      );
      const returned = await benchmarkFn(RafAsyncBulk, "readInts")(recorder(), state as never, {});
      expect(returned).toBe(expected.at(-1));
      expect(Buffer.from(state.ints.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    } finally {
      await RafAsyncBulk.teardown!.trial!(state as never, {});
    }
  });

  it("RafAsync: every variant reads the same ints, and leaves the same ints on disk", async () => {
    for (const op of ["readInt", "writeInt"]) {
      for (const name of nodeBenchmarks(RafAsync)) {
        const { consumed, bytes, values, memory } = await runOnce(RafAsync, name, {
          op,
          kiloBytes: 1,
        });
        if (op === "readInt") {
          expect(consumed, name).toEqual(decode(bytes!, "Int"));
        } else {
          expect(consumed, name).toEqual([]);
          // awaitPerInt writes the ints into memory, then the range with one pwrite (as flush() does): both hold them.
          if (name === "awaitPerInt") expect(decode(memory!, "Int"), name).toEqual(values);
          expect(decode(bytes!, "Int"), name).toEqual(values);
        }
      }
    }
  });
});

describe("the @rafkit/syscall-state suites", () => {
  it("CaptureStateUtilBench: success and failure give the same answers on every path", async () => {
    const got: Record<string, unknown> = {};
    for (const name of Object.keys(CaptureStateUtilBench.benchmarks)) {
      got[name] = (await runOnce(CaptureStateUtilBench, name, { impl: "rafkit" })).returned;
    }
    got.throwCatch = (await runOnce(NodeErrno, "throwCatch", {})).returned;
    const EBADF = constants.errno.EBADF;
    // fcntl(fd, F_GETFD) returns the descriptor flags: FD_CLOEXEC (1), as Node opens files.
    expect(got.rawSuccess).toBe(1);
    expect(got.tlSuccess).toBe(1);
    expect(got.explicitSuccess).toBe(1);
    expect(got.rawFail).toBe(-1);
    expect(got.tlFail).toBe(-EBADF);
    expect(got.explicitFail).toBe(-EBADF);
    expect(got.throwCatch).toBe(-EBADF); // Node's errno is negative
    expect(Object.keys(CaptureStateUtilBench.benchmarks).slice(0, 4)).toEqual([
      "explicitFail",
      "explicitSuccess",
      "tlFail",
      "tlSuccess",
    ]);
  });

  it("BackendPread: both backends read 4 bytes", async () => {
    for (const name of ["native", "node"]) {
      expect((await runOnce(BackendPread, name, {})).returned).toBe(4);
    }
  });
});

describe("the I/O suites run in the harness", () => {
  it.each([
    ["CaptureStateUtilBench", CaptureStateUtilBench, { impl: ["rafkit"] }],
    ["NodeErrno", NodeErrno, {}],
    ["BackendPread", BackendPread, {}],
    [
      "RandomAccessFileBenchmark",
      RandomAccessFileBenchmark,
      { impl: ["rafkit", "floor"], kiloBytes: ["1"] },
    ],
    [
      "RandomAccessFileReadBenchmark",
      RandomAccessFileReadBenchmark,
      { impl: ["rafkit"], kiloBytes: ["1"] },
    ],
    ["RafBulk", RafBulk, {}],
    ["RafAsync", RafAsync, { op: ["writeInt"], kiloBytes: ["1"] }],
    ["RafAsyncBulk", RafAsyncBulk, {}],
  ] as [string, AnySuite, Record<string, string[]>][])("%s", async (_name, suite, params) => {
    const report = await runBenchmarks([suite], {
      params,
      overrides: {
        forks: 0,
        warmup: { iterations: 1, invocations: 1 },
        measurement: { iterations: 2, invocations: 2 },
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.skipped).toEqual([]);
    const combos = Object.values(params).reduce((n, v) => n * v.length, 1);
    expect(report.results).toHaveLength(Object.keys(suite.benchmarks).length * combos);
  });
});
