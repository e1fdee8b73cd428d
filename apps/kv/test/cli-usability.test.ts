import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { EXIT, runCli } from "../src/cli-main";
import { encodeText, escapeControls, maxEncodable } from "../src/text-encoding";
import { tempDir } from "./helpers";
import { rafkv } from "./rafkv";

const APP = fileURLToPath(new URL("..", import.meta.url));
const DIST = path.join(APP, "dist");

describe("the package as users get it", () => {
  it("resolves its library entry by package name, for import and require, with types", () => {
    expect(fs.existsSync(path.join(DIST, "index.js")), "run pnpm build first").toBe(true);
    // Self-reference through `exports`: exactly how a consumer's import resolves the name.
    const esm = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const m = await import("@rafkit/kv-example"); const b = await import("@rafkit/kv-example/bench"); console.log(typeof m.open, typeof b.runBench)',
      ],
      { cwd: APP, encoding: "utf8" },
    );
    expect(esm.stderr).toBe("");
    expect(esm.stdout.trim()).toBe("function function");
    const cjs = spawnSync(
      process.execPath,
      ["-e", 'console.log(typeof require("@rafkit/kv-example").open)'],
      { cwd: APP, encoding: "utf8" },
    );
    expect(cjs.stdout.trim()).toBe("function");
    const pkg = JSON.parse(fs.readFileSync(path.join(APP, "package.json"), "utf8"));
    expect(pkg.exports["."].import.types).toBe("./dist/index.d.ts");
    expect(pkg.exports["."].require.types).toBe("./dist/index.d.cts");
  });

  it("packs its whole dist (a files allowlist), so the packed rafkv can start", () => {
    const listing = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: APP,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const files = new Set((JSON.parse(listing)[0].files as { path: string }[]).map((f) => f.path));
    const built = fs.readdirSync(DIST).map((f) => `dist/${f}`);
    expect(built.filter((f) => !files.has(f))).toEqual([]);
    expect(files.has("README.md")).toBe(true);
    expect([...files].filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);
  });
});

describe("help", () => {
  it("rafkv help CMD and rafkv CMD --help show that command's help, with <dir> in the usage line", async () => {
    for (const args of [
      ["help", "put"],
      ["put", "--help"],
      ["put", "-h"],
    ]) {
      const r = await rafkv(args);
      expect(r.code, args.join(" ")).toBe(EXIT.ok);
      expect(r.out).toMatch(/^Usage: rafkv <dir> put \[options\] <key> \[value\]/);
      expect(r.out).toContain("--sync <mode>");
    }
    const scan = await rafkv(["./db", "scan", "--help"]);
    expect(scan.out).toMatch(/^Usage: rafkv <dir> scan \[options\] \[prefix\]/);
    const main = await rafkv(["--help"]);
    expect(main.out).toMatch(/^Usage: rafkv <dir> <command> \[args\]/);
  });
});

describe("values too large to print as text", () => {
  it("are refused with a clear message, not the engine's string-length error", () => {
    const hexMax = maxEncodable("hex");
    const big = new Uint8Array(hexMax + 1); // zero-filled: no page is touched until written
    let error: unknown;
    try {
      encodeText(big, "hex");
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "ERR_KV_INVALID_ARG" });
    expect(String((error as Error).message)).toMatch(
      /too large to print as hex.*without --encoding/,
    );
    expect(() => encodeText(new Uint8Array(maxEncodable("base64") + 1), "base64")).toThrow(
      /too large to print as base64/,
    );
    expect(encodeText(new Uint8Array([0xff, 0]), "hex")).toBe("ff00");
  });
});

