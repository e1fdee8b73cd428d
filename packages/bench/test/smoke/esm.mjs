import assert from "node:assert/strict";
import * as mod from "@rafkit/bench";

assert.equal(typeof mod, "object");
console.log("esm ok");
