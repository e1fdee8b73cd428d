import { expect, expectTypeOf, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile, type RandomAccessFileApi } from "../src/index";

// Both classes implement RandomAccessFileApi (the compiler checks they have all of it); these check they
// have nothing public beyond it but their disposer, so the one declaration stays the whole surface.
type Named<T> = Exclude<keyof T, symbol>;
expectTypeOf<
  Exclude<Named<RandomAccessFile>, Named<RandomAccessFileApi<"sync">>>
>().toEqualTypeOf<never>();
expectTypeOf<
  Exclude<Named<AsyncRandomAccessFile>, Named<RandomAccessFileApi<"async">>>
>().toEqualTypeOf<never>();
expectTypeOf<Named<RandomAccessFile>>().toEqualTypeOf<Named<AsyncRandomAccessFile>>();

// The whole prototype chain: each class's primitive methods live on its generated base class.
const surface = (proto: object) => {
  const keys = new Set<string>();
  for (let p = proto; p !== Object.prototype; p = Object.getPrototypeOf(p))
    for (const k of Reflect.ownKeys(p))
      if (k !== "constructor" && typeof k === "string") keys.add(k);
  return [...keys].sort();
};

test("the two classes have the same public members, at run time too", () => {
  expect(surface(RandomAccessFile.prototype)).toEqual(surface(AsyncRandomAccessFile.prototype));
  expect(surface(RandomAccessFile.prototype).length).toBe(81);
  expect(Reflect.ownKeys(RandomAccessFile.prototype)).toContain(Symbol.dispose);
  expect(Reflect.ownKeys(AsyncRandomAccessFile.prototype)).toContain(Symbol.asyncDispose);
});
