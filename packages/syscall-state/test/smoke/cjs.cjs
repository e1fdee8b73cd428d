const mod = require("@rafkit/syscall-state");
const assert = require("node:assert/strict");

assert.equal(typeof mod, "object");
console.log("cjs ok");