describe("control characters in human output", () => {
  it("are escaped, and scan's key<TAB>value lines stay unambiguous", async () => {
    const dir = path.join(tempDir(), "db");
    const db = await open(dir);
    await db.put("a\tb", "line1\nline2");
    await db.put("esc", "\u001b[31mred\u001b[0m \\ \u009b");
    await db.close();
    const scan = await rafkv([dir, "scan"]);
    expect(scan.code).toBe(EXIT.ok);
    expect(scan.out).toBe("a\\tb\tline1\\nline2\nesc\t\\x1b[31mred\\x1b[0m \\\\ \\x9b\n");
    expect(
      scan.out
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t").length),
    ).toEqual([2, 2]);
    const keys = await rafkv([dir, "scan", "--keys-only"]);
    expect(keys.out).toBe("a\\tb\nesc\n");
    const get = await rafkv([dir, "get", "esc", "-e", "utf8"]);
    expect(get.out).toBe("\\x1b[31mred\\x1b[0m \\\\ \\x9b\n");
    // Raw get is binary-safe: the bytes as stored.
    expect((await rafkv([dir, "get", "esc"])).out).toBe("\u001b[31mred\u001b[0m \\ \u009b");
    const missing = await rafkv([dir, "get", "no\u001b]0;pwned\u0007"]);
    expect(missing.code).toBe(EXIT.notFound);
    expect(missing.err).toBe("rafkv: key not found: no\\x1b]0;pwned\\x07\n");
    expect(escapeControls("plain ü")).toBe("plain ü");
  });
});

describe("a value on stdin over the limit", () => {
  it("stops being read once it passes the limit, and nothing is stored", async () => {
    const dir = path.join(tempDir(), "db");
    const limit = 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let pulled = 0;
    // 64 MiB on offer: the old CLI read it all and stored it.
    const stdin = Readable.from(
      (function* () {
        for (let i = 0; i < 1024; i++) {
          pulled += chunk.length;
          yield chunk;
        }
      })(),
    );
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const err: Buffer[] = [];
    stderr.on("data", (d: Buffer) => err.push(d));
    stdout.resume();
    const code = await runCli([dir, "put", "big", "-"], {
      stdout,
      stderr: stderr as unknown as NodeJS.WriteStream,
      stdin,
      valueLimit: limit,
    });
    expect(code).toBe(EXIT.usage);
    expect(Buffer.concat(err).toString()).toMatch(/over 1048576 bytes.*nothing was stored/);
    expect(pulled).toBeLessThanOrEqual(limit + 4 * chunk.length);
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe("rafkv DIR scan --keys-only", () => {
  it("reads no value: a damaged one fails nothing (the key listing is whole), as keys() does", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("damaged", "v".repeat(40));
    await db.put("fine", "w");
    await db.close();
    const data = path.join(dir, fs.readdirSync(dir).find((n) => n.endsWith(".data"))!);
    const bytes = fs.readFileSync(data);
    bytes[bytes.indexOf("vvvv") + 5]! ^= 1; // in the value: the sealed file's hint still lists the key
    fs.writeFileSync(data, bytes);
    const keys = await rafkv([dir, "scan", "-k"]);
    expect([keys.code, keys.out]).toEqual([EXIT.ok, "damaged\nfine\n"]);
    expect((await rafkv([dir, "scan"])).code).toBe(EXIT.corrupt);
  });
});

describe("messages that name a key", () => {
  it("show its UTF-8 text with control characters escaped, in the library and the CLI", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.put("é", "v".repeat(40));
    await db.put("x\u009b[2Jy", "w".repeat(40));
    await db.close();
    const data = path.join(dir, fs.readdirSync(dir).find((n) => n.endsWith(".data"))!);
    const bytes = fs.readFileSync(data);
    for (const marker of ["vvvv", "wwww"]) bytes[bytes.indexOf(marker) + 5]! ^= 1;
    fs.writeFileSync(data, bytes);
    const again = await open(dir, { readOnly: true });
    await expect(again.get("é")).rejects.toMatchObject({
      code: "ERR_KV_CORRUPT",
      message: expect.stringMatching(/^record of key "é" in /),
    });
    await expect(again.get("x\u009b[2Jy")).rejects.toMatchObject({
      message: expect.stringMatching(/^record of key "x\\x9b\[2Jy" in /),
    });
    const report = await again.verify();
    expect([...report.problems.join("\n")].filter((c) => c >= "\u0080" && c <= "\u009f")).toEqual(
      [],
    );
    await again.close();
    const get = await rafkv([dir, "get", "x\u009b[2Jy"]);
    expect(get.code).toBe(EXIT.corrupt);
    // No raw ESC or C1 control reaches the terminal.
    expect([...get.err].filter((c) => c === "\u001b" || (c >= "\u0080" && c <= "\u009f"))).toEqual(
      [],
    );
  });
});
