// `using` and `await using` as real syntax on the runtimes that parse it. Support is found by parsing a snippet;
// where it parses, the files in ../syntax/ run for real; where it does not, the same files must fail to load
// with a SyntaxError (so the detection cannot hide a runtime that parses them after all).
import assert from "node:assert/strict";
import { note, tempPath, test } from "../harness.mjs";

function parses(make) {
  try {
    make();
    return true;
  } catch (e) {
    if (e instanceof SyntaxError) return false;
    throw e;
  }
}

const AsyncFunction = (async () => {}).constructor;
export const usingParses = parses(() => new Function("{ using x = null; }"));
export const awaitUsingParses = parses(() => new AsyncFunction("{ await using x = null; }"));
note("using", usingParses ? "parsed and run" : "not parsed by this runtime");
note("await using", awaitUsingParses ? "parsed and run" : "not parsed by this runtime");

if (usingParses) {
  test(
    "syntax: `using` closes a RandomAccessFile and releases its lock at the end of the block",
    ["using"],
    async () => {
      const { usingCloses } = await import("../syntax/using.mjs");
      usingCloses(tempPath());
    },
  );
  test("syntax: `using` closes the file when the block throws", ["using"], async () => {
    const { usingClosesOnThrow } = await import("../syntax/using.mjs");
    usingClosesOnThrow(tempPath());
  });
} else {
  test(
    "syntax: where `using` does not parse, syntax/using.mjs fails to load with a SyntaxError",
    ["using-absent"],
    async () => {
      await assert.rejects(import("../syntax/using.mjs"), SyntaxError);
    },
  );
}

if (awaitUsingParses) {
  test(
    "syntax: `await using` closes an AsyncRandomAccessFile and releases its lock",
    ["await-using"],
    async () => {
      const { awaitUsingCloses } = await import("../syntax/await-using.mjs");
      await awaitUsingCloses(tempPath());
    },
  );
} else {
  test(
    "syntax: where `await using` does not parse, syntax/await-using.mjs fails to load with a SyntaxError",
    ["await-using-absent"],
    async () => {
      await assert.rejects(import("../syntax/await-using.mjs"), SyntaxError);
    },
  );
}
