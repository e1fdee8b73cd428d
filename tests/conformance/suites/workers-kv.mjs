// Workers writing disjoint ranges of one file (both classes, both backends), and the kv library (apps/kv's dist
// entry): open, put, get, delete, compact, close, reopen, and a second writer refused in-process and cross-process.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { KvLockedError, open as openStore } from "@rafkit/kv-example";
import { RandomAccessFile } from "@rafkit/raf";
import { note, tempPath, test } from "../harness.mjs";
import { child, runtimeArgs } from "../helpers/spawn.mjs";

const text = (b) => (b === undefined ? undefined : new TextDecoder().decode(b));

for (const backend of ["native", "node"]) {
  test(
    `workers/${backend}: 4 workers write disjoint ranges with both classes; the file is exact`,
    [backend, "workers"],
    async () => {
      const p = tempPath();
      const f = new RandomAccessFile(p, "rw", { backend });
      f.setLength(4 * 1024);
      f.close();
      const names = await Promise.all(
        [0, 1, 2, 3].map(
          (index) =>
            new Promise((resolve, reject) => {
              const w = new Worker(new URL("../helpers/worker-writer.mjs", import.meta.url), {
                workerData: { path: p, index, backend },
              });
              w.once("message", resolve);
              w.once("error", reject);
            }),
        ),
      );
      assert.deepEqual(names, [backend, backend, backend, backend]);
      const r = new RandomAccessFile(p, "r", { backend });
      for (let index = 0; index < 4; index++)
        for (let k = 0; k < 256; k++)
          assert.equal(r.readIntAt(index * 1024 + k * 4), index * 1000 + k);
      r.close();
    },
  );
}

test(
  "workers/native: a worker that ends (exit, terminate) with async writes running leaves the process alive",
  ["native", "workers", "async"],
  () => {
    const script = new URL("../helpers/worker-exit-in-flight.mjs", import.meta.url);
    const run = spawnSync(process.execPath, [...runtimeArgs(script), tempPath("exits"), "native"], {
      encoding: "utf8",
      stdio: "pipe",
    });
    assert.equal(
      run.status,
      0,
      `exit ${run.status} (signal ${run.signal}): ${run.stderr.slice(-500)}`,
    );
    assert.equal(run.stdout, "alive\n");
  },
);

const K = ["kv", "native", "locks"];

test(
  "kv: open, put, get, has, delete, keys; close and reopen keep exactly what was acknowledged",
  K,
  async () => {
    const dir = tempPath("store");
    const db = await openStore(dir);
    await db.put("user:1", "ada");
    await db.put("user:2", "grace");
    await db.put(Uint8Array.of(0, 255, 1), Uint8Array.of(9, 8, 7));
    await db.put("user:1", "ada lovelace");
    assert.equal(await db.delete("user:2"), true);
    assert.equal(await db.delete("missing"), false);
    assert.equal(text(await db.get("user:1")), "ada lovelace");
    assert.equal(await db.getString("user:1"), "ada lovelace");
    assert.equal(await db.get("user:2"), undefined);
    assert.equal(await db.has("user:2"), false);
    assert.deepEqual([...(await db.get(Uint8Array.of(0, 255, 1)))], [9, 8, 7]);
    const keys = [];
    for await (const k of db.keys()) keys.push([...k]);
    assert.equal(keys.length, 2);
    await db.close();
    const again = await openStore(dir);
    assert.equal(await again.getString("user:1"), "ada lovelace");
    assert.equal(await again.has("user:2"), false);
    assert.deepEqual([...(await again.get(Uint8Array.of(0, 255, 1)))], [9, 8, 7]);
    await again.close();
  },
);

