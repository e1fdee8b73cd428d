import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { makeBigEndian } from "../src/big-endian";
import { BIGINT_VIA_WORDS } from "../src/bigint-path";
import { makeLittleEndian } from "../src/little-endian";
import { viewCodec } from "../src/view-codec";
import { bigValues, thrown } from "./helpers";

// The 64-bit bigint accessors have two bodies, chosen once per engine (bigint-path.ts): the tests on this
// runtime see only one, so here both are held to DataView's values and to the same errors.
type Accessor = (target: unknown, off: number, v?: unknown) => unknown;
type Pair = { get: Accessor; set: Accessor; target: (b: Uint8Array) => unknown };

const TYPES = ["BigInt64", "BigUint64"] as const;
const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function paths(type: (typeof TYPES)[number], little: boolean): Record<string, Pair> {
  const out: Record<string, Pair> = {};
  for (const viaWords of [true, false]) {
    const codec = (little ? makeLittleEndian : makeBigEndian)(viaWords) as unknown as Record<
      string,
      Accessor
    >;
    const view = viewCodec(little ? "little" : "big", little, viaWords) as unknown as Record<
      string,
      Accessor
    >;
    const name = viaWords ? "words" : "dataView";
    out[`Codec/${name}`] = {
      get: codec[`get${type}`]!,
      set: codec[`set${type}`]!,
      target: (b) => b,
    };
    out[`ViewCodec/${name}`] = {
      get: view[`get${type}`]!,
      set: view[`set${type}`]!,
      target: viewOf,
    };
  }
  return out;
}

/** What a failed call threw, reduced to what a caller can see, and the bytes after it. */
function failure(p: Pair, size: number, off: unknown, v: unknown) {
  const bytes = new Uint8Array(size).fill(0xa5);
  const error = thrown(() => p.set(p.target(bytes), off as number, v)) as
    | (Error & { code?: string })
    | undefined;
  return {
    name: error?.constructor.name,
    code: error?.code,
    message: error?.message,
    untouched: bytes.every((x) => x === 0xa5),
  };
}

describe.each(TYPES.flatMap((t) => [false, true].map((little) => [t, little] as const)))(
  "%s (little-endian: %s), both paths",
  (type, little) => {
    const all = paths(type, little);

    test("this runtime uses the path bigint-path.ts chooses", () => {
      expect(typeof BIGINT_VIA_WORDS).toBe("boolean");
    });

    test("every path writes and reads what DataView does, at every offset", () => {
      fc.assert(
        fc.property(bigValues, fc.integer({ min: 0, max: 8 }), (v, off) => {
          const expected = new Uint8Array(16);
          const dv = viewOf(expected);
          if (type === "BigInt64") dv.setBigInt64(off, v, little);
          else dv.setBigUint64(off, v, little);
          const read =
            type === "BigInt64" ? dv.getBigInt64(off, little) : dv.getBigUint64(off, little);
          for (const p of Object.values(all)) {
            const bytes = new Uint8Array(16);
            p.set(p.target(bytes), off, v);
            expect(bytes).toEqual(expected);
            expect(p.get(p.target(bytes), off)).toBe(read);
          }
        }),
      );
    });

    const bad: ReadonlyArray<readonly [string, unknown, unknown]> = [
      ["a non-bigint value", 0, 5],
      ["a string that is no bigint", 0, "x"],
      ["a symbol value", 0, Symbol("v")],
      ["an offset past the end", 9, 1n],
      ["a negative offset", -1, 1n],
      ["a fractional offset", 1.5, 1n],
      ["a bigint offset", 1n, 1n],
      ["NaN as offset", Number.NaN, 1n],
      ["both a bad offset and a bad value", 9, 5],
    ];
    test.each(bad)("%s: the same error on every path, and nothing written", (_what, off, v) => {
      const seen = Object.entries(all).map(([path, p]) => ({ path, ...failure(p, 16, off, v) }));
      for (const s of seen) {
        expect(s.name, s.path).toMatch(/Error$/);
        expect(s.untouched, s.path).toBe(true);
      }
      // The two paths of one codec kind must agree exactly.
      for (const kind of ["Codec", "ViewCodec"]) {
        const [a, b] = seen.filter((s) => s.path.startsWith(`${kind}/`));
        expect({ ...b, path: undefined }, kind).toEqual({ ...a, path: undefined });
      }
    });

    const badOffsets: ReadonlyArray<readonly [string, unknown]> = [
      ["an offset past the end", 9],
      ["a negative offset", -1],
      ["a fractional offset", 1.5],
      ["a bigint offset", 1n],
      ["NaN as offset", Number.NaN],
    ];
    test.each(badOffsets)("a get at %s: the same error on every path", (_what, off) => {
      const seen = Object.entries(all).map(([path, p]) => {
        const error = thrown(() => p.get(p.target(new Uint8Array(16)), off as number)) as
          | (Error & { code?: string })
          | undefined;
        return { path, name: error?.constructor.name, code: error?.code, message: error?.message };
      });
      for (const s of seen) expect(s.name, s.path).toMatch(/Error$/);
      for (const kind of ["Codec", "ViewCodec"]) {
        const [a, b] = seen.filter((s) => s.path.startsWith(`${kind}/`));
        expect({ ...b, path: undefined }, kind).toEqual({ ...a, path: undefined });
      }
    });
  },
);
