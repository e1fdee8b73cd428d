import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach } from "vitest";

/**
 * The built package's entry, as a URL for a child process to import. Resolved here, in test/, so that it is the
 * same for a suite in a subdirectory (the Windows bundles give every module their entry file's `import.meta.url`).
 */
export const DIST_URL = new URL("../dist/index.js", import.meta.url).href;

const dirs: string[] = [];

/** A fresh temp directory, removed after the test. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rafkv-test-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Data file names in `dir`, ascending. */
export function dataFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".data"))
    .sort();
}

/** Flips one byte of a file. */
export function flipByte(file: string, offset: number): void {
  const bytes = fs.readFileSync(file);
  bytes[offset] = bytes[offset]! ^ 0xff;
  fs.writeFileSync(file, bytes);
}

/** A store holding `a` = "1", compacted and closed, whose MERGED marker then got byte `at` flipped. */
export async function compactedWithDamagedMarker(at: number): Promise<string> {
  const { open } = await import("../src");
  const dir = tempDir();
  const db = await open(dir);
  await db.put("a", "1");
  await db.compact();
  await db.close();
  flipByte(path.join(dir, "MERGED"), at);
  return dir;
}

/**
 * The offsets of the records in a data file, in order, skipping the sync points between them (record.ts): where a
 * test's damage must go to hit the `i`-th record.
 */
export function recordOffsets(file: string): number[] {
  const bytes = fs.readFileSync(file);
  const offsets: number[] = [];
  for (let pos = 0; pos + 20 <= bytes.length; ) {
    const keyLength = bytes.readInt32BE(pos + 12);
    const valueLength = bytes.readInt32BE(pos + 16);
    if (keyLength === 0 && valueLength === 8) {
      pos += 28;
      continue;
    }
    if (keyLength < 1) break;
    offsets.push(pos);
    pos += 20 + keyLength + Math.max(valueLength, 0);
  }
  return offsets;
}

/** A store of two sealed files: 1 holds a=1 and c=1; 2 holds a=2 and c's tombstone. */
export async function twoFiles(): Promise<string> {
  const { open } = await import("../src");
  const dir = tempDir();
  const one = await open(dir);
  await one.put("a", "1");
  await one.put("c", "1");
  await one.close();
  // A file past maxFileSize is not continued: the next open starts file 2.
  const two = await open(dir, { maxFileSize: 1 });
  await two.put("a", "2");
  await two.delete("c");
  await two.close();
  return dir;
}

/** The hint file of the `n`-th data file (in `dataFiles` order) of the store in `dir`. */
export const hintOf = (dir: string, n: number) =>
  path.join(dir, dataFiles(dir)[n]!.replace(/\.data$/, ".hint"));
