import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { OutOfRangeError, shareClassIdentity, UTFDataFormatError } from "../src/index";

describe("shareClassIdentity", () => {
  // Two copies of one class, as two builds of a package define it; and another class.
  const copy = () => {
    class Failure extends Error {}
    shareClassIdentity(Failure, "test.Failure");
    return Failure;
  };
  const [First, Second] = [copy(), copy()];
  class Other extends Error {}
  shareClassIdentity(Other, "test.Other");

  it("makes an instance of one copy an instance of the other, and of no other class", () => {
    expect(new First()).toBeInstanceOf(Second);
    expect(new Second()).toBeInstanceOf(First);
    expect(new First()).toBeInstanceOf(Error);
    expect(new First() instanceof Other).toBe(false);
    for (const value of [null, undefined, 1, "test.Failure", Object.create(null), new Error()])
      expect(value instanceof First).toBe(false);
  });

  it("counts subclasses as instanceof does; a subclass of its own is told apart only by plain instanceof", () => {
    class Sub extends First {}
    expect(new Sub()).toBeInstanceOf(Second); // through First's identity in its prototype chain
    expect(new Sub()).toBeInstanceOf(Sub);
    expect(new Second() instanceof Sub).toBe(false);
  });

  it.skipIf(!existsSync(new URL("../dist/index.cjs", import.meta.url)))(
    "holds for the package's own ESM and CJS builds",
    async () => {
      const esm = (await import(
        new URL("../dist/index.js", import.meta.url).href
      )) as typeof import("../src/index");
      const cjs = createRequire(import.meta.url)(
        "../dist/index.cjs",
      ) as typeof import("../src/index");
      expect(cjs.OutOfRangeError).not.toBe(esm.OutOfRangeError);
      for (const [a, b] of [
        [esm, cjs],
        [cjs, esm],
      ] as const) {
        expect(new a.OutOfRangeError("x")).toBeInstanceOf(b.OutOfRangeError);
        expect(new a.OutOfRangeError("x")).toBeInstanceOf(OutOfRangeError);
        expect(new a.UTFDataFormatError("x")).toBeInstanceOf(b.UTFDataFormatError);
        expect(new a.UTFDataFormatError("x") instanceof UTFDataFormatError).toBe(true);
        expect(new a.OutOfRangeError("x") instanceof b.UTFDataFormatError).toBe(false);
      }
    },
  );
});
