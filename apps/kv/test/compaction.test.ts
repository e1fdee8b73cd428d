import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { keyIdBytes } from "../src/bytes";
import { decodeHint } from "../src/hint-file";
import { dataFiles, flipByte, tempDir } from "./helpers";

describe("CompactionResult", () => {
  it("counts the files a compaction wrote and removed, not those that writes during it started", async () => {
    const dir = tempDir();
    const db = await open(dir, { maxFileSize: 4096, sync: "never" });
    for (let i = 0; i < 300; i++) await db.put(`old:${i}`, `value-${i}-${"x".repeat(60)}`);
    for (let i = 0; i < 300; i += 3) await db.delete(`old:${i}`);
    const before = new Set(dataFiles(dir));
    const running = db.compact();
    // Enough writes meanwhile to fill and seal several active files.
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) writes.push(db.put(`new:${i}`, "y".repeat(100)));
    const result = await running;
    await Promise.all(writes);
    await db.close();
    const after = dataFiles(dir);
    const added = after.filter((n) => !before.has(n));
    // A compaction's outputs hold only records it copied: the keys written before it started.
    const outputs = added.filter((name) => {
      const hintPath = path.join(dir, name.replace(".data", ".hint"));
      if (!fs.existsSync(hintPath)) return false; // an empty active file
      const hint = decodeHint(fs.readFileSync(hintPath));
      return hint!.entries.every((h) =>
        Buffer.from(keyIdBytes(h.id)).toString().startsWith("old:"),
      );
    });
    expect(outputs.length).toBeGreaterThan(1);
    expect(added.length).toBeGreaterThan(outputs.length + 1); // writes started files of their own
    expect(result.filesWritten).toBe(outputs.length);
    expect(result.filesRemoved).toBe([...before].filter((n) => !after.includes(n)).length);
    expect(result.filesRemoved).toBeGreaterThan(1);
  });
});

// Children run the built store, as the crash test's writer does.
const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const KILL_AT_MARKER = fileURLToPath(new URL("./fixtures/kill-at-marker.cjs", import.meta.url));

function child(script: string, preload?: string): void {
  const args = preload ? ["--require", preload] : [];
  const r = spawnSync(process.execPath, [...args, "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  expect(r.signal, r.stderr).toBe("SIGKILL");
}

describe("a compaction's commit", () => {
  it.each(["batch", "never"] as const)(
    "under %s, never makes an older durable value obsolete before the write that replaced it is durable",
    async (sync) => {
      const dir = tempDir();
      // "never" promises nothing for acknowledged puts after a crash, so there a close makes them safe first
      // and the compaction runs in the store opened again.
      const compacting =
        sync === "never"
          ? `await store.close(); const again = await open(${JSON.stringify(dir)}, { sync: 'never' });`
          : "const again = store;";
      // A put in the compaction's last turn makes it skip the key's older record; then the process dies right
      // after the commit, before the batch group's fsync.
      child(`
        import { open } from ${JSON.stringify(DIST)};
        const store = await open(${JSON.stringify(dir)}, { sync: ${JSON.stringify(sync)} });
        const ps = [];
        for (let i = 0; i < 1000; i++) ps.push(store.put("f" + i, "filler" + i));
        await Promise.all(ps);
        await store.put("k", "v1");
        ${compacting}
        await again.compact({
          onProgress: (done, total) => {
            if (done < total && total - done <= 256) queueMicrotask(() => again.put("k", "v2"));
          },
        });
        process.kill(process.pid, "SIGKILL");
      `);
      const db = await open(dir, { readOnly: true });
      expect(["v1", "v2"]).toContain(await db.getString("k"));
      expect(await db.getString("f999")).toBe("filler999");
      await db.close();
    },
  );

  it("of a repair: a crash before it leaves the damage as the repair found it", async () => {
    const dir = tempDir();
    let db = await open(dir, { maxFileSize: 300 });
    await db.put("a", "OLDVALUE");
    await db.put("big1", "x".repeat(280));
    await db.put("b", "before");
    await db.put("a", "NEWVALUE");
    await db.put("big2", "y".repeat(280));
    await db.close();
    const holder = dataFiles(dir)
      .map((f) => path.join(dir, f))
      .find((f) => fs.readFileSync(f).includes("NEWVALUE"))!;
    flipByte(holder, fs.readFileSync(holder).indexOf("NEWVALUE") + 2);
    const size = fs.statSync(holder).size;

    child(
      `import { open } from ${JSON.stringify(DIST)};
       await open(${JSON.stringify(dir)}, { repair: true });`,
      KILL_AT_MARKER,
    );
    expect(fs.statSync(holder).size).toBe(size);
    expect(fs.existsSync(holder.replace(/\.data$/, ".hint"))).toBe(true);
    db = await open(dir);
    await expect(db.get("a")).rejects.toMatchObject({ code: "ERR_KV_CORRUPT" }); // not the older value
    expect(db.readOnly).toBe(true);
    await db.close();
    // The repair, run to the end this time.
    db = await open(dir, { repair: true });
    expect(await db.get("a")).toBeUndefined();
    expect(await db.getString("b")).toBe("before");
    await db.close();
  });
});

describe("compaction under a writer that awaits every write", () => {
  it.each([
    ["never", 200_000],
    ["always", 5_000],
  ] as const)("finishes under sync %s while the writer keeps going", async (sync, limit) => {
    const dir = tempDir();
    const db = await open(dir, { sync: sync === "always" ? "never" : sync });
    for (let i = 0; i < 3000; i++) db.put(`k${i}`, `value-${i}`);
    await db.close();
    const writer = await open(dir, { sync });
    let done = false;
    const compaction = writer.compact().then(() => {
      done = true;
    });
    let puts = 0;
    while (!done && puts < limit) await writer.put(`w${puts++ % 100}`, "x");
    expect(done).toBe(true);
    await compaction;
    expect(writer.stats().keys).toBe(3000 + Math.min(puts, 100));
    await writer.close();
  });
});

describe("acknowledgements during a compaction", () => {
  it("resolve in write order", async () => {
    const dir = tempDir();
    const db = await open(dir, { sync: "always" });
    for (let i = 0; i < 2000; i++) db.put(`k${i}`, "v");
    const compaction = db.compact();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => db.put("x", `v${i}`).then(() => order.push(i))),
    );
    await compaction;
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(await db.getString("x")).toBe("v39");
    await db.close();
  });
});
