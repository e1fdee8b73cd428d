import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { type DirectoryOps, open, realDirectory } from "../../src";
import { DIST_URL, tempDir } from "../helpers";

describe("locking", () => {
  it("allows one writer, or many readers, in this process", async () => {
    const dir = tempDir();
    const w = await open(dir);
    await expect(open(dir)).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    await expect(open(dir, { readOnly: true })).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    await w.close();
    const r1 = await open(dir, { readOnly: true });
    const r2 = await open(dir, { readOnly: true });
    await expect(open(dir)).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    await r1.close();
    await r2.close();
    const w2 = await open(dir);
    await w2.close();
  });

  it.skipIf(process.platform !== "win32")(
    "a spelling of the directory in another case is the same store (Windows ignores case)",
    async () => {
      const dir = tempDir();
      const w = await open(dir);
      try {
        // By path alone it was another store: refused only by the OS lock, where there is one ("locked for
        // writing by process <this pid>"); on raf's node backend, which has none, opened as a second writer.
        const error = await open(dir.toUpperCase()).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: "ERR_KV_LOCKED" });
        expect((error as Error).message).toContain("already open for writing in this process");
      } finally {
        await w.close();
      }
    },
  );

  /** Starts a child process that opens `dir` with `options`, prints its stats as JSON, and closes on any input. */
  async function holder(dir: string, options: object, env: NodeJS.ProcessEnv = process.env) {
    const dist = DIST_URL;
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(dist)}); const db = await m.open(${JSON.stringify(dir)}, ${JSON.stringify(options)}); console.log(JSON.stringify(db.stats())); process.stdin.on("data", async () => { await db.close(); process.exit(0); });`,
      ],
      { stdio: ["pipe", "pipe", "inherit"], env },
    );
    const stats = await new Promise<{ lock: string }>((resolve) =>
      child.stdout.once("data", (d: Buffer) => resolve(JSON.parse(d.toString()))),
    );
    const stop = async () => {
      child.stdin.write("x");
      await new Promise((resolve) => child.on("exit", resolve));
    };
    return { child, stats, stop };
  }

  it("a first open that another first open of the same new store overtakes sees a store, never another program's files", async () => {
    // As when the other's first data file appears right after this open's listing of the empty directory: two
    // listings (no data file, then "a file no store makes") refused it with ERR_KV_NO_STORE, not ERR_KV_LOCKED.
    const dir = tempDir();
    let lists = 0;
    const directory: DirectoryOps = {
      ...realDirectory,
      list(p: string) {
        const names = realDirectory.list(p);
        if (++lists === 1) fs.writeFileSync(path.join(dir, "0000000001.data"), "");
        return names;
      },
    };
    const db = await open(dir, { directory });
    await db.put("k", "v");
    await db.close();
    const reader = await open(dir, { readOnly: true });
    expect(await reader.getString("k")).toBe("v");
    await reader.close();
  });

  it("tells a refused writer that readers in another process hold the store", async () => {
    const dir = tempDir();
    await (await open(dir)).close();
    const reader = await holder(dir, { readOnly: true });
    try {
      expect(reader.stats.lock).toBe("os");
      const error = await open(dir).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "ERR_KV_LOCKED" });
      expect((error as Error).message).toContain("open read-only");
      const shared = await open(dir, { readOnly: true }); // shared locks coexist
      expect(shared.stats().lock).toBe("os");
      await shared.close();
    } finally {
      await reader.stop();
    }
  });

  it("reports in stats when the backend has no file locks (node backend): only opens in its process are excluded", async () => {
    const dir = tempDir();
    const nodeBackend = await holder(dir, {}, { ...process.env, RAFKIT_BACKEND: "node" });
    try {
      expect(nodeBackend.stats.lock).toBe("process");
    } finally {
      await nodeBackend.stop();
    }
  });

  it("names the pid of a writer in another process", async () => {
    const dir = tempDir();
    const dist = DIST_URL;
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(dist)}); const db = await m.open(${JSON.stringify(dir)}); console.log("open"); process.stdin.on("data", async () => { await db.close(); process.exit(0); });`,
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    try {
      const error = await open(dir).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "ERR_KV_LOCKED", holderPid: child.pid });
      expect((error as Error).message).toContain(`process ${child.pid}`);
      await expect(open(dir, { readOnly: true })).rejects.toMatchObject({ code: "ERR_KV_LOCKED" });
    } finally {
      child.stdin.write("x");
      await new Promise((resolve) => child.on("exit", resolve));
    }
    const db = await open(dir);
    await db.close();
  });
});
