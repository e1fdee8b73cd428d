import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { open } from "../src";
import { EFBIG, failWrites, hasProcFd, openFilesUnder, pathOfFd } from "./faults";
import { tempDir } from "./helpers";

// Writes that fail because a file cannot grow (EFBIG): a compaction's outputs (fault injection), and the
// active data file under a real file size limit.

describe.skipIf(!hasProcFd)(
  "a compaction whose output cannot be written (EFBIG on its .tmp files)",
  () => {
    it("fails without leaking the outputs' descriptors or leaving their files, and the store keeps writing", async () => {
      const dir = tempDir();
      const db = await open(dir, { sync: "never", maxFileSize: 8 * 1024 });
      for (let i = 0; i < 60; i++) await db.put(`k${i}`, "v".repeat(500));
      // Every write to a compaction output fails: their appends stay buffered, in several outputs at once.
      failWrites((fd) => pathOfFd(fd).endsWith(".data.tmp"), EFBIG);
      await expect(db.compact()).rejects.toMatchObject({ code: "EFBIG" });
      vi.restoreAllMocks();
      const openFds = openFilesUnder(dir).filter((target) => target.includes(".tmp"));
      // Before: the first output's close threw (its flush failed again), and the others were left open.
      expect(openFds).toEqual([]);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
      // Not a failure of the active file: the store goes on.
      expect(db.readOnly).toBe(false);
      await db.put("after", "1");
      await db.close();
      const again = await open(dir);
      expect(await again.getString("k59")).toBe("v".repeat(500));
      expect(await again.getString("after")).toBe("1");
      expect((await again.verify()).ok).toBe(true);
      await again.close();
    });
  },
);

const WRITER = fileURLToPath(new URL("./fixtures/file-size-limit-writer.mjs", import.meta.url));
const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const hasBash = process.platform !== "win32" && fs.existsSync("/bin/bash");
if (!hasBash) console.warn("write-failure test skipped: it needs bash's ulimit");
if (!fs.existsSync(DIST))
  console.warn(`write-failure test skipped: ${DIST} is missing (run the build first)`);

interface Outcome {
  uncaught?: string;
  acked: string[];
  failed: string | null;
  errors: Record<string, number>;
  failedVisible: boolean | null;
  readOnly: boolean;
  readOnlyReason?: string;
}

/** Runs the writer under a 64 KiB file size limit: its appends fail with a real EFBIG once the data file is full. */
function writeUntilFull(dir: string, sync: string, how = "loop"): Outcome {
  const child = spawnSync(
    "/bin/bash",
    ["-c", 'ulimit -f 64 && exec "$0" "$@"', process.execPath, WRITER, dir, sync, how],
    { encoding: "utf8", timeout: 30_000 },
  );
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Outcome;
}

describe.skipIf(!hasBash || !fs.existsSync(DIST))("a data file that cannot grow (EFBIG)", () => {
  it.each(["always", "batch", "never"])(
    "stops the writes cleanly under sync %s: no crash, nothing failed shows, everything acknowledged stays",
    async (sync) => {
      const dir = tempDir();
      const out = writeUntilFull(dir, sync);
      // Under never the failing flush ran in a setImmediate callback, and its exception crashed the process.
      expect(out.uncaught).toBeUndefined();
      expect(out.failed).not.toBeNull();
      expect(out.failedVisible).toBe(false);
      expect(out.readOnly).toBe(true);
      expect(out.readOnlyReason).toMatch(/a write failed \(EFBIG/);
      const db = await open(dir);
      expect(db.recovery).toEqual([]);
      expect(await db.get(out.failed!)).toBeUndefined();
      // Under never an acknowledgement promises nothing on disk; under always and batch every one holds.
      if (sync !== "never") {
        for (const key of out.acked) expect(await db.getString(key)).toBe("v".repeat(1000));
      }
      expect(db.stats().keys).toBeGreaterThan(0);
      expect((await db.verify()).ok).toBe(true);
      await db.close();
    },
  );

  it("releases the lock and every file when close's flush fails", async () => {
    const dir = tempDir();
    const out = writeUntilFull(dir, "never", "close") as unknown as {
      closeError: string | null;
      reopened: string;
    };
    expect(out).toEqual({ closeError: "EFBIG", reopened: "ok" });
    const db = await open(dir); // what reached the file before the limit: whole records, a torn tail cut
    expect((await db.verify()).ok).toBe(true);
    await db.close();
  });
});
