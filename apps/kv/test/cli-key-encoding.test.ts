import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { EXIT } from "../src/cli-main";
import { tempDir } from "./helpers";
import { rafkv } from "./rafkv";

describe("rafkv --key-encoding", () => {
  it("takes back a binary key as scan -e hex or -e base64 printed it, in every command that takes a key", async () => {
    const dir = path.join(tempDir(), "db");
    // A key that is not valid UTF-8: typed as text it could never be spelled.
    const key = Buffer.from([0x00, 0xff, 0xfe, 0x41]);
    const db = await open(dir);
    await db.put(key, "binary");
    await db.put(Buffer.from([0x00, 0xff, 0x01]), "sibling");
    await db.close();

    const hex = (await rafkv([dir, "scan", "-k", "-e", "hex"])).out.trim().split("\n");
    expect(hex).toEqual(["00ff01", key.toString("hex")]);
    const b64 = (await rafkv([dir, "scan", "-k", "-e", "base64"])).out.trim().split("\n")[1]!;
    expect(b64).toBe(key.toString("base64"));

    const get = await rafkv([dir, "get", hex[1]!, "--key-encoding", "hex"]);
    expect(get).toMatchObject({ code: EXIT.ok, out: "binary" });
    expect((await rafkv([dir, "get", hex[1]!.toUpperCase(), "--key-encoding", "hex"])).out).toBe(
      "binary",
    );
    expect((await rafkv([dir, "get", b64, "--key-encoding", "base64"])).out).toBe("binary");
    // Without it, the text is the key's UTF-8 bytes: another key.
    expect((await rafkv([dir, "get", hex[1]!])).code).toBe(EXIT.notFound);

    expect((await rafkv([dir, "put", b64, "changed", "--key-encoding", "base64"])).code).toBe(
      EXIT.ok,
    );
    expect(
      (await rafkv([dir, "put", "0102", "-", "--key-encoding", "hex"], Buffer.from("piped"))).code,
    ).toBe(EXIT.ok);
    expect(
      (await rafkv([dir, "scan", "00ff", "--key-encoding", "hex", "-e", "hex", "-k"])).out,
    ).toBe(`00ff01\n${key.toString("hex")}\n`);
    expect((await rafkv([dir, "del", hex[0]!, "--key-encoding", "hex"])).code).toBe(EXIT.ok);
    expect((await rafkv([dir, "del", hex[0]!, "--key-encoding", "hex"])).code).toBe(EXIT.notFound);

    const check = await open(dir, { readOnly: true });
    expect(await check.getString(key)).toBe("changed");
    expect(await check.getString(Buffer.from([1, 2]))).toBe("piped");
    expect(await check.has(Buffer.from([0x00, 0xff, 0x01]))).toBe(false);
    expect(check.stats().keys).toBe(2);
    await check.close();
  });

  it("rejects malformed hex or base64 with the usage exit code, writing nothing", async () => {
    const dir = path.join(tempDir(), "db");
    expect((await rafkv([dir, "put", "k", "v"])).code).toBe(EXIT.ok);
    const cases: [string[], RegExp][] = [
      [["put", "0g", "v", "--key-encoding", "hex"], /key "0g" is not hex/],
      [
        ["put", "abc", "v", "--key-encoding", "hex"],
        /key "abc" is not hex \(expected pairs of hex digits\)/,
      ],
      [
        ["get", "AP8", "--key-encoding", "base64"],
        /key "AP8" is not base64 \(expected padded standard base64\)/,
      ],
      [["del", "AP9=", "--key-encoding", "base64"], /key "AP9=" is not base64/], // bits past the last byte
      [["del", "a b=", "--key-encoding", "base64"], /is not base64/],
      [["scan", "zz", "--key-encoding", "hex"], /prefix "zz" is not hex/],
      [["put", "k", "v", "--key-encoding", "latin1"], /Allowed choices are utf8, hex, base64/],
    ];
    for (const [args, message] of cases) {
      const r = await rafkv([dir, ...args], Buffer.from("stdin"));
      expect(r.code, args.join(" ")).toBe(EXIT.usage);
      expect(r.err, args.join(" ")).toMatch(message);
    }
    const db = await open(dir, { readOnly: true });
    expect(db.stats().keys).toBe(1);
    await db.close();
    const help = await rafkv([dir, "get", "--help"]);
    expect(help.out).toMatch(/--key-encoding <encoding>.*hex.*base64/s);
    expect((await rafkv(["--help"])).out).toMatch(/get 00ff --key-encoding hex/);
  });
});
