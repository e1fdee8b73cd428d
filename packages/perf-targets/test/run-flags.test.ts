import { describe, expect, it } from "vitest";
import { checkRunFlags } from "../src/run-flags";

const fail = (message: string): never => {
  throw new Error(`failed: ${message}`);
};

describe("checkRunFlags", () => {
  it("gives the counts as numbers and leaves the lengths as the harness takes them", () => {
    expect(checkRunFlags({}, fail)).toEqual({});
    expect(
      checkRunFlags(
        {
          forks: "3",
          warmupIterations: "0",
          iterations: "5",
          warmupTime: "1s",
          measurementTime: "100ops",
        },
        fail,
      ),
    ).toEqual({ forks: 3, warmupIterations: 0, iterations: 5 });
  });

  it.each([
    [{ forks: "x" }, 'forks must be an integer >= 0, got "x"'],
    [{ warmupIterations: "-1" }, 'warmup iterations must be an integer >= 0, got "-1"'],
    [{ iterations: "0" }, 'iterations must be an integer >= 1, got "0"'],
    [{ warmupTime: "0ms" }, 'bad iteration length "0ms"'],
    [{ measurementTime: "soon" }, 'bad iteration length "soon"'],
  ])("refuses %j with the harness's words", (flags, message) => {
    expect(() => checkRunFlags(flags, fail)).toThrow(`failed: ${message}`);
  });
});
