import fc from "fast-check";
import { describe, test } from "vitest";
import { DEFAULT_BUFFER_SIZE } from "../src/index";
import { opArb, runModel } from "./support/model";
import { tempDir } from "./support/temp";

const tmp = tempDir();

test.each(["rws", "rwd"] as const)(
  "model: mode %s (every write reaches the OS) equals the model",
  (mode) => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) =>
        runModel(tmp, ops, { bufferSize: 16 }, mode),
      ),
      { numRuns: 40, seed: 11 },
    );
  },
);

describe.each([0, 1, 7, 64, DEFAULT_BUFFER_SIZE])("model: bufferSize %i", (bufferSize) => {
  test.each(["node", "native"] as const)(
    "random op sequences on the %s backend equal the model",
    (backend) => {
      fc.assert(
        fc.property(fc.array(opArb, { maxLength: 120 }), (ops) =>
          runModel(tmp, ops, { bufferSize, backend }),
        ),
        { numRuns: 300, seed: 5 + bufferSize },
      );
    },
  );
});
