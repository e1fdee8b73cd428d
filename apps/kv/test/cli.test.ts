import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { EXIT, runCli } from "../src/cli-main";
import { dataFiles, flipByte, tempDir } from "./helpers";
import { rafkv } from "./rafkv";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const DRAIN_DEADLOCK_FIXED = Number(process.versions.node.split(".")[0]) >= 24;

function capture() {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on("data", (d: Buffer) => chunks.push(d));
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    text: () => Buffer.concat(chunks).toString(),
  };
}

function sinkStream(): NodeJS.WriteStream {
  return capture().stream;
}

describe("rafkv CLI", () => {
  it("a put with a bad key changes nothing: no store is made", async () => {
    for (const key of ["", "k".repeat(65_536)]) {
      const dir = path.join(tempDir(), "new");
      const r = await rafkv([dir, "put", key, "v"]);
      expect(r.code).toBe(EXIT.usage);
      expect(r.err).toMatch(/key must be 1 to 65535 bytes/);
      expect(fs.existsSync(dir)).toBe(false);
    }
  });

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
    // One data file in, one out: the new (empty) active file is not counted.
    expect(compact.out).toMatch(
      /^compacted 4 live records into 1 data file, removing 1 old one: \d+ B → \d+ B \(\d+ B reclaimed\)\n$/,
    );
    // Not a terminal: plain progress lines, no cursor codes.
    expect(compact.err).toMatch(/^compact 100% 4\/4 records\n$/m);
    expect(compact.err).not.toContain("\x1b");
    const again = await rafkv([dir, "compact"]);
    expect(again.out).toMatch(
      /^compacted 4 live records into 1 data file, removing 1 old one: (\d+ B) → \1\n$/,
    );
    const stats = await rafkv([dir, "stats", "--json"]);
    expect(JSON.parse(stats.out)).toMatchObject({ keys: 4, readOnly: true });
    expect((await rafkv([dir, "stats"])).out).toMatch(/keys\s+4/);
    const verify = await rafkv([dir, "verify"]);
    expect(verify.code).toBe(EXIT.ok);
    // The empty active file the compactions left holds nothing to verify: one data file, as a user counts them.
    expect(verify.out).toMatch(/^ok: 1 data file, 4 records, \d+ B\n$/);
  });

  it("fails clearly, with nothing lost: missing directory, bad usage, locked store, corrupt file", async () => {
    const base = tempDir();
    const nope = await rafkv([path.join(base, "nope"), "get", "k"]);
    expect(nope.code).toBe(EXIT.usage);
    expect(nope.err).toMatch(/no such store directory/);
    expect((await rafkv([path.join(base, "a", "b"), "put", "k", "v"])).code).toBe(EXIT.usage);
    // Under a file: as missing (on Node 20, statSync threw ENOTDIR despite throwIfNoEntry: exit 5, an I/O error).
    fs.writeFileSync(path.join(base, "file"), "");
    const underFile = await rafkv([path.join(base, "file", "sub"), "put", "k", "v"]);
    expect([underFile.code, underFile.err]).toEqual([
      EXIT.usage,
      expect.stringMatching(/cannot create store directory .*ENOTDIR/),
    ]);
    expect((await rafkv([path.join(base, "file", "sub"), "get", "k"])).err).toMatch(
      /no such store directory/,
    );
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
    const repair = await rafkv([dir, "compact", "--repair"]);
    expect(repair.code).toBe(EXIT.ok);
    // open's repair compacted already: say what it did, rather than "compacted 0 live records".
    expect(repair.out).toMatch(
      /^repaired: dropped 1 corrupt region \(\d+ B\) in 0000000001\.data; rewrote the 4 live keys into clean files \(\d+ B\)\n$/,
    );
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

describe("rafkv CLI output", () => {
  it("scan and get print binary keys and values exactly with --encoding hex or base64", async () => {
    const dir = path.join(tempDir(), "db");
    const db = await open(dir);
    const key = new Uint8Array([0xff, 0x00, 0x41]);
    const value = new Uint8Array([0, 1, 0xfe, 0x80, 10]);
    await db.put(key, value);
    await db.put("text", "héllo");
    await db.close();
    const hexKey = Buffer.from(key).toString("hex");
    const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

    const hex = await rafkv([dir, "scan", "--encoding", "hex"]);
    expect(hex.code).toBe(EXIT.ok);
    expect(hex.out).toBe(
      `${Buffer.from("text").toString("hex")}\t${Buffer.from("héllo").toString("hex")}\n${hexKey}\t${Buffer.from(value).toString("hex")}\n`,
    );
    const json = await rafkv([dir, "scan", "--json", "-e", "base64"]);
    const rows = json.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { key: string; value: string });
    expect(rows.map((r) => new Uint8Array(Buffer.from(r.value, "base64")))).toEqual([
      new Uint8Array(Buffer.from("héllo")),
      value,
    ]);
    expect(rows[1]!.key).toBe(b64(key));
    expect((await rafkv([dir, "scan", "-k", "-e", "base64"])).out).toBe(
      `${b64(Buffer.from("text"))}\n${b64(key)}\n`,
    );
    // The default stays UTF-8 text.
    expect((await rafkv([dir, "scan", "te"])).out).toBe("text\théllo\n");

    expect((await rafkv([dir, "get", "text", "--encoding", "hex"])).out).toBe(
      `${Buffer.from("héllo").toString("hex")}\n`,
    );
    expect((await rafkv([dir, "get", "text", "-e", "utf8"])).out).toBe("héllo\n");
    expect((await rafkv([dir, "get", "text"])).stdout).toEqual(Buffer.from("héllo"));
    const bad = await rafkv([dir, "scan", "--encoding", "latin1"]);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toMatch(/Allowed choices are utf8, hex, base64/);
    const help = await rafkv([dir, "scan", "--help"]);
    expect(help.out).toMatch(/--encoding <encoding>.*hex.*base64/s);
  });

  it("says what a compaction of deleted records did, and when there was nothing to do", async () => {
    const dir = path.join(tempDir(), "db");
    await rafkv([dir, "put", "k", "v"]);
    await rafkv([dir, "del", "k"]);
    const first = await rafkv([dir, "compact"]);
    expect(first.out).toMatch(
      /^compacted 0 live records into 0 data files, removing 1 old one: (\d+) B → 0 B \(\1 B reclaimed\)\n$/,
    );
    const second = await rafkv([dir, "compact"]);
    expect(second.out).toBe(
      "nothing to compact: no old records to rewrite or drop (0 B of data)\n",
    );
  });

  it("waits for 'drain' while scanning instead of buffering everything", async () => {
    const dir = path.join(tempDir(), "db");
    const db = await open(dir, { sync: "never" });
    for (let i = 0; i < 500; i++)
      await db.put(`key-${String(i).padStart(4, "0")}`, "v".repeat(200));
    await db.close();
    let maxBuffered = 0;
    let lines = 0;
    const stdout = new Writable({
      highWaterMark: 4096,
      write(chunk: Buffer, _enc, callback) {
        maxBuffered = Math.max(maxBuffered, this.writableLength);
        lines += chunk.toString().split("\n").length - 1;
        setImmediate(callback); // a slow reader
      },
    });
    const code = await runCli([dir, "scan"], {
      stdout,
      stderr: sinkStream(),
      stdin: Readable.from([]),
    });
    expect(code).toBe(EXIT.ok);
    expect(lines).toBe(500);
    // 500 lines of ~210 bytes: ~100 KiB if nothing waited; with 'drain', at most the high-water mark and a line.
    expect(maxBuffered).toBeLessThan(4096 + 512);
  });

  it("stops quietly with exit 0 when the reader of stdout goes away (EPIPE)", async () => {
    const dir = path.join(tempDir(), "db");
    const db = await open(dir, { sync: "never" });
    for (let i = 0; i < 200; i++) await db.put(`k${String(i).padStart(3, "0")}`, "value");
    await db.close();
    let writes = 0;
    const stdout = new Writable({
      highWaterMark: 64,
      write(_chunk, _enc, callback) {
        writes++;
        if (writes < 3) callback();
        else callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE", errno: -32 }));
      },
    });
    const stderr = capture();
    const code = await runCli([dir, "scan", "-k"], {
      stdout,
      stderr: stderr.stream,
      stdin: Readable.from([]),
    });
    expect(code).toBe(EXIT.ok);
    expect(stderr.text()).toBe("");
    expect(writes).toBeLessThan(10); // it stopped writing

    // Other errors of stdout are reported, with a failure exit code.
    const eio = new Writable({
      write(_chunk, _enc, callback) {
        callback(Object.assign(new Error("write EIO"), { code: "EIO" }));
      },
    });
    const failed = capture();
    const code2 = await runCli([dir, "get", "k001"], {
      stdout: eio,
      stderr: failed.stream,
      stdin: Readable.from([]),
    });
    expect(code2).toBe(EXIT.failure);
    expect(failed.text()).toMatch(/rafkv: write EIO/);
  });

  it("rejects a directory that holds no store, creating nothing in it", async () => {
    const dir = path.join(tempDir(), "x");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "notes.txt"), "hi\n");
    const verify = await rafkv([dir, "verify"]);
    expect(verify.code).toBe(EXIT.usage);
    expect(verify.err).toMatch(/not a rafkv store/);
    expect(fs.readdirSync(dir)).toEqual(["notes.txt"]);
  });
});

