import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BenchError } from "../src/errors";
import * as source from "../src/index";

type Api = typeof source;
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));

// An app that `import`s the harness while a tool `require`s it has two copies of BenchError: one's error was no
// instance of the other's class.
describe.skipIf(!existsSync(dist))(
  "BenchError across copies of the package (built ESM and CJS)",
  () => {
    it("an error from one copy is an instance of another copy's class, and of no unrelated class", async () => {
      const esm = (await import(dist)) as Api;
      const cjs = createRequire(import.meta.url)(dist.replace(/\.js$/, ".cjs")) as Api;
      expect(cjs.BenchError).not.toBe(esm.BenchError);
      const thrown = (api: Api) => {
        try {
          api.resolveOptions({ forks: -1 });
        } catch (e) {
          return e;
        }
        throw new Error("it did not throw");
      };
      for (const from of [esm, cjs, source]) {
        const error = thrown(from);
        expect(error).toMatchObject({ name: "BenchError", code: "ERR_BENCH_BAD_OPTION" });
        for (const api of [esm, cjs, source]) expect(error).toBeInstanceOf(api.BenchError);
        expect(error).not.toBeInstanceOf(TypeError);
      }
      expect(new Error("x")).not.toBeInstanceOf(BenchError);
      expect(Object.create(BenchError.prototype)).toBeInstanceOf(esm.BenchError);
    });
  },
);
