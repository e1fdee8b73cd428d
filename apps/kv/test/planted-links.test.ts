import * as fs from "node:fs";
import * as path from "node:path";
import { getBackend } from "@rafkit/syscall-state";
import { describe, expect, it, vi } from "vitest";
import { open } from "../src";
import { dataFiles, hintOf, tempDir, twoFiles } from "./helpers";

// Symbolic links planted in a store's directory, or swapped in at the backend's open after every lstat.

describe("a planted symbolic link", () => {
  const plant = async (which: string) => {
    const dir = await twoFiles();
    const target = path.join(tempDir(), "victim");
    fs.writeFileSync(target, "precious");
    const name =
      which === "data"
        ? path.join(dir, dataFiles(dir)[1]!)
        : which === "hint"
          ? hintOf(dir, 1)
          : path.join(dir, which);
    fs.rmSync(name, { force: true });
    fs.symlinkSync(target, name);
    return { dir, target, name };
  };

  it.each(["LOCK", "data", "hint"])(
    "in place of %s is refused with a clear error, and its target is untouched",
    async (which) => {
      const { dir, target } = await plant(which);
      for (const readOnly of [false, true]) {
        await expect(open(dir, { readOnly })).rejects.toMatchObject({
          code: "ELOOP",
          syscall: "open",
          message: expect.stringMatching(/is a symbolic link, which rafkv does not follow/),
        });
      }
      expect(fs.readFileSync(target, "utf8")).toBe("precious");
    },
  );

  /**
   * The race the `lstat` check leaves: the regular file is replaced by a link to `target` just before the backend's
   * `open` (after every `lstat` of the store), so the open follows it. The check on the opened descriptor refuses it.
   */
  const swapBeforeOpen = (name: string, target: string) => {
    const backend = getBackend();
    const real = backend.open.bind(backend);
    let swapped = 0;
    const spy = vi.spyOn(backend, "open").mockImplementation((p, mode) => {
      if (p === name && swapped++ === 0) {
        fs.rmSync(p, { force: true });
        fs.symlinkSync(target, p);
      }
      return real(p, mode);
    });
    return { spy, swapped: () => swapped };
  };

  it.each(["LOCK", "data", "hint"])(
    "swapped in for %s between the lstat and the open is refused, and its target is untouched",
    async (which) => {
      for (const readOnly of [false, true]) {
        const dir = await twoFiles();
        if (which === "LOCK") fs.writeFileSync(path.join(dir, "LOCK"), "");
        const name =
          which === "data"
            ? path.join(dir, dataFiles(dir)[1]!)
            : which === "hint"
              ? hintOf(dir, 1)
              : path.join(dir, which);
        const target = path.join(tempDir(), "victim");
        fs.writeFileSync(target, "precious");
        const { spy, swapped } = swapBeforeOpen(name, target);
        try {
          await expect(open(dir, { readOnly })).rejects.toMatchObject({
            code: "ELOOP",
            syscall: "open",
            message: expect.stringMatching(
              /was replaced .* while rafkv opened it, which rafkv does not follow/,
            ),
          });
        } finally {
          spy.mockRestore();
        }
        expect(swapped()).toBeGreaterThan(0);
        expect(fs.readFileSync(target, "utf8")).toBe("precious");
      }
    },
  );

  it("swapped in for a temp file between its lstat and its open is refused before anything is written", async () => {
    const dir = await twoFiles();
    const db = await open(dir);
    const target = path.join(tempDir(), "victim");
    fs.writeFileSync(target, "precious");
    const { spy, swapped } = swapBeforeOpen(path.join(dir, "MERGED.tmp"), target);
    try {
      await expect(db.compact()).rejects.toMatchObject({ code: "ELOOP" });
    } finally {
      spy.mockRestore();
      await db.close();
    }
    expect(swapped()).toBe(1);
    expect(fs.readFileSync(target, "utf8")).toBe("precious");
  });

  it("named as a temp file is removed as a leftover, never written through", async () => {
    const { dir, target, name } = await plant("MERGED.tmp");
    const db = await open(dir);
    expect(fs.existsSync(name)).toBe(false);
    await db.compact();
    await db.close();
    expect(fs.readFileSync(target, "utf8")).toBe("precious");
  });
});

describe("a file the store's own renames replace around an open", () => {
  /** Replaces `name` by a copy of itself (a new inode, same bytes), as a writer's atomic rename does. */
  const replaceByCopy = (name: string) => {
    fs.copyFileSync(name, `${name}.copy`);
    fs.renameSync(`${name}.copy`, name);
  };
  /** At the backend's open of `name`, `times` times: a replacement before the open and one after it. */
  const replaceAroundOpen = (name: string, times: number) => {
    const backend = getBackend();
    const real = backend.open.bind(backend);
    let opens = 0;
    const spy = vi.spyOn(backend, "open").mockImplementation((p, mode) => {
      if (p !== name || opens++ >= times) return real(p, mode);
      replaceByCopy(p);
      const fd = real(p, mode);
      replaceByCopy(p);
      return fd;
    });
    return { spy, opens: () => opens };
  };

  it("twice around one open (no link anywhere) is opened again, not refused", async () => {
    const dir = await twoFiles();
    const name = path.join(dir, dataFiles(dir)[1]!);
    const { spy, opens } = replaceAroundOpen(name, 1);
    try {
      const db = await open(dir, { readOnly: true });
      await db.close();
    } finally {
      spy.mockRestore();
    }
    expect(opens()).toBe(2);
  });

  it("around every open is refused after three tries, as a link swapped in and out would be", async () => {
    const dir = await twoFiles();
    const name = path.join(dir, dataFiles(dir)[1]!);
    const { spy, opens } = replaceAroundOpen(name, Number.POSITIVE_INFINITY);
    try {
      await expect(open(dir, { readOnly: true })).rejects.toMatchObject({ code: "ELOOP" });
    } finally {
      spy.mockRestore();
    }
    expect(opens()).toBe(3);
  });
});
