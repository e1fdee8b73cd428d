// The calls the differential test makes at random, as fast-check arbitraries.
import fc from "fast-check";
import { ADVICE } from "../../src/advice";
import type { Advice, FileMode } from "../../src/backend";

const MAX = Number.MAX_SAFE_INTEGER;
/** The size of the buffer every read and write goes through. */
export const BUFFER_SIZE = 64;

/** What an open names: the twin file, a missing one, a directory or a FIFO. */
export type Target = "file" | "missing" | "dir" | "fifo";
/** One backend call, with the fd table slot it acts on. */
export type Op =
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
  ...(ADVICE as ReadonlySet<Advice>),
  "bogus" as Advice,
  "toString" as Advice,
);

/** Any one call. */
export const op: fc.Arbitrary<Op> = fc.oneof(
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
export const firstOpen = fc.record({
  kind: fc.constant("open" as const),
  target: fc.constant<Target>("file"),
  mode: fc.constantFrom<FileMode>("r", "rw", "rws", "rwd"),
  async,
});
