const assert = require("node:assert/strict");
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { open } = require("@rafkit/kv-example");

(async () => {
  const dir = mkdtempSync(join(tmpdir(), "rafkv-smoke-"));
  try {
    const db = await open(join(dir, "db"));
    await db.put("k", "v");
    assert.equal(await db.getString("k"), "v");
    await db.close();
    console.log("cjs ok");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