test(
  "kv: compact drops overwritten and deleted records, keeps the live ones, and survives a reopen",
  K,
  async () => {
    const dir = tempPath("store");
    const db = await openStore(dir, { maxFileSize: 64 * 1024 });
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < 200; i++) await db.put(`k${i}`, `${round}:${"v".repeat(200)}`);
    for (let i = 0; i < 100; i++) await db.delete(`k${i}`);
    const size = (d) =>
      fs.readdirSync(d).reduce((n, f) => n + fs.statSync(path.join(d, f)).size, 0);
    const before = size(dir);
    await db.compact();
    // 100 live records of the 1,100 written: compaction keeps about a tenth of the bytes.
    assert.ok(size(dir) < before / 4, `compaction reclaims space: ${before} -> ${size(dir)}`);
    await db.put("big", new Uint8Array(1 << 20).fill(3));
    assert.equal(await db.getString("k150"), `4:${"v".repeat(200)}`);
    assert.equal(await db.get("k50"), undefined);
    await db.close();
    const again = await openStore(dir);
    assert.equal(await again.getString("k199"), `4:${"v".repeat(200)}`);
    assert.equal(await again.has("k0"), false);
    assert.equal((await again.get("big")).length, 1 << 20);
    await again.close();
  },
);

test(
  "kv: a second writer is refused with KvLockedError, in this process and from another one",
  K,
  async () => {
    const dir = tempPath("store");
    const db = await openStore(dir);
    await db.put("a", "1");
    await assert.rejects(
      openStore(dir),
      (e) => e instanceof KvLockedError && e.code === "ERR_KV_LOCKED",
    );
    const refused = child(new URL("../helpers/kv-opener.mjs", import.meta.url), [dir, "b"]);
    assert.equal(await refused.next(), "ERR_KV_LOCKED");
    assert.equal(await refused.exited, 0);
    await db.close();
    const allowed = child(new URL("../helpers/kv-opener.mjs", import.meta.url), [dir, "b"]);
    assert.equal(await allowed.next(), "opened", allowed.stderr());
    await allowed.exited;
    const again = await openStore(dir);
    assert.equal(await again.getString("b"), "from the child");
    assert.equal(await again.getString("a"), "1");
    await again.close();
  },
);

test("kv: the rafkv CLI puts, gets and verifies (Deno: without --allow-env)", K, () => {
  const dir = tempPath("store");
  const cli = path.join(
    path.dirname(fileURLToPath(import.meta.resolve("@rafkit/kv-example"))),
    "cli.js",
  );
  // Deno asks for permissions one by one: the CLI must not need the environment (colours are off then).
  const argv =
    typeof globalThis.Deno !== "undefined"
      ? [
          "run",
          "--allow-read",
          "--allow-write",
          "--allow-ffi",
          "--allow-sys",
          "--no-lock",
          "--quiet",
        ]
      : [];
  const rafkv = (...args) =>
    spawnSync(process.execPath, [...argv, cli, dir, ...args], { encoding: "utf8", stdio: "pipe" });
  const put = rafkv("put", "greeting", "hello");
  assert.equal(put.status, 0, put.stderr);
  const get = rafkv("get", "greeting");
  assert.equal(get.status, 0, get.stderr);
  // The value as it is, no newline added when stdout is not a terminal.
  assert.equal(get.stdout, "hello");
  const verify = rafkv("verify");
  assert.equal(verify.status, 0, verify.stderr);
  assert.match(verify.stdout, /^ok: 1 data file, 1 record/);
  // On a terminal colours would be on, and picocolors read TERM as it loaded (util-linux's `script` gives one).
  if (typeof globalThis.Deno !== "undefined") {
    const command = [process.execPath, ...argv, "--no-prompt", cli, dir, "verify"]
      .map((a) => `'${a}'`)
      .join(" ");
    const tty = spawnSync("script", ["-qec", command, "/dev/null"], { encoding: "utf8" });
    if (tty.error !== undefined) note("rafkv on a terminal", "not run: no `script` command");
    else {
      assert.equal(tty.status, 0, tty.stdout);
      assert.match(tty.stdout, /ok: 1 data file, 1 record/);
    }
  }
});
