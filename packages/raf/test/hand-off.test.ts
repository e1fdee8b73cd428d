import { mkdirSync } from "node:fs";
import { expect, test } from "vitest";
import { handed } from "../src/hand-off";
import { AsyncRandomAccessFile, RandomAccessFile } from "../src/index";
import { tempDir } from "./support/temp";

const tmp = tempDir();

test("each class's fields and its primitive methods' get the same window; nothing stays handed off after", async () => {
  const p = tmp("hand-off.bin");
  const f = new RandomAccessFile(p, "rw");
  expect(handed()).toBeUndefined();
  // The primitives (base class) and the class's own methods share one window: each sees the other's bytes.
  f.writeInt(7);
  f.writeUTF("x");
  f.seek(0);
  expect(f.readInt()).toBe(7);
  expect(f.readUTF()).toBe("x");
  expect(f.getFilePointer()).toBe(7);
  f.close();

  const a = await AsyncRandomAccessFile.open(p, "rw");
  expect(handed()).toBeUndefined();
  await a.seek(4);
  await a.writeShort(1);
  expect(await a.getFilePointer()).toBe(6);
  await a.seek(0);
  expect(await a.readInt()).toBe(7);
  await a.close();
});

test("a constructor that throws hands nothing off", async () => {
  const dir = tmp("a-directory");
  mkdirSync(dir);
  expect(() => new RandomAccessFile(dir, "r")).toThrow(expect.objectContaining({ code: "EISDIR" }));
  expect(() => new RandomAccessFile(tmp("missing.bin"), "r")).toThrow(
    expect.objectContaining({ code: "ENOENT" }),
  );
  expect(handed()).toBeUndefined();
  await expect(AsyncRandomAccessFile.open(dir, "r")).rejects.toMatchObject({ code: "EISDIR" });
  expect(handed()).toBeUndefined();
});
