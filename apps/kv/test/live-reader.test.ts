import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "./helpers";

const SHM = "/dev/shm";
let shmDir: string | undefined;
afterEach(() => {
  if (shmDir) fs.rmSync(shmDir, { recursive: true, force: true });
  shmDir = undefined;
});

/** A temp directory in memory where there is one: fsyncs cost nothing, so the writer compacts many times a second. */
function fastTempDir(): string {
  if (!fs.existsSync(SHM)) return tempDir();
  shmDir = fs.mkdtempSync(path.join(SHM, "rafkv-test-"));
  return shmDir;
}

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

/** Runs a fixture script; resolves to its stdout once it exits. */
function run(child: ChildProcess): Promise<string> {
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`)),
    ),
  );
}

describe("read-only opens of a store whose writer compacts in a loop", () => {
  // The writer runs on the node backend (no OS lock), so readers can open while it deletes compacted files.
  it("retry a load whose files a committed compaction deleted, and never see corruption or a deleted key", async () => {
    const dir = fastTempDir();
    const writer = spawn(process.execPath, [fixture("compacting-writer.mjs"), dir], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, RAFKIT_BACKEND: "node" },
    });
    const writerDone = run(writer);
    await new Promise<void>((resolve) => writer.stdout!.once("data", () => resolve()));
    const reader = (backend: string) =>
      run(
        spawn(process.execPath, [fixture("read-only-opener.mjs"), dir, "150"], {
          stdio: ["ignore", "pipe", "inherit"],
          env: { ...process.env, RAFKIT_BACKEND: backend },
        }),
      );
    // "" is the default backend: native where it loads.
    const readers = Promise.all([reader(""), reader("node")]);
    const results = await readers.finally(async () => {
      writer.stdin!.end("stop");
      await writerDone.catch(() => undefined); // stopped before its directory is removed
    });
    const written = JSON.parse((await writerDone).trim().split("\n").at(-1)!) as {
      compactions: number;
    };
    console.log(
      `live readers: writer ${JSON.stringify(written)}, readers ${results.join(" ").trim()}`,
    );
    expect(written.compactions).toBeGreaterThan(10); // the readers really raced compactions
    for (const text of results) {
      expect(JSON.parse(text)).toEqual({ opens: 150, failures: [], failed: 0 });
    }
  });
});
