const mod = require("@rafkit/raf");
const assert = require("node:assert/strict");

assert.equal(typeof mod, "object");
console.log("cjs ok");
