import assert from "node:assert/strict";
import * as mod from "@rafkit/syscall-state";

assert.equal(typeof mod, "object");
console.log("esm ok");