describe.skipIf(!fs.existsSync(CLI))("rafkv binary on a closed pipe", () => {
  /** Runs the built CLI, closing its stdout after `keep` bytes (0: before it writes anything). */
  function runClosingStdout(args: string[], keep: number) {
    return new Promise<{ code: number | null; signal: string | null; stderr: string; got: number }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, [CLI, ...args], {
          stdio: ["ignore", "pipe", "pipe"],
        });
        let got = 0;
        let stderr = "";
        if (keep === 0) child.stdout.destroy();
        else
          child.stdout.on("data", (d: Buffer) => {
            got += d.length;
            if (got >= keep) child.stdout.destroy();
          });
        child.stderr.on("data", (d: Buffer) => {
          stderr += String(d);
        });
        child.on("error", reject);
        // A hung child fails this attempt quickly instead of the whole test timing out (see the retry below).
        const watchdog = setTimeout(() => child.kill("SIGKILL"), 15_000);
        child.on("close", (code, signal) => {
          clearTimeout(watchdog);
          resolve({ code, signal, stderr, got });
        });
      },
    );
  }

  // Retried on Node < 24 only: rarely (once in a full-suite run, once in ~480 loaded repros on Node 20) a child
  // never exits. Seen with gdb: its main thread waits in node::NodePlatform::DrainTasks at the end of the event loop
  // while a V8 compile job waits in CollectionBarrier::AwaitCollectionBackground for a GC on that thread: Node's
  // shutdown deadlock (nodejs/node#54918), not rafkv's. nodejs/node#58047 ("src: only block on user blocking worker
  // tasks", in 24.0.0 per its CHANGELOG; 22.x got only its debug logs) stops DrainTasks waiting on such jobs.
  // The watchdog above fails such an attempt in 15 s.
  it("scan | head and get | head -c 0 exit 0 without a stack trace", {
    retry: DRAIN_DEADLOCK_FIXED ? 0 : 2,
  }, async () => {
    const dir = path.join(tempDir(), "db");
    const db = await open(dir, { sync: "never" });
    // Far more than a pipe's buffer (64 KiB), so that the writer meets the closed pipe.
    for (let i = 0; i < 3000; i++) await db.put(`k${String(i).padStart(5, "0")}`, "v".repeat(300));
    await db.put("big", new Uint8Array(1 << 20).fill(7));
    await db.close();

    const scan = await runClosingStdout([dir, "scan"], 2);
    expect(scan.stderr).toBe("");
    expect(scan.code).toBe(0);
    expect(scan.got).toBeLessThan(3000 * 300);
    const get = await runClosingStdout([dir, "get", "big"], 0);
    expect(get.stderr).toBe("");
    expect(get.code).toBe(0);
  });
});
