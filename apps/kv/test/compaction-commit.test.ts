import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { open } from "../src";
import { dataFiles, flipByte, tempDir } from "./helpers";

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
      // A put in the compaction's last turn makes it skip the key's older record; then the process dies right
      // after the commit, before the batch group's fsync.
      child(`
        import { open } from ${JSON.stringify(DIST)};
        const store = await open(${JSON.stringify(dir)}, { sync: ${JSON.stringify(sync)} });
        const ps = [];
        for (let i = 0; i < 1000; i++) ps.push(store.put("f" + i, "filler" + i));
        await Promise.all(ps);
        await store.put("k", "v1");
        ${sync === "never" ? "await store.close(); const again = await open(" + JSON.stringify(dir) + ", { sync: 'never' });" : "const again = store;"}
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
