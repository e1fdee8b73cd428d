const mod = require("@rafkit/bench");
const assert = require("node:assert/strict");

assert.equal(typeof mod, "object");
console.log("cjs ok");
