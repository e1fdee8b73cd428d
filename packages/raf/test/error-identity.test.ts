import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import * as source from "../src/index";
import { tempDir } from "./support/temp";
import { dist } from "./support/thread-locks";

const tmp = tempDir();
type Api = typeof import("../src/index");

// An app that `import`s raf while a dependency `require`s it has two copies of every class: an error one throws was
// no instance of the other's class, so `catch (e) { if (e instanceof EOFError) … }` missed it.
describe.skipIf(!existsSync(dist))(
  "error classes across copies of the packages (built ESM and CJS)",
  () => {
    test("an error from one copy is an instance of the same class of another, and of no other class", async () => {
      const esm = (await import(dist)) as Api;
      const cjs = createRequire(import.meta.url)(dist.replace(/\.js$/, ".cjs")) as Api;
      expect(cjs.EOFError).not.toBe(esm.EOFError);
      const f = new cjs.RandomAccessFile(tmp("empty.bin"), "rw");
      const thrown = (call: () => unknown) => {
        try {
          call();
        } catch (e) {
          return e;
        }
        throw new Error("it did not throw");
      };
      const eof = thrown(() => f.readInt());
      const range = thrown(() => f.seek(-1));
      f.close();
      const closed = thrown(() => f.readInt());
      const system = thrown(() => new cjs.RandomAccessFile(tmp("missing/x.bin"), "r"));
      for (const api of [esm, cjs, source as Api]) {
        expect(eof).toBeInstanceOf(api.EOFError);
        expect(closed).toBeInstanceOf(api.ClosedError);
        expect(range).toBeInstanceOf(api.OutOfRangeError); // @rafkit/bits' class, through raf's export
        expect(system).toBeInstanceOf(api.SystemCallError); // @rafkit/syscall-state's
        expect(eof instanceof api.ClosedError || closed instanceof api.EOFError).toBe(false);
        expect(range instanceof api.UTFDataFormatError || system instanceof api.EOFError).toBe(
          false,
        );
      }
      // The built classes keep their names: a static block naming its own class made the bundler rename it
      // (`class _EOFError`), and Node printed `_SystemCallError: ENOENT: …`.
      for (const e of [eof, closed, range, system] as Error[]) {
        expect(e.constructor.name).toMatch(
          /^(EOFError|ClosedError|OutOfRangeError|SystemCallError)$/,
        );
        expect(inspect(e)).toMatch(/^[A-Z]\w*Error\b/);
      }
      expect(range).toBeInstanceOf(RangeError);
      expect(eof).toBeInstanceOf(Error);
      // A subclass of one copy's class is an instance of the other copy's, as of its own.
      class AppEOF extends esm.EOFError {}
      expect(new AppEOF()).toBeInstanceOf(cjs.EOFError);
      expect(eof instanceof AppEOF).toBe(false);
    });
  },
);
