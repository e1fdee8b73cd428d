import assert from "node:assert/strict";
import * as mod from "@rafkit/bits";

assert.equal(typeof mod, "object");
console.log("esm ok");
