import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KvError, open } from "@rafkit/kv-example";
import { benchSummary } from "@rafkit/kv-example/bench";

const dir = mkdtempSync(join(tmpdir(), "rafkv-smoke-"));
try {
  const db = await open(join(dir, "db"), { sync: "batch" });
  await db.put("greeting", "hello");
  assert.equal(await db.getString("greeting"), "hello");
  assert.equal(await db.delete("greeting"), true);
  await db.close();
  await assert.rejects(db.put("k", "v"), (e) => e instanceof KvError && e.code === "ERR_KV_CLOSED");
  assert.equal(typeof benchSummary, "function");
  console.log("esm ok");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
