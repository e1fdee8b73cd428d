import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { EXIT, runCli } from "../src/cli-main";
import { dataFiles, flipByte, tempDir } from "./helpers";

async function rafkv(args: string[], stdin: Uint8Array = new Uint8Array()) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough() as unknown as NodeJS.WriteStream;
  stdout.on("data", (d: Buffer) => out.push(d));
  (stderr as unknown as PassThrough).on("data", (d: Buffer) => err.push(d));
  const code = await runCli(args, { stdout, stderr, stdin: Readable.from([Buffer.from(stdin)]) });
  return {
    code,
    stdout: Buffer.concat(out),
    out: Buffer.concat(out).toString(),
    err: Buffer.concat(err).toString(),
  };
}

describe("rafkv CLI", () => {
  it("puts, gets, scans, deletes, compacts, verifies and reports stats", async () => {
    const dir = path.join(tempDir(), "db");
    expect((await rafkv([dir, "put", "user:1", "ada"])).code).toBe(EXIT.ok);
    expect((await rafkv([dir, "put", "user:2", "grace"])).code).toBe(EXIT.ok);
    expect((await rafkv([dir, "put", "other", "x", "--sync", "batch"])).code).toBe(EXIT.ok);
    const binary = new Uint8Array([0, 1, 2, 255, 10, 13]);
    expect((await rafkv([dir, "put", "blob", "-"], binary)).code).toBe(EXIT.ok);
    expect((await rafkv([dir, "put", "blob2"], binary)).code).toBe(EXIT.ok);

    expect((await rafkv([dir, "get", "user:1"])).out).toBe("ada");
    expect(new Uint8Array((await rafkv([dir, "get", "blob"])).stdout)).toEqual(binary);
    expect((await rafkv([dir, "scan", "user:"])).out).toBe("user:1\tada\nuser:2\tgrace\n");
    expect((await rafkv([dir, "scan", "-k"])).out).toBe("blob\nblob2\nother\nuser:1\nuser:2\n");
    expect((await rafkv([dir, "scan", "user:2", "--json"])).out).toBe(
      '{"key":"user:2","value":"grace"}\n',
    );

    expect((await rafkv([dir, "del", "other"])).code).toBe(EXIT.ok);
    const missing = await rafkv([dir, "del", "other"]);
    expect(missing.code).toBe(EXIT.notFound);
    expect(missing.err).toMatch(/key not found: other/);
    const gone = await rafkv([dir, "get", "other"]);
    expect(gone.code).toBe(EXIT.notFound);

    const compact = await rafkv([dir, "compact"]);
    expect(compact.code).toBe(EXIT.ok);
    expect(compact.out).toMatch(/compacted 4 live records/);
    const stats = await rafkv([dir, "stats", "--json"]);
    expect(JSON.parse(stats.out)).toMatchObject({ keys: 4, readOnly: true });
    expect((await rafkv([dir, "stats"])).out).toMatch(/keys\s+4/);
    const verify = await rafkv([dir, "verify"]);
    expect(verify.code).toBe(EXIT.ok);
    expect(verify.out).toMatch(/ok: .* 4 records/);
  });

  it("fails clearly, with nothing lost: missing directory, bad usage, locked store, corrupt file", async () => {
    const base = tempDir();
    const nope = await rafkv([path.join(base, "nope"), "get", "k"]);
    expect(nope.code).toBe(EXIT.usage);
    expect(nope.err).toMatch(/no such store directory/);
    expect((await rafkv([path.join(base, "a", "b"), "put", "k", "v"])).code).toBe(EXIT.usage);
    expect((await rafkv([path.join(base, "nope"), "del", "k"])).code).toBe(EXIT.usage);
    expect(fs.existsSync(path.join(base, "nope"))).toBe(false);
    expect((await rafkv([])).code).toBe(EXIT.usage);
    expect((await rafkv([base])).code).toBe(EXIT.usage);
    expect((await rafkv([base, "frobnicate"])).code).toBe(EXIT.usage);
    expect((await rafkv([base, "put", "k", "v", "--sync", "sometimes"])).code).toBe(EXIT.usage);
    expect((await rafkv(["--help"])).code).toBe(EXIT.ok);

    const dir = path.join(base, "db");
    for (let i = 0; i < 5; i++) await rafkv([dir, "put", `k${i}`, `value-${i}`]);
    const db = await open(dir);
    const locked = await rafkv([dir, "put", "k9", "v"]);
    expect(locked.code).toBe(EXIT.locked);
    expect(locked.err).toMatch(/already open for writing/);
    await db.close();

    for (const h of fs.readdirSync(dir)) if (h.endsWith(".hint")) fs.rmSync(path.join(dir, h));
    flipByte(path.join(dir, dataFiles(dir)[0]!), 25); // inside the first record (29 bytes)
    const verify = await rafkv([dir, "verify"]);
    expect(verify.code).toBe(EXIT.corrupt);
    expect(verify.err).toMatch(/corrupt record at offset 0/);
    const put = await rafkv([dir, "put", "k9", "v"]);
    expect(put.code).toBe(EXIT.corrupt);
    expect(put.err).toMatch(/read-only: corrupt record/);
    const get = await rafkv([dir, "get", "k3"]);
    expect(get.out).toBe("value-3");
    expect(get.err).toMatch(/warning/);
    expect((await rafkv([dir, "compact", "--repair"])).code).toBe(EXIT.ok);
    expect((await rafkv([dir, "verify"])).code).toBe(EXIT.ok);
    expect((await rafkv([dir, "get", "k4"])).out).toBe("value-4");
  });

  it("runs as the built rafkv binary", () => {
    const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
    if (!fs.existsSync(cli)) return;
    const dir = path.join(tempDir(), "db");
    const put = spawnSync(process.execPath, [cli, dir, "put", "k", "-"], {
      input: Buffer.from([1, 2, 3]),
    });
    expect(put.status).toBe(0);
    const get = spawnSync(process.execPath, [cli, dir, "get", "k"]);
    expect(new Uint8Array(get.stdout)).toEqual(new Uint8Array([1, 2, 3]));
    const miss = spawnSync(process.execPath, [cli, dir, "get", "zz"], { encoding: "utf8" });
    expect(miss.status).toBe(EXIT.notFound);
    expect(miss.stderr).toContain("key not found: zz");
  });
});
