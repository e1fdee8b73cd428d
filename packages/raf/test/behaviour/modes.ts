import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { errnoOf, getBackend } from "@rafkit/syscall-state";
import { faultBackend } from "@rafkit/syscall-state/testing";
import { describe, expect, test } from "vitest";
import { AsyncRandomAccessFile, RandomAccessFile } from "../../src/index";
import { tempDir } from "../support/temp";

const tmp = tempDir();

describe("modes", () => {
  test("an illegal mode is rejected with Java's message before any I/O", () => {
    const p = tmp("never.bin");
    for (const mode of ["x", "rx", "RW", "", "w"]) {
      expect(() => new RandomAccessFile(p, mode as "r")).toThrow(
        expect.objectContaining({
          name: "TypeError",
          code: "ERR_INVALID_ARG_VALUE",
          message: `Illegal mode "${mode}" must be one of "r", "rw", "rws", or "rwd"`,
        }),
      );
    }
    expect(existsSync(p)).toBe(false);
  });

  test.each(["node", "native"] as const)(
    "open failures are Node-shaped errors (%s backend)",
    (backend) => {
      const missing = tmp("missing.bin");
      expect(() => new RandomAccessFile(missing, "r", { backend })).toThrow(
        expect.objectContaining({
          code: "ENOENT",
          errno: -errnoOf("ENOENT"),
          syscall: "open",
          path: missing,
        }),
      );
      expect(existsSync(missing)).toBe(false);
      const dir = tmp("dir");
      writeFileSync(tmp("x"), "");
      // node:fs on Windows opens a directory for writing (libuv asks with backup semantics).
      const modes = backend === "node" && process.platform === "win32" ? ["r"] : ["r", "rw"];
      for (const mode of modes as ("r" | "rw")[]) {
        expect(() => new RandomAccessFile(dirname(dir), mode, { backend })).toThrow(
          expect.objectContaining({ code: "EISDIR", syscall: "open" }),
        );
      }
    },
  );

  test.each(["node", "native"] as const)(
    "a path with a NUL byte is node:fs's TypeError, and no other file is created (%s backend)",
    async (backend) => {
      const real = tmp("victim");
      const evil = `${real}\u0000.ext`;
      const shape = { name: "TypeError", code: "ERR_INVALID_ARG_VALUE" };
      expect(() => new RandomAccessFile(evil, "rw", { backend })).toThrow(
        expect.objectContaining(shape),
      );
      await expect(AsyncRandomAccessFile.open(evil, "rw", { backend })).rejects.toMatchObject(
        shape,
      );
      expect(existsSync(real)).toBe(false);
    },
  );

  // Windows has no permission bits for chmod to clear (it sets the read-only attribute only).
  test.skipIf(process.getuid?.() === 0 || process.platform === "win32")(
    "a file without permission fails with EACCES",
    () => {
      const p = tmp("locked.bin");
      writeFileSync(p, "x");
      chmodSync(p, 0o000);
      expect(() => new RandomAccessFile(p, "r")).toThrow(
        expect.objectContaining({ code: "EACCES" }),
      );
    },
  );

  test("rw creates the file; r refuses writes with EBADF (as Java's 'Bad file descriptor') before any I/O", () => {
    const p = tmp("created.bin");
    new RandomAccessFile(p, "rw").close();
    expect(existsSync(p)).toBe(true);
    writeFileSync(p, Uint8Array.of(1, 2));
    const backend = faultBackend(getBackend());
    const f = new RandomAccessFile(p, "r", { backend });
    backend.resetCalls();
    expect(() => f.writeInt(1)).toThrow(
      expect.objectContaining({ code: "EBADF", syscall: "write" }),
    );
    expect(() => f.write(Uint8Array.of(1))).toThrow(expect.objectContaining({ code: "EBADF" }));
    expect(() => f.writeUTF("x")).toThrow(expect.objectContaining({ code: "EBADF" }));
    expect(backend.totalCalls()).toBe(0);
    expect(f.readShort()).toBe(0x0102);
    f.close();
    expect([...readFileSync(p)]).toEqual([1, 2]);
  });

  test.each(["rws", "rwd"] as const)(
    "%s: every write call reaches the OS before it returns",
    (mode) => {
      const p = tmp("sync.bin");
      const f = new RandomAccessFile(p, mode);
      f.writeInt(0x01020304);
      expect([...readFileSync(p)]).toEqual([1, 2, 3, 4]);
      f.writeUTF("hi");
      expect(readFileSync(p).length).toBe(8);
      f.seek(0);
      expect(f.readInt()).toBe(0x01020304);
      f.close();
    },
  );
});
