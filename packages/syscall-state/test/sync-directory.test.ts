import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { NativeUnavailableError } from "../src/libc";
import { syncDirectory } from "../src/sync-directory";
import { windowsSyncDirectory } from "../src/win32/sync-directory";
import { neg, tempDir } from "./helpers";

describe("syncDirectory", () => {
  const dir = tempDir("sync-dir");

  test("flushes a directory after a rename: 0; a missing directory is -ENOENT", () => {
    const sub = join(dir, "store");
    mkdirSync(sub);
    writeFileSync(join(sub, "a.tmp"), "x");
    renameSync(join(sub, "a.tmp"), join(sub, "a"));
    expect(syncDirectory(sub)).toBe(0);
    expect(syncDirectory(join(dir, "missing"))).toBe(neg("ENOENT"));
  });

  test.skipIf(process.platform !== "win32")(
    "on Windows it succeeds where node:fs refuses a directory's fsync with EPERM",
    () => {
      const fd = openSync(dir, "r");
      try {
        expect(() => fsyncSync(fd)).toThrow(expect.objectContaining({ code: "EPERM" }));
      } finally {
        closeSync(fd);
      }
      expect(syncDirectory(dir)).toBe(0);
    },
  );

  test("on Windows without koffi: 0 for a directory that opens (node:fs cannot flush one), else its -errno", () => {
    const noKoffi = () => {
      throw new NativeUnavailableError("koffi did not load");
    };
    // The fallback answered node:fs's EPERM, so a store could not be made without koffi.
    expect(windowsSyncDirectory(dir, noKoffi)).toBe(0);
    expect(windowsSyncDirectory(join(dir, "missing"), noKoffi)).toBe(neg("ENOENT"));
  });
});
